import type { AudienceCell, AudienceColumn, AudienceFilters, AudienceResults } from '@fl0/contracts'
import { findAudiences, findFeature, getOrgSettings, type EventStore, type Sql } from '@fl0/stores'
import { planFilters, type Condition, type PlanSources, type TraitRef } from './plan.ts'
import { membersSql, type MembersSql } from './sql/members.ts'
import { countSql, pageSql } from './sql/results.ts'

/**
 * The audience engine: filters in (part 3 §3), members out. Meaning
 * (plan.ts), syntax (sql/), and here the running and the shaping of the
 * answer: the result tables' rows and columns.
 */
export interface AudienceDeps {
  sql: Sql
  events: EventStore
}

export interface AudienceQuery {
  orgId: string
  filters: AudienceFilters
  now: Date
  /** The audiences being saved or counted, outermost first: a filter naming one of them is a loop. */
  within?: string[]
}

/** Nested audiences and features, read from the metadata store (on `sql`, which may be a transaction). */
export function planSources(sql: Sql, orgId: string): PlanSources {
  return {
    audiences: async (ids) => (await findAudiences(sql, orgId, ids)).map((a) => ({ id: a.id, filters: a.filters })),
    feature: async (id) => {
      const f = await findFeature(sql, orgId, id)
      return f && { name: f.name, events: f.events }
    },
  }
}

/** Resolves nested audiences and features; throws AudienceFilterError on a loop. */
export function planAudience(deps: Pick<AudienceDeps, 'sql'>, q: AudienceQuery): Promise<Condition> {
  return planFilters(q.filters, planSources(deps.sql, q.orgId), q.within)
}

/** The members' SQL of an audience: its filters planned, in the organisation's time zone (the preview pages it, the CSV reads it whole). */
export async function prepareMembers(deps: AudienceDeps, q: AudienceQuery): Promise<MembersSql> {
  const [condition, settings] = await Promise.all([planAudience(deps, q), getOrgSettings(deps.sql, q.orgId)])
  return membersSql(condition, { orgId: q.orgId, now: q.now, timezone: settings.timezone })
}

async function rows<T>(store: EventStore, query: { sql: string; params: Record<string, unknown> }): Promise<T[]> {
  const result = await store.client.query({ query: query.sql, query_params: query.params, format: 'JSONEachRow' })
  return result.json<T>()
}

/** Members and companies counted: the audience list's columns. */
export async function countAudience(deps: AudienceDeps, q: AudienceQuery): Promise<{ users: number; companies: number }> {
  const [row] = await rows<{ users: string | number; companies: string | number }>(deps.events, countSql(await prepareMembers(deps, q)))
  return { users: Number(row?.users ?? 0), companies: Number(row?.companies ?? 0) }
}

type Row = Record<string, unknown> & { person: string; company: string; last_seen: string; user_rank: unknown; company_row: unknown; company_users: unknown }

/** A stored time ("2026-03-01 10:00:00.000", UTC) as ISO 8601; null for ClickHouse's zero (never active). */
function isoTime(t: unknown): string | null {
  if (typeof t !== 'string' || t.startsWith('1970-01-01')) return null
  return `${t.replace(' ', 'T')}Z`
}

/** A trait's cell: its text, a list's elements joined, null when not given. */
function cell(value: unknown): AudienceCell {
  if (Array.isArray(value)) return value.length ? value.join(', ') : null
  if (value === null || value === undefined || value === '') return null
  return typeof value === 'number' ? value : String(value)
}

const traitKey = (t: TraitRef) => `${t.entity}.${t.name}`

/**
 * One page of both result tables (part 3 §3, §9): users with Name, Email,
 * Company and Last seen, then each trait the filters read and each action's
 * count; companies with Name, Domain and how many members they have, then
 * each company trait the filters read.
 */
export async function previewAudience(deps: AudienceDeps, q: AudienceQuery & { page: number }): Promise<AudienceResults> {
  const members = await prepareMembers(deps, q)
  const query = pageSql(members, q.page)
  const found = await rows<Row>(deps.events, query)

  const column = (t: Pick<TraitRef, 'entity' | 'name'>) => members.traits.find((x) => x.entity === t.entity && x.name === t.name && x.read === 'text')?.column
  const shown = new Set(['user.name', 'user.email', 'company.name', 'company.domain'])
  const filterTraits = members.traits.filter((t) => {
    const key = traitKey(t)
    if (shown.has(key)) return false
    shown.add(key)
    return true
  })
  const userColumns: AudienceColumn[] = [
    { key: 'name', displayName: 'Name' },
    { key: 'email', displayName: 'Email' },
    { key: 'company', displayName: 'Company' },
    { key: 'lastSeen', displayName: 'Last seen' },
    ...filterTraits.map((t) => ({ key: traitKey(t), displayName: t.entity === 'company' ? `Company ${t.name}` : t.name })),
    ...members.actions.map((a, i) => ({ key: `action.${i}`, displayName: a.label })),
  ]
  const companyColumns: AudienceColumn[] = [
    { key: 'name', displayName: 'Name' },
    { key: 'domain', displayName: 'Domain' },
    { key: 'users', displayName: 'Users' },
    ...filterTraits.filter((t) => t.entity === 'company').map((t) => ({ key: traitKey(t), displayName: t.name })),
  ]

  const inPage = (rank: unknown) => Number(rank) >= query.from && Number(rank) <= query.to
  const users = found
    .filter((r) => inPage(r.user_rank))
    .sort((a, b) => Number(a.user_rank) - Number(b.user_rank))
    .map((r) => ({
      userId: r.person,
      name: cell(r[column({ entity: 'user', name: 'name' })!]),
      email: cell(r[column({ entity: 'user', name: 'email' })!]),
      company: cell(r[column({ entity: 'company', name: 'name' })!]) ?? cell(r.company),
      // Not a column: the company's id, for the Company cell's link to its profile.
      companyId: cell(r.company),
      lastSeen: isoTime(r.last_seen),
      ...Object.fromEntries(filterTraits.map((t) => [traitKey(t), cell(r[t.column])])),
      ...Object.fromEntries(members.actions.map((a, i) => [`action.${i}`, Number(r[a.column])])),
    }))
  // One row per company came back: most members first, then by id, this page of them.
  const companies = found
    .filter((r) => r.company !== '' && Number(r.company_row) === 1)
    .sort((a, b) => Number(b.company_users) - Number(a.company_users) || (a.company < b.company ? -1 : a.company > b.company ? 1 : 0))
    .slice(query.from - 1, query.to)
    .map((r) => ({
      companyId: r.company,
      name: cell(r[column({ entity: 'company', name: 'name' })!]),
      domain: cell(r[column({ entity: 'company', name: 'domain' })!]),
      users: Number(r.company_users),
      ...Object.fromEntries(filterTraits.filter((t) => t.entity === 'company').map((t) => [traitKey(t), cell(r[t.column])])),
    }))
  const first = found[0]
  return {
    totalUsers: Number(first?.total_users ?? 0),
    totalCompanies: Number(first?.total_companies ?? 0),
    users,
    companies,
    userColumns,
    companyColumns,
  }
}
