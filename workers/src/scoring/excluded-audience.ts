import {
  audienceFiltersSchema,
  impliedTraitType,
  OPERATORS,
  toFieldErrors,
  type AudienceFilters,
  type ExcludedAudience,
  type ExcludedAudienceFilter,
  type FieldError,
  type MatchType,
  type PropertyType,
  traitValueKind,
} from '@fl0/contracts'
import { getOrgSettings, type EventStore, type Sql } from '@fl0/stores'
import { lexiconTraits, membersSql, planAudience } from '@fl0/query'

/**
 * A model's excluded audience (part 3 §3: filters of trait, operation and
 * value; aggregate; audienceType) is an audience like any other: it is read
 * into the audience builder's filters (contracts/audiences.ts, which
 * normalises and validates them) and its members are found by the audience
 * engine (query/src/audiences), so "excluded" means exactly what the People
 * area's audiences mean.
 *
 * The builder's filters name the trait's type in their operator's field
 * (string_op, number_op…). The type is the lexicon's, for the audience
 * type's entity (user or company traits); a trait the lexicon does not know,
 * or an operator its type lacks, takes the type the operator implies (a
 * number for greater_than, a date for before…, a text otherwise).
 *
 * Values arrive as typed: a range as [a, b] or "a,b"; a relative date as
 * "7" (days) or "7 week".
 */
type TraitTypes = Record<string, PropertyType>

function typeFor(f: ExcludedAudienceFilter, known: PropertyType | undefined): Exclude<MatchType, 'audience'> {
  const op = f.operation
  const fromLexicon: Exclude<MatchType, 'audience'> | undefined =
    known === 'number' || known === 'boolean' || known === 'date' || known === 'stringArray' || known === 'string' ? known : undefined
  if (fromLexicon && (OPERATORS[fromLexicon] as readonly string[]).includes(op)) return fromLexicon
  return impliedTraitType(op, rangeValues(f.value))
}

function rangeValues(value: ExcludedAudienceFilter['value']): string[] {
  if (Array.isArray(value)) return value.map(String)
  return String(value ?? '').split(',').map((v) => v.trim())
}

function matchOf(f: ExcludedAudienceFilter, kind: 'user' | 'company', types: TraitTypes): Record<string, unknown> {
  const type = typeFor(f, types[f.trait])
  const match: Record<string, unknown> = { kind, trait: f.trait, [`${type}_op`]: f.operation }
  const valueKind = traitValueKind(f.operation)
  if (valueKind === 'range') {
    const [value1, value2] = rangeValues(f.value)
    return { ...match, value1, value2 }
  }
  if (type === 'date' && valueKind === 'relative') {
    const [value, unit] = String(f.value).trim().split(/\s+/)
    return { ...match, value, unit: unit ?? 'day' }
  }
  return { ...match, value: Array.isArray(f.value) ? f.value[0] : f.value }
}

export type ExclusionRead = { ok: true; filters: AudienceFilters } | { ok: false; errors: FieldError[] }

/** The excluded audience as the audience builder's filters; field errors named as the run modal names them. */
export function exclusionFilters(audience: ExcludedAudience, types: { user: TraitTypes; company: TraitTypes }): ExclusionRead {
  const raw = {
    match_aggregation: audience.aggregate,
    matches: audience.filters.map((f) => matchOf(f, audience.audienceType, types[audience.audienceType])),
    action_aggregation: 'and',
    actions: [],
  }
  const parsed = audienceFiltersSchema.safeParse(raw)
  if (parsed.success) return { ok: true, filters: parsed.data }
  // matches.N.value1 → excludedAudience.filters.N.value: the modal has one value field.
  const errors = toFieldErrors(parsed.error).map((e) => ({ ...e, name: e.name.replace(/^matches\.(\d+)(?:\.\w+)?$/, 'excludedAudience.filters.$1.value') }))
  return { ok: false, errors }
}

/** The organisation's trait types by entity, from the lexicon. */
export async function traitTypes(events: EventStore, orgId: string): Promise<{ user: TraitTypes; company: TraitTypes }> {
  const out = { user: {} as TraitTypes, company: {} as TraitTypes }
  for (const t of await lexiconTraits(events, { orgId })) out[t.entity][t.name] = t.traitType
  return out
}

export interface ExclusionSql {
  /** SELECT person FROM …: the excluded users. */
  sql: string
  params: Record<string, unknown>
}

/**
 * The SQL of the excluded users, its parameters renamed (x0, x1…) so that it
 * can sit inside another query whose parameters are p0, p1…; undefined when
 * the audience has no filters (no one is excluded).
 */
export async function exclusionSql(deps: { sql: Sql; events: EventStore }, q: { orgId: string; filters: AudienceFilters; now: Date }): Promise<ExclusionSql | undefined> {
  if (q.filters.matches.length === 0 && q.filters.actions.length === 0) return undefined
  const [condition, settings] = await Promise.all([planAudience(deps, { orgId: q.orgId, filters: q.filters, now: q.now }), getOrgSettings(deps.sql, q.orgId)])
  const members = membersSql(condition, { orgId: q.orgId, now: q.now, timezone: settings.timezone })
  const rename = (name: string) => `x${name.slice(1)}`
  // Only placeholders are renamed: values are never in the SQL text, only in params.
  const sql = members.sql.replace(/\{p(\d+):/g, (_, n: string) => `{${rename(`p${n}`)}:`)
  const params = Object.fromEntries(Object.entries(members.params).map(([k, v]) => [rename(k), v]))
  return { sql: `SELECT person FROM (${sql})`, params }
}
