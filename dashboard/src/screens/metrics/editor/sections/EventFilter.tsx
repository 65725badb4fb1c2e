import { BETWEEN_MESSAGE, OCCURRING_OPERATIONS, PROPERTY_OPERATIONS, type OccurringOperation, type PropertyOperation } from '@fl0/contracts/metrics'
import { useApi } from '../../../../api/context.tsx'
import { Combobox } from '../../../../ui/Combobox.tsx'
import { METRICS_TEXT } from '../../text.ts'
import { needsSecondCount, type DraftEvent, type DraftOccurring, type DraftProperty } from '../draft.ts'

export const PROPERTY_OPERATION_LABELS: Record<PropertyOperation, string> = {
  is: 'is',
  isNot: 'is not',
  startsWith: 'starts with',
  endsWith: 'ends with',
  contains: 'contains',
  doesNotContain: 'does not contain',
  greaterThan: 'greater than',
  lessThan: 'less than',
}
export const OCCURRING_OPERATION_LABELS: Record<OccurringOperation, string> = {
  equals: 'exactly',
  not: 'not',
  moreThan: 'more than',
  atLeast: 'at least',
  lessThan: 'less than',
  atMost: 'at most',
  between: 'between',
  notBetween: 'not between',
}

/** The between rule as the user types, before any save (part 2 §5). */
export function betweenError(o: DraftOccurring | undefined): string | undefined {
  if (!o || !needsSecondCount(o.operation) || o.value.trim() === '' || o.value2.trim() === '') return undefined
  return Number(o.value) > Number(o.value2) ? BETWEEN_MESSAGE : undefined
}

/** A form field's wiring: where its errors are registered and shown. */
export interface FieldWiring {
  ref: (el: HTMLElement | null) => void
  error?: string
}

interface Props {
  org: string
  index: number
  event: DraftEvent
  onChange: (event: DraftEvent) => void
  /** Measured by total, occurring filters are ignored (part 2 §5). */
  occurringIgnored: boolean
  wire: (name: string) => FieldWiring
}

const selectClass = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:ring-2 focus:ring-indigo-200'
const countClass = (invalid: boolean) =>
  `w-16 rounded-md border px-2 py-1.5 text-sm outline-none focus:ring-2 disabled:bg-slate-50 ${invalid ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:ring-indigo-200'}`

/** One of the occurring filter's counts: a whole number from 1. */
function CountInput({ inputRef, label, invalid, disabled, value, onChange }: { inputRef: FieldWiring['ref']; label: string; invalid: boolean; disabled: boolean; value: string; onChange: (value: string) => void }) {
  return (
    <input
      ref={inputRef}
      type="number"
      min={1}
      step={1}
      inputMode="numeric"
      aria-label={label}
      aria-invalid={invalid || undefined}
      disabled={disabled}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={countClass(invalid)}
    />
  )
}

/**
 * An event's filter: a condition on one of its properties (path and value from
 * the look-ups) and how often it must occur in the period, counted from 1.
 */
export function EventFilter({ org, index, event, onChange, occurringIgnored, wire }: Props) {
  const api = useApi()
  const property = event.property!
  const occurring = event.occurring!
  const setProperty = (patch: Partial<DraftProperty>) => onChange({ ...event, property: { ...property, ...patch } })
  const setOccurring = (patch: Partial<DraftOccurring>) => onChange({ ...event, occurring: { ...occurring, ...patch } })
  const base = `definition.events.${index}`
  const path = wire(`${base}.property.path`)
  const value = wire(`${base}.property.value`)
  const first = wire(`${base}.occurring.value`)
  const last = wire(`${base}.occurring.value2`)
  // Ignored filters are neither sent nor checked: no error about counts the user cannot change now.
  const between = occurringIgnored ? undefined : (last.error ?? betweenError(occurring))
  const countError = occurringIgnored ? undefined : (first.error ?? between)
  const who = `${event.name} (${index + 1})`

  return (
    <div className="space-y-2 rounded-md bg-slate-50 p-2">
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={`Property filter of ${who}`}>
        <span className="text-xs text-slate-500">where</span>
        <Combobox
          className="w-36"
          label={`Property of ${who}`}
          placeholder="property"
          value={property.path}
          onChange={(p) => setProperty({ path: p })}
          load={(signal) => api.lookups.eventProperties(org, event.name, signal).then((r) => r.items.map((i) => i.path))}
          deps={[org, event.name]}
          empty={METRICS_TEXT.noProperties}
          inputRef={path.ref}
          invalid={!!path.error}
        />
        <select aria-label={`Property operation of ${who}`} value={property.operation} onChange={(e) => setProperty({ operation: e.target.value as PropertyOperation })} className={selectClass}>
          {PROPERTY_OPERATIONS.map((op) => (
            <option key={op} value={op}>
              {PROPERTY_OPERATION_LABELS[op]}
            </option>
          ))}
        </select>
        <Combobox
          className="min-w-28 flex-1"
          label={`Property value of ${who}`}
          placeholder="value"
          value={property.value}
          onChange={(v) => setProperty({ value: v })}
          load={(signal) => api.lookups.propertyValues(org, event.name, property.path.trim(), signal).then((r) => r.items.map((i) => String(i.value)))}
          deps={[org, event.name, property.path.trim()]}
          disabled={!property.path.trim()}
          empty={METRICS_TEXT.noValues}
          inputRef={value.ref}
          invalid={!!value.error}
        />
      </div>
      {(path.error ?? value.error) && <p className="text-xs text-red-600">{path.error ?? value.error}</p>}
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label={`Occurring filter of ${who}`} title={occurringIgnored ? 'Occurring filters are ignored when measuring Total' : undefined}>
        <span className="text-xs text-slate-500">occurring</span>
        <select
          aria-label={`Occurring operation of ${who}`}
          value={occurring.operation}
          disabled={occurringIgnored}
          onChange={(e) => {
            const operation = e.target.value as OccurringOperation
            setOccurring({ operation, value2: needsSecondCount(operation) ? occurring.value2 : '' })
          }}
          className={selectClass}
        >
          {OCCURRING_OPERATIONS.map((op) => (
            <option key={op} value={op}>
              {OCCURRING_OPERATION_LABELS[op]}
            </option>
          ))}
        </select>
        <CountInput
          inputRef={first.ref}
          label={`Occurring count of ${who}`}
          invalid={!!countError}
          disabled={occurringIgnored}
          value={occurring.value}
          onChange={(v) => setOccurring({ value: v })}
        />
        {needsSecondCount(occurring.operation) && (
          <>
            <span className="text-xs text-slate-500">and</span>
            <CountInput
              inputRef={last.ref}
              label={`Last occurring count of ${who}`}
              invalid={!!between}
              disabled={occurringIgnored}
              value={occurring.value2}
              onChange={(v) => setOccurring({ value2: v })}
            />
          </>
        )}
        <span className="text-xs text-slate-500">times</span>
      </div>
      {occurringIgnored && <p className="text-xs text-slate-500">Occurring filters are ignored when measuring Total.</p>}
      {countError && (
        <p role="alert" className="text-xs text-red-600">
          {countError}
        </p>
      )}
    </div>
  )
}
