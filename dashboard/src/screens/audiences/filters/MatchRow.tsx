import { AUDIENCE_TEXT, OPERATORS, matchOperatorOf, matchTypeOf, valueKindOf, type AudienceMatch, type MatchType } from '@fl0/contracts/audiences'
import { useApi } from '../../../api/context.tsx'
import type { AudienceTraits } from '../../../api/types.ts'
import { Combobox } from '../../../ui/Combobox.tsx'
import { changeKind, changeOperator, changeTrait, operatorLabel, readDay, readNumber, traitType, type DraftMatch } from './draft.ts'
import { CountInput, inputClass, RangeInput, selectClass, UnitSelect } from './inputs.tsx'
import { Picker, type PickerItem } from './Picker.tsx'

const KINDS: Array<{ value: AudienceMatch['kind']; label: string }> = [
  { value: 'user', label: 'User trait' },
  { value: 'company', label: 'Company trait' },
  { value: 'audience', label: 'Audience' },
]

/** The operators a type offers: the table of part 3 §3 (booleans: is and is not, with true or false). */
function operatorsOf(type: MatchType, current: string | undefined): string[] {
  const ops: string[] = type === 'boolean' ? ['is', 'is_not'] : [...OPERATORS[type]]
  return current && !ops.includes(current) ? [current, ...ops] : ops
}

interface Props {
  org: string
  index: number
  match: DraftMatch
  traits: AudienceTraits | undefined
  audiences: { items: PickerItem[] | undefined; error?: string }
  onChange: (m: DraftMatch) => void
  onRemove: () => void
}

/**
 * One match: what it looks at (a user trait, a company trait, or another
 * audience), the trait from the look-up, an operator of the trait's type and
 * the value(s) that operator takes.
 */
export function MatchRow({ org, index, match: m, traits, audiences, onChange, onRemove }: Props) {
  const api = useApi()
  const name = `Filter ${index + 1}`
  const entity = m.kind === 'company' ? 'company' : 'user'
  const names = traits ? Object.keys(entity === 'company' ? traits.company_traits : traits.user_traits).sort((a, b) => a.localeCompare(b)) : undefined
  const typeOfName = (trait: string) => traitType((entity === 'company' ? traits?.company_traits : traits?.user_traits)?.[trait])
  const type = matchTypeOf(m) ?? 'string'
  const op = matchOperatorOf(m)
  const kind = valueKindOf(type, op ?? '')
  const set = (patch: Partial<AudienceMatch>) => onChange({ ...m, ...patch })

  const value = () => {
    switch (kind) {
      case 'none':
      case 'audience':
        return null
      case 'text':
        return (
          <Combobox
            className="min-w-40 flex-1"
            label={`${name} value`}
            placeholder="value"
            value={m.value == null ? '' : String(m.value)}
            onChange={(v) => set({ value: v })}
            load={(signal) => api.lookups.traitValues(org, entity, m.trait!, signal).then((r) => r.values.map(String))}
            deps={[org, entity, m.trait]}
            disabled={!m.trait}
            empty={AUDIENCE_TEXT.noValues}
          />
        )
      case 'number':
        return <input aria-label={`${name} value`} type="number" value={m.value == null ? '' : String(m.value)} onChange={(e) => set({ value: e.target.value })} className={`${inputClass} w-32`} />
      case 'boolean':
        return (
          <select aria-label={`${name} value`} value={m.value == null || m.value === '' ? '' : String(m.value)} onChange={(e) => set({ value: e.target.value })} className={selectClass}>
            <option value="" disabled>
              value
            </option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        )
      case 'day':
        return <input aria-label={`${name} value`} type="date" value={m.value == null ? '' : String(m.value)} onChange={(e) => set({ value: e.target.value })} className={`${inputClass} w-40`} />
      case 'numberRange':
      case 'dayRange':
        return (
          <RangeInput
            label={name}
            type={kind === 'numberRange' ? 'number' : 'date'}
            first={m.value1}
            second={m.value2}
            read={kind === 'numberRange' ? readNumber : readDay}
            onChange={(value1, value2) => set({ value1, value2 })}
          />
        )
      case 'relative':
        return (
          <div className="flex items-center gap-1.5">
            <CountInput label={`${name} value`} value={m.value} onChange={(v) => set({ value: v })} />
            <UnitSelect label={`${name} unit`} value={m.unit} onChange={(unit) => set({ unit })} />
          </div>
        )
    }
  }

  return (
    <li className="flex flex-wrap items-center gap-1.5 rounded-md border border-slate-200 bg-white p-2">
      <select aria-label={`${name} kind`} value={m.kind} onChange={(e) => onChange(changeKind(m, e.target.value as AudienceMatch['kind']))} className={selectClass}>
        {KINDS.map((k) => (
          <option key={k.value} value={k.value}>
            {k.label}
          </option>
        ))}
      </select>
      {m.kind === 'audience' ? (
        <>
          <span className="text-sm text-slate-600">is</span>
          <Picker
            label={`${name} audience`}
            value={m.audience_id ?? ''}
            items={audiences.items}
            error={audiences.error}
            onChange={(audience_id) => set({ audience_id })}
            empty={AUDIENCE_TEXT.noAudiences}
            placeholder="audience"
          />
        </>
      ) : (
        <>
          <Combobox
            className="min-w-40 flex-1"
            label={`${name} trait`}
            placeholder="trait"
            value={m.trait ?? ''}
            options={names}
            load={names ? undefined : (signal) => api.lookups.traits(org, signal).then((r) => Object.keys(entity === 'company' ? r.company_traits : r.user_traits))}
            deps={[org, entity]}
            onChange={(trait) => onChange(changeTrait(m, trait, typeOfName(trait)))}
            empty={AUDIENCE_TEXT.noTraits}
          />
          <select aria-label={`${name} operator`} value={op} onChange={(e) => onChange(changeOperator(m, e.target.value))} className={selectClass}>
            {operatorsOf(type, op).map((o) => (
              <option key={o} value={o}>
                {operatorLabel(o)}
              </option>
            ))}
          </select>
          {value()}
        </>
      )}
      <button type="button" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove} className="ml-auto rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100">
        ✕
      </button>
    </li>
  )
}
