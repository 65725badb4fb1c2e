import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { AUDIENCE_TEXT } from '@fl0/contracts/audiences'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import type { AudienceSummary } from '../../api/types.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { CreateAudienceModal } from './CreateAudienceModal.tsx'
import { EMPTY_DRAFT, usableFilters } from './filters/draft.ts'
import { AUDIENCES, useAudiencePaths } from './paths.ts'

const columns: Column<AudienceSummary>[] = [
  {
    key: 'audience',
    header: AUDIENCE_TEXT.columns.audience,
    width: 420,
    render: (a) => (
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">{a.name}</p>
        {a.description && <p className="truncate text-xs text-slate-500">{a.description}</p>}
      </div>
    ),
  },
  { key: 'members', header: AUDIENCE_TEXT.columns.members, render: (a) => a.userCount.toLocaleString('en') },
  { key: 'companies', header: AUDIENCE_TEXT.columns.companies, render: (a) => a.companyCount.toLocaleString('en') },
]

/**
 * The Audiences tab (part 3 §2): the saved audiences with their members and
 * companies counted now, searched by name as one types; a row opens the
 * audience's editor. 'New audience' starts one: the create modal of part 3
 * §4 with no filters yet, then the audience's page, its filters first.
 */
export default function AudienceList() {
  const { organization = '' } = useParams()
  const api = useApi()
  const navigate = useNavigate()
  const paths = useAudiencePaths()
  const [search, setSearch] = useState('')
  const [creating, setCreating] = useState(false)
  const fetched = useFetch((signal) => api.audiences.list(organization, signal), [organization], { name: AUDIENCES })
  const term = search.trim().toLowerCase()
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <input
          type="search"
          aria-label={AUDIENCE_TEXT.search}
          placeholder={AUDIENCE_TEXT.search}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
        />
        <Button onClick={() => setCreating(true)}>
          <span aria-hidden>+</span> New audience
        </Button>
      </div>
      {creating && <CreateAudienceModal org={organization} filters={usableFilters(EMPTY_DRAFT)} onClose={() => setCreating(false)} />}
      <FetchView fetched={fetched}>
        {({ audiences }) => (
          <DataGrid
            columns={columns}
            rows={audiences.filter((a) => a.name.toLowerCase().includes(term))}
            rowKey={(a) => a.id}
            onRowClick={(a) => navigate(paths.audience(a.id))}
            empty={AUDIENCE_TEXT.noAudiences}
          />
        )}
      </FetchView>
    </div>
  )
}
