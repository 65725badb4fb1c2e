import { useState } from 'react'
import { LEXICON_TEXT, PROPERTY_TYPES, TRAIT_EVENT_TYPES } from '@fl0/contracts/lexicon'
import { useApi } from '../../api/context.tsx'
import type { LexiconTrait } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { PAGE_SIZE } from '../../constants.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../ui/grid/DataGrid.tsx'
import { usePage } from '../../ui/grid/usePage.ts'
import { Filter, SearchBox, TypeBadge } from './controls.tsx'

type Entity = 'all' | 'user' | 'company'
const ENTITY_OPTIONS = [
  { value: 'all', label: LEXICON_TEXT.entities.all },
  { value: 'user', label: LEXICON_TEXT.entities.user },
  { value: 'company', label: LEXICON_TEXT.entities.company },
] as const

/** Part 2 §2: an event type of SegmentIdentify means the entity is user, SegmentGroup company. */
const entityOf = (t: LexiconTrait): Exclude<Entity, 'all'> => (t.eventType === TRAIT_EVENT_TYPES.company ? 'company' : 'user')

const COLUMNS: Column<LexiconTrait>[] = [
  { key: 'name', header: LEXICON_TEXT.traitName, width: 420, render: (t) => <span className="font-mono">{t.name}</span> },
  { key: 'type', header: LEXICON_TEXT.type, width: 180, render: (t) => <TypeBadge type={t.traitType} /> },
  { key: 'entity', header: LEXICON_TEXT.entity, width: 160, render: (t) => LEXICON_TEXT.entities[entityOf(t)] },
]

function TraitGrid({ traits }: { traits: LexiconTrait[] }) {
  const [search, setSearch] = useState('')
  const [entity, setEntity] = useState<Entity>('all')
  const [type, setType] = useState('all')
  // The Type filter offers the types the organisation's traits have, in the lexicon's order.
  const present = PROPERTY_TYPES.filter((p) => traits.some((t) => t.traitType === p))
  const q = search.trim().toLowerCase()
  const rows = traits.filter(
    (t) => (!q || t.name.toLowerCase().includes(q)) && (entity === 'all' || entityOf(t) === entity) && (type === 'all' || t.traitType === type),
  )
  const [page, setPage] = usePage({ q, entity, type })
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-4">
        <SearchBox label="Search traits" value={search} onChange={setSearch} />
        <Filter label={LEXICON_TEXT.entity} value={entity} options={ENTITY_OPTIONS} onChange={setEntity} />
        <Filter label={LEXICON_TEXT.type} value={type} options={[{ value: 'all', label: LEXICON_TEXT.entities.all }, ...present.map((p) => ({ value: p, label: p }))]} onChange={setType} />
      </div>
      <DataGrid
        columns={COLUMNS}
        rows={rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
        rowKey={(t) => `${t.eventType}:${t.name}`}
        total={rows.length}
        page={page}
        onPage={setPage}
        empty={LEXICON_TEXT.noTraits}
      />
    </div>
  )
}

/** The Traits tab (part 2 §2): what identify and group calls said about users and companies. */
export function TraitsTab({ org }: { org: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.lexicon.traits(org, signal), [org])
  return <FetchView fetched={fetched}>{({ traits }) => <TraitGrid traits={traits} />}</FetchView>
}
