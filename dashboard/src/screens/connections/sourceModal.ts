import { useCallback } from 'react'
import { useSearchParams } from 'react-router'

/**
 * The connections screen's modals live in the address, so each is a link:
 *   ?modal=add-source                   the choice of a new source's type
 *   ?modal=segment-modal                a new Segment source
 *   ?modal=snippet-modal                a new snippet source
 *   ?modal=segment-modal&id={sourceId}  an existing source (snippet-modal alike)
 * The names are the spec's (part 1 §2: segment-modal, snippet-modal).
 */
export const MODAL_PARAM = 'modal'
export const ID_PARAM = 'id'
export const SOURCE_MODALS = ['add-source', 'segment-modal', 'snippet-modal'] as const
export type SourceModal = (typeof SOURCE_MODALS)[number]

export const modalFor = (type: 'segment' | 'snippet'): SourceModal => (type === 'segment' ? 'segment-modal' : 'snippet-modal')

/** The search string that opens a modal: `?modal=…&id=…`. */
export function modalSearch(modal: SourceModal, id?: string): string {
  const params = new URLSearchParams({ [MODAL_PARAM]: modal })
  if (id) params.set(ID_PARAM, id)
  return `?${params}`
}

export function useSourceModal() {
  const [params, setParams] = useSearchParams()
  const raw = params.get(MODAL_PARAM)
  const modal = (SOURCE_MODALS as readonly string[]).includes(raw ?? '') ? (raw as SourceModal) : null
  const id = params.get(ID_PARAM) ?? undefined
  const open = useCallback(
    (next: SourceModal, sourceId?: string) =>
      setParams((p) => {
        const out = new URLSearchParams(p)
        out.set(MODAL_PARAM, next)
        if (sourceId) out.set(ID_PARAM, sourceId)
        else out.delete(ID_PARAM)
        return out
      }),
    [setParams],
  )
  const close = useCallback(
    () =>
      setParams((p) => {
        const out = new URLSearchParams(p)
        out.delete(MODAL_PARAM)
        out.delete(ID_PARAM)
        return out
      }),
    [setParams],
  )
  return { modal, id, open, close }
}
