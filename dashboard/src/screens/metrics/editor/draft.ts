import {
  applyMetricRules,
  TRAIT_OPERATIONS,
  type MetricDefinition,
  type OccurringOperation,
  type PropertyOperation,
} from '@fl0/contracts/metrics'
import { OPERATORS, traitValueKind } from '@fl0/contracts/trait-filters'
import type { z } from 'zod'
import type { metricDefinitionSchema, metricEventSchema } from '@fl0/contracts/metrics'

/**
 * The metric being edited, as the form holds it: the definition with its
 * inputs as typed (occurring counts are text until sent), a stable key per
 * event and trait (events move up and down), and the steps from it to what is
 * sent: empty filters omitted, traits without a value dropped (part 2 §5).
 */
export type TraitOperation = (typeof TRAIT_OPERATIONS)[number]

export interface DraftProperty {
  path: string
  operation: PropertyOperation
  value: string
}
export interface DraftOccurring {
  operation: OccurringOperation
  value: string
  value2: string
}
export interface DraftEvent {
  key: string
  name: string
  property?: DraftProperty
  occurring?: DraftOccurring
}
export interface DraftTrait {
  key: string
  name: string
  operation: TraitOperation
  value: string
  value2: string
}
export type Draft = Omit<MetricDefinition, 'events' | 'audience'> & {
  events: DraftEvent[]
  audience: { traits: DraftTrait[]; aggregate: MetricDefinition['audience']['aggregate'] }
}
type DefinitionInput = z.input<typeof metricDefinitionSchema>
type EventInput = z.input<typeof metricEventSchema>

let nextKey = 1
export const newKey = () => `k${nextKey++}`

/** Operators per trait type (part 3 §3, contracts/src/trait-filters.ts). Booleans here use is_true and is_false, which need no value. */
const { audience: _audience, ...OPERATORS_BY_TYPE } = OPERATORS
export const TRAIT_OPERATORS: Record<string, readonly TraitOperation[]> = { ...OPERATORS_BY_TYPE, boolean: ['is_true', 'is_false'] }
/** Lists of anything are searched like lists of text; an unknown type like text. */
export const operatorsFor = (type: string | undefined): readonly TraitOperation[] =>
  TRAIT_OPERATORS[type ?? 'string'] ?? (type?.endsWith('Array') ? TRAIT_OPERATORS.stringArray! : TRAIT_OPERATORS.string!)


export const needsSecondCount = (operation: OccurringOperation) => operation === 'between' || operation === 'notBetween'

export function fromDefinition(d: MetricDefinition): Draft {
  return {
    ...d,
    // A filter is one unit on screen: a saved half (the other left empty, so not sent) comes back with the other half empty.
    events: d.events.map((e) => {
      const event: DraftEvent = { key: newKey(), name: e.name }
      if (!e.property && !e.occurring) return event
      const empty = withFilter(event)
      return {
        ...event,
        property: e.property ? { ...e.property } : empty.property,
        occurring: e.occurring ? { operation: e.occurring.operation, value: String(e.occurring.value), value2: e.occurring.value2 === undefined ? '' : String(e.occurring.value2) } : empty.occurring,
      }
    }),
    audience: {
      aggregate: d.audience.aggregate,
      traits: d.audience.traits.map((t) => {
        const [value = '', value2 = ''] = Array.isArray(t.value) ? t.value : [t.value ?? '']
        return { key: newKey(), name: t.name, operation: t.operation, value, value2 }
      }),
    },
  }
}

/** A count as typed: a whole number, or undefined when the field is empty. */
const count = (text: string) => (text.trim() === '' ? undefined : Number(text))

function traitValue(t: DraftTrait): string | string[] | undefined | null {
  const kind = traitValueKind(t.operation)
  if (kind === 'none') return undefined
  if (kind === 'range') return t.value.trim() && t.value2.trim() ? [t.value.trim(), t.value2.trim()] : null
  return t.value.trim() ? t.value.trim() : null
}

/**
 * What is sent: a property filter without a path or a value and an occurring
 * filter without a first count are left out; a trait with no name, or with an
 * operator that needs a value and none given, is dropped. A range with its
 * first count but not its last stays in, so the between rule can say so.
 * Measured by total, occurring filters are ignored (part 2 §5): not sent, so
 * not checked either; the form keeps them for a change back.
 */
