import { useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { FEATURE_TEXT } from '@fl0/contracts/features'
import { useApi } from '../../api/context.tsx'
import type { FeatureSummary } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { PAGE_SIZE } from '../../constants.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { usePage } from '../../ui/grid/usePage.ts'
import { FEATURES, FeatureModal } from './FeatureModal.tsx'

const COLUMNS: Column<FeatureSummary>[] = [{ key: 'name', header: 'Name', width: 480, render: (f) => f.name }]

function FeatureGrid({ features, search, onOpen }: { features: FeatureSummary[]; search: string; onOpen: (id: string) => void }) {
  const q = search.trim().toLowerCase()
  const rows = q ? features.filter((f) => f.name.toLowerCase().includes(q)) : features
  const [page, setPage] = usePage(q)
  return (
    <DataGrid
      columns={COLUMNS}
      rows={rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
      rowKey={(f) => f.id}
      total={rows.length}
      page={page}
      onPage={setPage}
      onRowClick={(f) => onOpen(f.id)}
      empty={FEATURE_TEXT.empty}
    />
  )
}

/**
 * 'Your features' (part 1 §2): the organisation's features, searched by name,
 * 20 a page. The feature modal is addressed by the URL (?modal=feature-modal,
 * with &id= for an existing feature), so a feature can be linked to and the
 * back button closes it.
 */
export default function FeaturesPage() {
  const { organization = '' } = useParams()
  const api = useApi()
  const [params, setParams] = useSearchParams()
  const [search, setSearch] = useState('')
  const fetched = useFetch((signal) => api.features.list(organization, signal), [organization], { name: FEATURES })

  const modalOpen = params.get('modal') === FEATURE_TEXT.modal
  const featureId = params.get('id') ?? undefined
  const openModal = (id?: string) => setParams(id ? { modal: FEATURE_TEXT.modal, id } : { modal: FEATURE_TEXT.modal })
  const closeModal = () =>
    setParams((p) => {
      const next = new URLSearchParams(p)
      next.delete('modal')
      next.delete('id')
      return next
    })

  return (
    <div className="p-8">
      <Heading actions={<Button onClick={() => openModal()}>{FEATURE_TEXT.add}</Button>}>{FEATURE_TEXT.heading}</Heading>
      <input
        type="search"
        aria-label="Search features"
        placeholder="Search features..."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="mb-4 w-72 rounded-md border border-slate-300 px-3 py-2 text-sm outline-none focus:ring-2 focus:ring-indigo-200"
      />
      <FetchView fetched={fetched}>{({ features }) => <FeatureGrid features={features} search={search} onOpen={openModal} />}</FetchView>
      {modalOpen && <FeatureModal key={featureId ?? 'new'} org={organization} featureId={featureId} onClose={closeModal} />}
    </div>
  )
}
