import { METRIC_LIMITS, type AudienceType } from '@fl0/contracts/metrics'
import { useApi } from '../../../../api/context.tsx'
import { Segmented } from '../../../../ui/Segmented.tsx'
import { Combobox } from '../../../../ui/Combobox.tsx'
import { METRICS_TEXT } from '../../text.ts'
import { traitValueKind } from '@fl0/contracts/trait-filters'
import { newKey, operatorsFor, type Draft, type DraftTrait, type TraitOperation } from '../draft.ts'
import type { SetField } from './Options.tsx'
import { Section } from './Section.tsx'

const label = (op: string) => op.replaceAll('_', ' ')
const inputClass = 'w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200'

function TraitValue({ org, audienceType, trait, type, onChange, index }: { org: string; audienceType: AudienceType; trait: DraftTrait; type?: string; onChange: (t: DraftTrait) => void; index: number }) {
  const api = useApi()
  const kind = traitValueKind(trait.operation)
  if (kind === 'none') return null
  const load = (signal: AbortSignal) => api.lookups.traitValues(org, audienceType, trait.name, signal).then((r) => r.values.map(String))
  const input = type === 'date' && kind !== 'relative' ? 'date' : type === 'number' || kind === 'relative' ? 'number' : 'text'
  const field = (which: 'value' | 'value2', name: string) =>
    input === 'text' ? (
      <Combobox label={name} value={trait[which]} onChange={(v) => onChange({ ...trait, [which]: v })} load={load} deps={[org, audienceType, trait.name]} disabled={!trait.name} empty={METRICS_TEXT.noValues} placeholder="value" />
    ) : (
      <input aria-label={name} type={input} value={trait[which]} onChange={(e) => onChange({ ...trait, [which]: e.target.value })} className={inputClass} />
    )
  return (
    <div className="flex items-center gap-1.5">
      <div className="min-w-0 flex-1">{field('value', `Value of trait ${index + 1}`)}</div>
      {kind === 'range' && (
        <>
          <span className="text-xs text-slate-500">and</span>
          <div className="min-w-0 flex-1">{field('value2', `Last value of trait ${index + 1}`)}</div>
        </>
      )}
      {kind === 'relative' && <span className="text-xs text-slate-500">days</span>}
    </div>
  )
}

/**
 * Audience traits: who is counted, by the traits of the audience type's entity
 * (names and values from the look-ups), all of them (and) or any (or). A trait
 * left without a value is dropped on save.
 */
export function AudienceSection({ org, draft, set, types }: { org: string; draft: Draft; set: SetField; types: Record<string, string> | undefined }) {
  const api = useApi()
  const { traits, aggregate } = draft.audience
  const setTraits = (next: DraftTrait[]) => set('audience', { aggregate, traits: next })
  const replace = (i: number, t: DraftTrait) => setTraits(traits.map((x, k) => (k === i ? t : x)))
  const names = types ? Object.keys(types).sort((a, b) => a.localeCompare(b)) : undefined
  return (
    <Section
      title="Audience traits"
      aside={
        traits.length > 1 ? (
          <Segmented label="Traits aggregate" value={aggregate} onChange={(v) => set('audience', { traits, aggregate: v })} options={[{ value: 'and', label: 'And' }, { value: 'or', label: 'Or' }]} />
        ) : undefined
      }
    >
      {traits.length > 0 && (
        <ul aria-label="Audience traits" className="space-y-2">
          {traits.map((t, i) => {
            const ops = operatorsFor(types?.[t.name])
            return (
              <li key={t.key} className="space-y-1.5 rounded-md border border-slate-200 bg-white p-2">
                {i > 0 && <p className="text-xs font-medium uppercase text-slate-400">{aggregate}</p>}
                <div className="flex items-center gap-1.5">
                  <Combobox
                    className="min-w-0 flex-1"
                    label={`Trait ${i + 1}`}
                    placeholder="trait"
                    value={t.name}
                    options={names}
                    load={names ? undefined : (signal) => api.lookups.traits(org, signal).then((r) => Object.keys(draft.audienceType === 'company' ? r.company_traits : r.user_traits))}
                    deps={[org, draft.audienceType]}
                    onChange={(name) => {
                      // A trait of another type keeps the operator only if that type has it too.
                      const next = operatorsFor(types?.[name])
                      replace(i, { ...t, name, operation: next.includes(t.operation) ? t.operation : next[0]!, value: name === t.name ? t.value : '', value2: name === t.name ? t.value2 : '' })
                    }}
                    empty={METRICS_TEXT.noTraits}
                  />
                  <select
                    aria-label={`Operation of trait ${i + 1}`}
                    value={t.operation}
                    onChange={(e) => {
                      const operation = e.target.value as TraitOperation
                      // An operator with a different kind of value clears the values (part 3 §4).
                      const same = traitValueKind(operation) === traitValueKind(t.operation)
                      replace(i, { ...t, operation, value: same ? t.value : '', value2: same ? t.value2 : '' })
                    }}
                    className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                  >
                    {(ops.includes(t.operation) ? ops : [t.operation, ...ops]).map((op) => (
                      <option key={op} value={op}>
                        {label(op)}
                      </option>
                    ))}
                  </select>
                  <button type="button" aria-label={`Remove trait ${i + 1}`} onClick={() => setTraits(traits.filter((_, k) => k !== i))} className="rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100">
                    ✕
                  </button>
                </div>
                <TraitValue org={org} audienceType={draft.audienceType} trait={t} type={types?.[t.name]} onChange={(next) => replace(i, next)} index={i} />
              </li>
            )
          })}
        </ul>
      )}
      {traits.length < METRIC_LIMITS.traits && (
        <button
          type="button"
          onClick={() => setTraits([...traits, { key: newKey(), name: '', operation: 'is', value: '', value2: '' }])}
          className="inline-flex items-center gap-1 rounded-full border border-dashed border-slate-400 px-3 py-1 text-sm text-slate-700 hover:border-indigo-500 hover:text-indigo-700"
        >
          <span aria-hidden>+</span> Add trait
        </button>
      )}
    </Section>
  )
}