export function toDefinition(draft: Draft): DefinitionInput {
  const occurringIgnored = draft.measureBy === 'total'
  return {
    ...draft,
    events: draft.events.map((e) => {
      const out: EventInput = { name: e.name }
      if (e.property && e.property.path.trim() && e.property.value.trim() !== '') out.property = { path: e.property.path.trim(), operation: e.property.operation, value: e.property.value.trim() }
      const first = e.occurring && !occurringIgnored ? count(e.occurring.value) : undefined
      if (e.occurring && first !== undefined) {
        out.occurring = { operation: e.occurring.operation, value: first }
        const second = count(e.occurring.value2)
        if (needsSecondCount(e.occurring.operation)) out.occurring.value2 = second
      }
      return out
    }),
    audience: {
      aggregate: draft.audience.aggregate,
      traits: draft.audience.traits.flatMap((t) => {
        const value = traitValue(t)
        if (!t.name.trim() || value === null) return []
        return [value === undefined ? { name: t.name.trim(), operation: t.operation } : { name: t.name.trim(), operation: t.operation, value }]
      }),
    },
  }
}

/** The seven rules of part 2 §4 on the draft: they look at how many events there are, never inside them. */
export function withRules(draft: Draft, changed?: keyof MetricDefinition): Draft {
  const { events, audience, ...rest } = draft
  const ruled = applyMetricRules({ ...rest, events: events.map((e) => ({ name: e.name })), audience: { traits: [], aggregate: audience.aggregate } }, changed)
  return { ...ruled, events, audience }
}

/** The user's change, then the rules, and a note for each field the rules moved. */
export function change<K extends keyof Draft>(draft: Draft, field: K, value: Draft[K]): { draft: Draft; notes: string[] } {
  const asked = { ...draft, [field]: value }
  const ruled = withRules(asked, field as keyof MetricDefinition)
  return { draft: ruled, notes: ruleNotes(asked, ruled) }
}

export const RULE_NOTES = {
  totalNeedsEvents: 'Measure changed to Unique: Total needs events to count',
  conversionNeedsOrdered: 'Measure changed to Unique: Conversion rate needs the Ordered operation',
  totalNotOrdered: 'Measure changed to Unique: Total does not go with the Ordered operation',
  orderedNotTotal: 'Operation changed to Any: Ordered does not go with Total',
  allNeedsEvents: 'Operation changed to Any: All needs events',
  orderedNeedsEvents: 'Operation changed to Any: Ordered needs events',
  funnelNeedsOrdered: 'Graph type changed to Line: a funnel needs the Ordered operation',
  periodNeeds7Days: 'Occurring changed to Daily: weekly and monthly need more than 7 days',
} as const

/** Says which rule moved what, so that a choice is never undone in silence. */
export function ruleNotes(asked: Draft, ruled: Draft): string[] {
  const notes: string[] = []
  const noEvents = asked.events.length === 0 && !asked.isAnyEvent
  if (asked.measureBy !== ruled.measureBy) {
    if (asked.measureBy === 'conversionRate') notes.push(RULE_NOTES.conversionNeedsOrdered)
    else if (asked.measureBy === 'total' && noEvents) notes.push(RULE_NOTES.totalNeedsEvents)
    else notes.push(RULE_NOTES.totalNotOrdered)
  }
  if (asked.operation !== ruled.operation) {
    if (asked.operation === 'all') notes.push(RULE_NOTES.allNeedsEvents)
    else if (asked.events.length === 0) notes.push(RULE_NOTES.orderedNeedsEvents)
    else notes.push(RULE_NOTES.orderedNotTotal)
  }
  if (asked.graphType !== ruled.graphType) notes.push(RULE_NOTES.funnelNeedsOrdered)
  if (asked.occurring !== ruled.occurring) notes.push(RULE_NOTES.periodNeeds7Days)
  return notes
}

/** Why an option is not offered now: the rule that would undo it at once (none for total with ordered, where the operation gives way). */
export function disabledReasons(d: Draft) {
  const noEvents = d.events.length === 0 && !d.isAnyEvent
  return {
    total: noEvents ? 'Total needs events to count' : undefined,
    conversionRate: d.operation !== 'ordered' ? 'Conversion rate needs the Ordered operation' : undefined,
    all: noEvents ? 'All needs events' : undefined,
    ordered: d.events.length === 0 ? 'Ordered needs events' : undefined,
    funnel: d.operation !== 'ordered' ? 'A funnel needs the Ordered operation' : undefined,
    period: d.dateRange === 'last7Days' ? 'Weekly and monthly need more than 7 days' : undefined,
    dateRange: d.graphType === 'metric' || d.graphType === 'funnel' ? 'The date range does not apply to this graph type' : undefined,
  }
}

/** Moves the event at `from` one place up (-1) or down (+1). */
export function move<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by
  if (to < 0 || to >= list.length) return [...list]
  const next = [...list]
  ;[next[from], next[to]] = [next[to]!, next[from]!]
  return next
}

/** Adding a filter sets the property filter's operation to 'is' and the occurring filter's to equals (part 2 §4). */
export const withFilter = (e: DraftEvent): DraftEvent => ({ ...e, property: { path: '', operation: 'is', value: '' }, occurring: { operation: 'equals', value: '', value2: '' } })
/** Removing it clears both. */
export const withoutFilter = ({ key, name }: DraftEvent): DraftEvent => ({ key, name })
