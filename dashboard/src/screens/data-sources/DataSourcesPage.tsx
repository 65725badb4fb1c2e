import { useState } from 'react'
import { useParams } from 'react-router'
import { saveDataSourcesSchema, SOURCES_TEXT } from '@fl0/contracts/sources'
import { useApi } from '../../api/context.tsx'
import type { DataSourcesRecord } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Heading } from '../../ui/Heading.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'

export const DOMAIN_SAVED = 'Domain saved'

function DataSourcesForm({ org, initial }: { org: string; initial: DataSourcesRecord }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [record, setRecord] = useState(initial)
  const form = useForm({
    initial: { domain: initial.domain },
    schema: saveDataSourcesSchema,
    submit: async (values: { domain: string }) => {
      const saved = await api.dataSources.save(org, { domain: values.domain })
      setRecord(saved)
      form.setValue('domain', saved.domain)
      snackbar.ok(DOMAIN_SAVED)
    },
  })
  return (
    <div className="max-w-2xl space-y-8">
      <form onSubmit={form.submit} noValidate className="flex items-start gap-3">
        {/* The placeholder is the host this page is served from (part 1 §2: placeholder {host}). */}
        <TextField label="Domain" placeholder={window.location.host} field={form.field('domain')} error={form.errors.domain} className="flex-1" autoComplete="off" spellCheck={false} />
        <Button type="submit" loading={form.submitting} className="mt-6">
          Save
        </Button>
      </form>
      <div className="space-y-2">
        <label htmlFor="script-snippet" className="text-sm font-medium text-slate-700">
          Script snippet
        </label>
        <p className="text-xs text-slate-500">Paste it into the &lt;head&gt; of every page of your site.</p>
        <textarea
          id="script-snippet"
          readOnly
          value={record.snippet}
          rows={7}
          spellCheck={false}
          className="w-full resize-none rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs text-slate-700"
        />
        <CopyButton text={record.snippet} label="Copy" copiedMessage={SOURCES_TEXT.scriptCopied} />
      </div>
    </div>
  )
}

/** Data sources (part 1 §2): the website's domain, saved on submit, and the script snippet to copy. */
export default function DataSourcesPage() {
  const { organization = '' } = useParams()
  const api = useApi()
  const fetched = useFetch((signal) => api.dataSources.get(organization, signal), [organization])
  return (
    <div className="p-8">
      <Heading>{SOURCES_TEXT.dataSourcesHeading}</Heading>
      <FetchView fetched={fetched}>{(record) => <DataSourcesForm key={organization} org={organization} initial={record} />}</FetchView>
    </div>
  )
}
