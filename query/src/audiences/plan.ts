import {
  AUDIENCE_ERRORS,
  AUDIENCE_NESTING_MAX,
  audienceFiltersSchema,
  matchOperatorOf,
  matchTypeOf,
  type AudienceFilters,
  type AudienceMatch,
  type DateUnit,
  type TraitOperation,
} from '@fl0/contracts'
import { resolveTraitFilter, type Shift, type TraitTest } from '../filters/traits.ts'
import { actionTest, type CountTest } from '../filters/counts.ts'

/**
 * What audience filters mean, decided before any SQL is printed: the filters
 * (part 3 §3) in, a tree of conditions on one person out. Nested audiences are
 * replaced by their own conditions; features by their events.
 *
 * Members are users (a user id), with the events of the anonymous ids linked
 * to them (query/src/people/identity.ts's rules). Anonymous visitors never
 * linked to a user are not members of any audience: the people list shows
 * them only on request, and an audience is a list of people one can act on.
 *
 * A user's trait is the latest non-empty value it was given (identify calls;
 * for a company trait, the group calls of the user's company, which is the
 * group of their latest group call), read as text; what each operator makes
 * of it is filters/traits.ts's, the same for a metric's audience traits.
 *
 * Actions count the user's events of one name (or of any of a feature's
 * events) from N units before now up to now, and compare the count; "at least
 * 1" is the default. A count below a value (less than 3, equals 0, not between)
 * holds for users who never did it.
 *
 * An audience that no longer exists, or a feature that no longer exists,
 * matches no one / counts no events: saved audiences that name it still
 * open (the editor labels it 'Unknown').
 */
type TraitRead = 'text' | 'array'
export interface TraitRef {
  entity: 'user' | 'company'
  name: string
  read: TraitRead
}

export interface ActionCount {
  /** The event names counted; none (a deleted feature) counts nothing. */
  events: string[]
  /** The window: from now + since up to now. */
  since: Shift
  /** For the result table's column header. */
  label: string
  compare: CountTest
}

export type Condition =
  | { kind: 'trait'; trait: TraitRef; test: TraitTest }
  | { kind: 'action'; action: ActionCount }
  | { kind: 'and' | 'or'; of: Condition[] }
  | { kind: 'nobody' }

/** Filters that refer to each other, or nest too deep: a 400 on the filters. */
export class AudienceFilterError extends Error {
  constructor(
    message: string,
    readonly field = 'filters',
  ) {
    super(message)
  }
}

/** What planning reads from the metadata store. */
export interface PlanSources {
  /** The saved filters of audiences of the organisation (unknown ids left out). */
  audiences(ids: string[]): Promise<Array<{ id: string; filters: unknown }>>
  /** A feature's name and events, or undefined when it no longer exists. */
  feature(id: string): Promise<{ name: string; events: string[] } | undefined>
}

/** One match's condition (its meaning: filters/traits.ts); `audience` matches are resolved by planFilters. */
function audienceTraitCondition(m: AudienceMatch): Condition | undefined {
  const type = matchTypeOf(m)
  const op = matchOperatorOf(m)
  if (!type || !op || type === 'audience' || m.kind === 'audience' || !m.trait) return undefined
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v))
  const values = op === 'between' || op === 'not_between' ? [text(m.value1), text(m.value2)] : [text(m.value)]
  const test = resolveTraitFilter({ operation: op as TraitOperation, values, unit: (m.unit ?? undefined) as DateUnit | undefined, type })
  if (!test || 'error' in test) return undefined // the schema has refused what cannot be read
  const read: TraitRead = type === 'stringArray' ? 'array' : 'text'
  return { kind: 'trait', trait: { entity: m.kind as 'user' | 'company', name: m.trait, read }, test }
}

const unitLabel = (n: number, unit: DateUnit) => `${n} ${unit}${n === 1 ? '' : 's'}`

/**
 * The condition of a whole set of filters: the matches joined by their
 * aggregation, and (and) every action. No filter at all: everyone.
 * `within` holds the audiences being resolved, outermost first: meeting one
 * again is a loop.
 */
export async function planFilters(filters: AudienceFilters, sources: PlanSources, within: string[] = []): Promise<Condition> {
  if (within.length > AUDIENCE_NESTING_MAX) throw new AudienceFilterError(AUDIENCE_ERRORS.tooDeep)
  const nestedIds = filters.matches.filter((m) => m.kind === 'audience' && m.audience_id).map((m) => m.audience_id!)
  for (const id of nestedIds) if (within.includes(id)) throw new AudienceFilterError(AUDIENCE_ERRORS.loop)
  const saved = new Map((await sources.audiences(nestedIds)).map((a) => [a.id, a.filters]))

  const matches: Condition[] = []
  for (const m of filters.matches) {
    if (m.kind !== 'audience') {
      const c = audienceTraitCondition(m)
      if (c) matches.push(c)
      continue
    }
    const stored = saved.get(m.audience_id!)
    // A saved filter set that no longer reads (written by an older version) is as good as unknown.
    const parsed = stored === undefined ? undefined : audienceFiltersSchema.safeParse(stored)
    matches.push(parsed?.success ? await planFilters(parsed.data, sources, [...within, m.audience_id!]) : { kind: 'nobody' })
  }

  const actions: Condition[] = []
  for (const a of filters.actions) {
    const target = a.kind === 'feature' ? await sources.feature(a.feature_id!) : { name: a.event_name!, events: [a.event_name!] }
    const n = Number(a.date_range.value)
    actions.push({
      kind: 'action',
      action: {
        events: target?.events ?? [],
        since: { amount: -n, unit: a.date_range.unit },
        label: `${target?.name ?? 'Unknown'} (last ${unitLabel(n, a.date_range.unit)})`,
        compare: actionTest(a),
      },
    })
  }

  const parts: Condition[] = []
  if (matches.length) parts.push(matches.length === 1 ? matches[0]! : { kind: filters.match_aggregation, of: matches })
  parts.push(...actions)
  return parts.length === 1 ? parts[0]! : { kind: 'and', of: parts }
}

/** Every trait and action a condition reads, each once, in the order met: the query's columns. */
export function collect(c: Condition, out: { traits: TraitRef[]; actions: ActionCount[] } = { traits: [], actions: [] }) {
  switch (c.kind) {
    case 'trait':
      if (!out.traits.some((t) => t.entity === c.trait.entity && t.name === c.trait.name && t.read === c.trait.read)) out.traits.push(c.trait)
      break
    case 'action':
      if (!out.actions.includes(c.action)) out.actions.push(c.action)
      break
    case 'and':
    case 'or':
      for (const x of c.of) collect(x, out)
      break
  }
  return out
}
