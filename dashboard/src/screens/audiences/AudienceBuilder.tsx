import { useState, type ReactNode } from 'react'
import { useParams } from 'react-router'
import { AUDIENCE_TEXT } from '@fl0/contracts/audiences'
import { atom, useAtom } from '../../state/jotai.ts'
import { Button } from '../../ui/Button.tsx'
import { CreateAudienceModal } from './CreateAudienceModal.tsx'
import { EMPTY_DRAFT, usableFilters, type DraftFilters } from './filters/draft.ts'
import { FiltersEditor } from './filters/FiltersEditor.tsx'
import { AudiencePreview } from './preview/AudiencePreview.tsx'

/**
 * The builder's unsaved filters, by organisation: kept while the app is open,
 * so opening a previewed member and coming back (or going elsewhere and
 * returning) finds the filters as they were left. 'Clear filters' empties them.
 */
const draftsAtom = atom<Record<string, DraftFilters>>({})

/**
 * The audience builder with no saved audience (part 3 §2, §4), the first
 * thing on people/: its filters, 'Create audience...' to save them as an
 * audience, and below them who they take in.
 *
 * Until a finished filter is set the filters take in everyone, which is what
 * `everyone` (the People tab's table) already lists: it is shown instead of a
 * preview that would repeat it. Once a filter is set, the preview takes its
 * place, so the page never lists the same people twice.
 */
export default function AudienceBuilder({ everyone }: { everyone: ReactNode }) {
  const { organization = '' } = useParams()
  const [drafts, setDrafts] = useAtom(draftsAtom)
  const draft = drafts[organization] ?? EMPTY_DRAFT
  const setDraft = (next: DraftFilters) => setDrafts((all) => ({ ...all, [organization]: next }))
  const [creating, setCreating] = useState(false)
  // What is previewed and saved: the unfinished filters left out (part 3 §4).
  const filters = usableFilters(draft)
  const filtered = filters.matches.length > 0 || filters.actions.length > 0
  const hasRows = draft.matches.length > 0 || draft.actions.length > 0
  return (
    <>
      <section aria-labelledby="audience-builder" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0 space-y-0.5">
            <h2 id="audience-builder" className="text-lg font-semibold tracking-tight">
              Audience builder
            </h2>
            <p className="text-sm text-slate-500">
              {filtered ? 'The preview below lists who these filters take in.' : 'Add a filter or an action to narrow the people below into an audience.'}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            {hasRows && (
              <Button variant="secondary" onClick={() => setDraft(EMPTY_DRAFT)}>
                Clear filters
              </Button>
            )}
            <Button onClick={() => setCreating(true)}>{AUDIENCE_TEXT.create}</Button>
          </div>
        </div>
        <FiltersEditor org={organization} value={draft} onChange={setDraft} />
      </section>
      <div className="mt-6">{filtered ? <AudiencePreview org={organization} filters={filters} /> : everyone}</div>
      {creating && <CreateAudienceModal org={organization} filters={filters} onClose={() => setCreating(false)} onCreated={() => setDraft(EMPTY_DRAFT)} />}
    </>
  )
}
