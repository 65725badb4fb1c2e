import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { AUDIENCE_DESCRIPTION_INPUT_MAX, AUDIENCE_NAME_INPUT_MAX, AUDIENCE_TEXT, createAudienceSchema } from '@fl0/contracts/audiences'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { useFetch } from '../../api/useFetch.ts'
import type { AudienceDetail } from '../../api/types.ts'
import { Button } from '../../ui/Button.tsx'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { Spinner } from '../../ui/Spinner.tsx'
import { toDraft, usableFilters, type DraftFilters } from './filters/draft.ts'
import { FiltersEditor } from './filters/FiltersEditor.tsx'
import { AUDIENCES, useAudiencePaths } from './paths.ts'
import { AudiencePreview } from './preview/AudiencePreview.tsx'

type Audience = AudienceDetail['audience']
type Values = { name: string; description: string; draft: DraftFilters }

function Breadcrumbs({ name }: { name: string }) {
  const paths = useAudiencePaths()
  return (
    <nav aria-label="Breadcrumbs">
      <ol className="flex items-center gap-2 text-sm text-slate-500">
        <li>
          <Link to={paths.builder} className="hover:text-slate-800 hover:underline">
            {PEOPLE_TEXT.heading}
          </Link>
        </li>
        <li aria-hidden>›</li>
        <li>
          <Link to={paths.list} className="hover:text-slate-800 hover:underline">
            {AUDIENCE_TEXT.audiences}
          </Link>
        </li>
        <li aria-hidden>›</li>
        <li aria-current="page" className="truncate text-slate-800">
          {name}
        </li>
      </ol>
    </nav>
  )
}

function DeleteAudience({ org, audience }: { org: string; audience: Audience }) {
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const paths = useAudiencePaths()
  const [confirming, setConfirming] = useState(false)
  const remove = async () => {
    try {
      await api.audiences.remove(org, audience.id)
      snackbar.ok(AUDIENCE_TEXT.deleted(audience.name))
      refetch(AUDIENCES)
      navigate(paths.list)
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
      setConfirming(false)
    }
  }
  return (
    <>
      <Button variant="secondaryDanger" onClick={() => setConfirming(true)}>
        {AUDIENCE_TEXT.delete}
      </Button>
      {confirming && (
        <ConfirmModal header="Delete audience" description={AUDIENCE_TEXT.deleteConfirm(audience.name)} submitLabel={AUDIENCE_TEXT.delete} onConfirm={remove} onClose={() => setConfirming(false)} />
      )}
    </>
  )
}

/**
 * Every member as CSV, users or companies, built by the server
 * (GET .../audiences/{id}/members.csv): plain links, so the browser downloads
 * with the session cookie and the server's file name.
 */
function DownloadMembers({ org, audience }: { org: string; audience: Audience }) {
  const href = (of: 'users' | 'companies') => `/api/orgs/${encodeURIComponent(org)}/audiences/${encodeURIComponent(audience.id)}/members.csv?of=${of}`
  const linkClass = 'inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50'
  return (
    <div role="group" aria-label="Download members" className="flex gap-2">
      <a href={href('users')} download className={linkClass}>
        <span aria-hidden>⤓</span> Download users CSV
      </a>
      <a href={href('companies')} download className={linkClass}>
        <span aria-hidden>⤓</span> Download companies CSV
      </a>
    </div>
  )
}

/** The saved audience's form: name, description and filters, saved together by 'Save audience'. */
function EditAudience({ org, audience, onSaved }: { org: string; audience: Audience; onSaved: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const form = useForm<Values>({
    initial: { name: audience.name, description: audience.description, draft: toDraft(audience.filters) },
    // The create modal's rules for the name and description (trimmed as they are sent); the filters pass through.
    schema: createAudienceSchema.loose(),
    submit: async (values) => {
      await api.audiences.update(org, audience.id, { name: values.name, description: values.description, filters: usableFilters(values.draft) })
      snackbar.ok(AUDIENCE_TEXT.savedOk(values.name))
      refetch(AUDIENCES)
      onSaved()
    },
  })
  const name = form.field('name')
  const description = form.field('description')
  const filters = usableFilters(form.values.draft)
  return (
    <form onSubmit={form.submit} noValidate className="space-y-6">
      <div className="grid gap-3 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="flex flex-col gap-1">
          <label htmlFor={name.id} className="text-sm font-medium text-slate-700">
            {AUDIENCE_TEXT.name}
          </label>
          <input {...name} maxLength={AUDIENCE_NAME_INPUT_MAX} className="rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200" />
          {form.errors.name && (
            <p id={`${name.id}-error`} className="text-xs text-red-600">
              {form.errors.name}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={description.id} className="text-sm font-medium text-slate-700">
            {AUDIENCE_TEXT.description}
          </label>
          <input {...description} maxLength={AUDIENCE_DESCRIPTION_INPUT_MAX} className="rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200" />
          {form.errors.description && (
            <p id={`${description.id}-error`} className="text-xs text-red-600">
              {form.errors.description}
            </p>
          )}
        </div>
      </div>
      <FiltersEditor org={org} value={form.values.draft} onChange={(draft) => form.setValue('draft', draft)} audienceId={audience.id} />
      <div className="flex justify-end">
        <Button type="submit" loading={form.submitting}>
          {AUDIENCE_TEXT.save}
        </Button>
      </div>
      <AudiencePreview org={org} filters={filters} />
    </form>
  )
}

/**
 * The audience editor (part 3 §2): breadcrumbs People › Audiences › name, the
 * editable name and description, the filters with their preview, 'Save
 * audience' and 'Delete...'.
 */
export default function AudienceEditor() {
  const { organization = '', audienceId = '' } = useParams()
  const api = useApi()
  const fetched = useFetch((signal) => api.audiences.get(organization, audienceId, signal), [organization, audienceId])
  if (fetched.status !== 'loaded') {
    return <div className="space-y-4 p-8">{fetched.status === 'pending' ? <Spinner /> : <ErrorPanel message={fetched.error} />}</div>
  }
  const { audience } = fetched.data
  return (
    <div className="space-y-6 p-8">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <Breadcrumbs name={audience.name} />
          <h1 className="truncate text-2xl font-semibold tracking-tight">{audience.name}</h1>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <DownloadMembers org={organization} audience={audience} />
          <DeleteAudience org={organization} audience={audience} />
        </div>
      </div>
      <EditAudience key={audience.id} org={organization} audience={audience} onSaved={fetched.refetch} />
    </div>
  )
}
