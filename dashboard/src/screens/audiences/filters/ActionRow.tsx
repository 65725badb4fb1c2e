import { ACTION_OPERATORS, AUDIENCE_TEXT, type ActionOperator, type AudienceAction } from '@fl0/contracts/audiences'
import { useApi } from '../../../api/context.tsx'
import { Combobox } from '../../../ui/Combobox.tsx'
import { changeOccurrence, isRangeOperator, operatorLabel, readNumber, type DraftAction } from './draft.ts'
import { CountInput, RangeInput, selectClass, UnitSelect } from './inputs.tsx'
import { Picker, type PickerItem } from './Picker.tsx'

interface Props {
  org: string
  index: number
  action: DraftAction
  features: { items: PickerItem[] | undefined; error?: string }
  onChange: (a: DraftAction) => void
  onRemove: () => void
}

/**
 * One action: an event (from the organisation's known events) or a feature,
 * how many times (an occurrence operator and a count, or two for between) and
 * in the last how many hours, days, weeks or months. Counts are 0 or more.
 */
export function ActionRow({ org, index, action: a, features, onChange, onRemove }: Props) {
  const api = useApi()
  const name = `Action ${index + 1}`
  const set = (patch: Partial<AudienceAction>) => onChange({ ...a, ...patch })
  return (
    <li className="flex flex-wrap items-center gap-1.5 rounded-md border border-slate-200 bg-white p-2">
      <select
        aria-label={`${name} kind`}
        value={a.kind}
        onChange={(e) => {
          const kind = e.target.value as AudienceAction['kind']
          onChange(kind === 'event' ? { ...a, kind, event_name: '', feature_id: undefined } : { ...a, kind, feature_id: '', event_name: undefined })
        }}
        className={selectClass}
      >
        <option value="event">Event</option>
        <option value="feature">Feature</option>
      </select>
      {a.kind === 'event' ? (
        <Combobox
          className="min-w-40 flex-1"
          label={`${name} event`}
          placeholder="event"
          value={a.event_name ?? ''}
          onChange={(event_name) => set({ event_name })}
          load={(signal) => api.events.list(org, '', signal).then((r) => r.events.map((e) => e.name))}
          deps={[org]}
          empty={AUDIENCE_TEXT.noEvents}
        />
      ) : (
        <Picker label={`${name} feature`} value={a.feature_id ?? ''} items={features.items} error={features.error} onChange={(feature_id) => set({ feature_id })} empty={AUDIENCE_TEXT.noFeatures} placeholder="feature" />
      )}
      <select aria-label={`${name} operator`} value={a.occurrence_op} onChange={(e) => onChange(changeOccurrence(a, e.target.value as ActionOperator))} className={selectClass}>
        {ACTION_OPERATORS.map((o) => (
          <option key={o} value={o}>
            {operatorLabel(o)}
          </option>
        ))}
      </select>
      {isRangeOperator(a.occurrence_op) ? (
        <RangeInput label={`${name} count`} type="number" min={0} first={a.value1} second={a.value2} read={readNumber} onChange={(value1, value2) => set({ value1, value2 })} />
      ) : (
        <CountInput label={`${name} count`} value={a.value} onChange={(value) => set({ value })} />
      )}
      <span className="text-sm text-slate-600">times in the last</span>
      <CountInput label={`${name} date range`} value={a.date_range.value} onChange={(value) => set({ date_range: { ...a.date_range, value } })} />
      <UnitSelect label={`${name} unit`} value={a.date_range.unit} onChange={(unit) => set({ date_range: { ...a.date_range, unit } })} />
      <button type="button" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove} className="ml-auto rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100">
        ✕
      </button>
    </li>
  )
}
