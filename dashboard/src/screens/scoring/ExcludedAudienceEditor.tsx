import { OPERATORS, type MatchType } from '@fl0/contracts/audiences'
import { SCORING_LIMITS } from '@fl0/contracts/scoring'
import { useApi } from '../../api/context.tsx'
import type { AudienceTraits } from '../../api/types.ts'
import type { Fetched } from '../../api/useFetch.ts'
import { Combobox } from '../../ui/Combobox.tsx'
import { Segmented } from '../../ui/Segmented.tsx'
import { traitValueKind } from '@fl0/contracts/trait-filters'
import { emptyFilter, type AudienceDraft, type FilterDraft } from './audienceDraft.ts'

const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200'
const inputClass = 'w-28 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200'

/** A trait's operators by its type (part 3 §3's table); a trait not known yet reads as a string. Booleans: is true, is false. */
function operatorsFor(type: string | undefined): readonly string[] {
  if (type === 'boolean') return ['is_true', 'is_false']
  const t: MatchType = type === 'number' || type === 'date' || type === 'stringArray' ? type : 'string'
  return OPERATORS[t]
}

const operationLabel = (op: string) => op.replaceAll('_', ' ')

function FilterValue({ org, audienceType, filter, type, name, onChange }: { org: string; audienceType: string; filter: FilterDraft; type?: string; name: string; onChange: (f: FilterDraft) => void }) {
  const api = useApi()
  const kind = traitValueKind(filter.operation)
  if (kind === 'none' || !filter.operation) return null
  const input = type === 'date' && kind !== 'relative' ? 'date' : type === 'number' || kind === 'relative' ? 'number' : 'text'
  const field = (which: 'value' | 'value2', label: string) =>
    input === 'text' ? (
      <Combobox
        className="min-w-28 flex-1"
        label={label}
        placeholder="value"
        value={filter[which]}
        onChange={(v) => onChange({ ...filter, [which]: v })}
        load={(signal) => api.lookups.traitValues(org, audienceType, filter.trait, signal).then((r) => r.values.map(String))}
        deps={[org, audienceType, filter.trait]}
        disabled={!filter.trait}
        empty="No values found"
      />
    ) : (
      <input aria-label={label} type={input} min={kind === 'relative' ? 0 : undefined} value={filter[which]} onChange={(e) => onChange({ ...filter, [which]: e.target.value })} className={inputClass} />
    )
  return (
    <>
      {field('value', `${name} value`)}
      {kind === 'range' && (
        <>
          <span className="text-xs text-slate-500">and</span>
          {field('value2', `${name} second value`)}
        </>
      )}
      {kind === 'relative' && <span className="text-xs text-slate-500">days</span>}
    </>
  )
}

/**
 * The model's excluded audience (part 3 §3): users (or companies) matching
 * its filters are left out of training, all of them (and) or any (or). A
 * filter is a trait of the audience type's entity (from the look-up), an
 * operation of the trait's type, and a value (suggested from the look-up).
 * An unfinished filter stays on screen and is not sent (part 3 §5).
 *
 * The audience builder's filters (screens/audiences) are another shape, a
 * kind per match with typed operator fields; this one is part 3 §3's flat
 * trait, operation and value under one audience type, so it has its own
 * compact editor.
 */
export function ExcludedAudienceEditor({ org, value, onChange, traits }: { org: string; value: AudienceDraft; onChange: (next: AudienceDraft) => void; traits: Fetched<AudienceTraits> }) {
  const types: Record<string, string> | undefined = traits.status === 'loaded' ? (value.audienceType === 'company' ? traits.data.company_traits : traits.data.user_traits) : undefined
  const api = useApi()
  const names = types ? Object.keys(types).sort((a, b) => a.localeCompare(b)) : []
  const set = (patch: Partial<AudienceDraft>) => onChange({ ...value, ...patch })
  const setRow = (i: number, row: FilterDraft) => set({ filters: value.filters.map((r, j) => (j === i ? row : r)) })

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Segmented
          label="Audience type"
          value={value.audienceType}
          // Traits are the entity's: another entity's filters would not mean anything.
          onChange={(audienceType) => set({ audienceType, filters: [] })}
          options={[
            { value: 'user', label: 'Users' },
            { value: 'company', label: 'Companies' },
          ]}
        />
        {value.filters.length > 1 && (
          <Segmented
            label="Aggregate"
            value={value.aggregate}
            onChange={(aggregate) => set({ aggregate })}
            options={[
              { value: 'and', label: 'All (and)' },
              { value: 'or', label: 'Any (or)' },
            ]}
          />
        )}
      </div>
      {value.filters.length > 0 && (
        <ul aria-label="Excluded audience filters" className="space-y-2">
          {value.filters.map((row, i) => {
            const name = `Exclusion ${i + 1}`
            const ops = operatorsFor(types?.[row.trait])
            return (
              <li key={i} className="flex flex-wrap items-center gap-1.5 rounded-md border border-slate-200 bg-slate-50 p-2">
                <Combobox
                  className="min-w-32 flex-1"
                  label={`${name} trait`}
                  placeholder="trait"
                  value={row.trait}
                  options={types ? names : undefined}
                  // Until the editor's look-up has answered, the list asks for itself.
                  load={types ? undefined : (signal) => api.lookups.traits(org, signal).then((r) => Object.keys(value.audienceType === 'company' ? r.company_traits : r.user_traits).sort((a, b) => a.localeCompare(b)))}
                  deps={[org, value.audienceType]}
                  onChange={(trait) => {
                    // Another trait keeps the operation only if its type has it too, and its values only if it is the same trait.
                    const same = trait === row.trait
                    setRow(i, { trait, operation: operatorsFor(types?.[trait]).includes(row.operation) ? row.operation : '', value: same ? row.value : '', value2: same ? row.value2 : '' })
                  }}
                  empty="No traits found"
                />
                <select
                  aria-label={`${name} operation`}
                  value={row.operation}
                  onChange={(e) => {
                    const operation = e.target.value
                    // An operation with another kind of value clears the values (part 3 §4).
                    const same = traitValueKind(operation) === traitValueKind(row.operation)
                    setRow(i, { ...row, operation, value: same ? row.value : '', value2: same ? row.value2 : '' })
                  }}
                  className={selectClass}
                >
                  <option value="" disabled>
                    operation
                  </option>
                  {(row.operation && !ops.includes(row.operation) ? [row.operation, ...ops] : ops).map((o) => (
                    <option key={o} value={o}>
                      {operationLabel(o)}
                    </option>
                  ))}
                </select>
                <FilterValue org={org} audienceType={value.audienceType} filter={row} type={types?.[row.trait]} name={name} onChange={(f) => setRow(i, f)} />
                <button type="button" aria-label={`Remove ${name.toLowerCase()}`} onClick={() => set({ filters: value.filters.filter((_, j) => j !== i) })} className="ml-auto rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-200">
                  ✕
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {value.filters.length < SCORING_LIMITS.filters && (
        <button
          type="button"
          onClick={() => set({ filters: [...value.filters, emptyFilter()] })}
          className="inline-flex items-center gap-1 rounded-full border border-dashed border-slate-400 px-3 py-1 text-sm text-slate-700 hover:border-indigo-500 hover:text-indigo-700"
        >
          <span aria-hidden>+</span> Add filter
        </button>
      )}
    </div>
  )
}
