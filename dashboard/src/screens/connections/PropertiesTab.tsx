import { useState } from 'react'
import { segmentFormSchema, snippetFormSchema, SOURCES_TEXT } from '@fl0/contracts/sources'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { Button } from '../../ui/Button.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { WebhookSettings } from './WebhookSettings.tsx'

/** The name under which the connections list is fetched, and refetched after a change. */
export const CONNECTIONS = 'connections'

/** What the Properties tab edits: a stored source, or the defaults a new one was handed. */
export interface SourceDraft {
  id: string
  type: 'segment' | 'snippet'
  name: string
  api_key: string
  url?: string
  snippet?: string
  /** A stored Segment source's webhook (WebhookSettings.tsx); a new one has none yet. */
  webhook_url?: string
  webhook_secret?: string
}

interface Props {
  org: string
  source: SourceDraft
  isNew: boolean
  onDone: () => void
}

type Values = { name: string; url: string }

/**
 * Properties (part 1 §2, §5): the name (and the domain of a snippet) with their
 * rules, the key or snippet to copy (and a Segment source's webhook), save, and
 * delete with a confirmation.
 * After a save or a delete the list is refetched and the drawer closes (§4).
 */
export function PropertiesTab({ org, source, isNew, onDone }: Props) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [confirming, setConfirming] = useState(false)
  const snippet = source.type === 'snippet'
  const form = useForm<Values>({
    initial: { name: source.name, url: source.url ?? '' },
    schema: snippet ? snippetFormSchema : segmentFormSchema,
    submit: async (values) => {
      const saved = isNew
        ? await api.sources.create(
            org,
            snippet
              ? { id: source.id, type: 'snippet', name: values.name, url: values.url, apiKey: source.api_key }
              : { id: source.id, type: 'segment', name: values.name, apiKey: source.api_key },
          )
        : await api.sources.update(org, source.id, snippet ? { name: values.name, url: values.url } : { name: values.name })
      snackbar.ok(isNew ? SOURCES_TEXT.added(saved.name) : SOURCES_TEXT.updated(saved.name))
      refetch(CONNECTIONS)
      onDone()
    },
  })

  const remove = async () => {
    try {
      await api.sources.remove(org, source.id)
      snackbar.ok(SOURCES_TEXT.deleted(source.name))
      refetch(CONNECTIONS)
      setConfirming(false)
      onDone()
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
      setConfirming(false)
    }
  }

  return (
    <>
    <form onSubmit={form.submit} noValidate className="space-y-6">
      <TextField label="Name" field={form.field('name')} error={form.errors.name} autoFocus={isNew} />
      {snippet && (
        <TextField label="Domain" placeholder="www.example.com" field={form.field('url')} error={form.errors.url} autoComplete="off" spellCheck={false} />
      )}

      {snippet ? (
        <div className="space-y-2">
          <label htmlFor="source-snippet" className="text-sm font-medium text-slate-700">
            Snippet
          </label>
          <p className="text-xs text-slate-500">Paste it into the &lt;head&gt; of every page of your site. Its events count from the moment the source is saved.</p>
          <textarea
            id="source-snippet"
            readOnly
            value={source.snippet ?? ''}
            rows={6}
            spellCheck={false}
            className="w-full resize-none rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs text-slate-700"
          />
          <CopyButton text={source.snippet ?? ''} label={SOURCES_TEXT.copySnippet} copiedMessage={SOURCES_TEXT.snippetCopied} />
        </div>
      ) : (
        <div className="space-y-2">
          <p id="source-key-label" className="text-sm font-medium text-slate-700">
            API key
          </p>
          <p className="text-xs text-slate-500">The write key of your Segment-compatible pipeline or library; events count from the moment the source is saved.</p>
          <code aria-labelledby="source-key-label" className="block break-all rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm text-slate-800">
            {source.api_key}
          </code>
          <CopyButton text={source.api_key} label={SOURCES_TEXT.copySegmentKey} copiedMessage={SOURCES_TEXT.segmentKeyCopied} />
        </div>
      )}
      {!snippet && <WebhookSettings url={source.webhook_url} secret={source.webhook_secret} />}

      <div className="flex items-center justify-between gap-2 border-t border-slate-200 pt-5">
        {isNew ? (
          <span />
        ) : (
          <Button variant="secondaryDanger" onClick={() => setConfirming(true)}>
            {SOURCES_TEXT.deleteSource}
          </Button>
        )}
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save
          </Button>
        </div>
      </div>
    </form>
      {confirming && (
        <ConfirmModal
          header={SOURCES_TEXT.deleteSource}
          description={`Are you sure you want to delete the source ${source.name}? Its ${snippet ? 'snippet' : 'API key'} stops sending events at once; events already received are kept.`}
          submitLabel="Delete..."
          onConfirm={remove}
          onClose={() => setConfirming(false)}
        />
      )}
    </>
  )
}
