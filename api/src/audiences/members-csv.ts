import { stringify } from 'csv-stringify/sync'
import type { AudienceFilters } from '@fl0/contracts'
import { prepareMembers, rows, type TraitRef } from '@fl0/query'
import type { ApiDeps } from '../deps.ts'

/**
 * An audience's members as CSV (RFC 4180, by csv-stringify: every field
 * quoted, quotes doubled, CRLF line ends): all of them, not a page. The
 * users file has the preview's Users columns (part 3 §3) with the user and
 * company ids; the companies file one row per company the members have, most
 * members first, as the Companies tab orders them. Built from the members'
 * SQL the preview pages (query/src/audiences/sql/members.ts), read once.
 */
type MembersOf = 'users' | 'companies'

interface Input {
  orgId: string
  audienceId: string
  filters: AudienceFilters
  of: MembersOf
}

const traitKey = (t: Pick<TraitRef, 'entity' | 'name'>) => `${t.entity}.${t.name}`
const SHOWN = new Set(['user.name', 'user.email', 'company.name', 'company.domain'])

/** A stored time ("2026-03-01 10:00:00.000", UTC) as ISO 8601; empty for ClickHouse's zero (never active). */
function isoTime(t: unknown): string {
  if (typeof t !== 'string' || t.startsWith('1970-01-01')) return ''
  return `${t.replace(' ', 'T')}Z`
}

/** A cell's text: a list's elements joined, nothing for none. */
function text(value: unknown): string {
  if (Array.isArray(value)) return value.join(', ')
  if (value === null || value === undefined) return ''
  return String(value)
}

export async function audienceMembersCsv(deps: Pick<ApiDeps, 'sql' | 'events' | 'now'>, input: Input): Promise<string> {
  const members = await prepareMembers(deps, { orgId: input.orgId, filters: input.filters, now: deps.now(), within: [input.audienceId] })
  const column = (entity: 'user' | 'company', name: string) => members.traits.find((t) => t.entity === entity && t.name === name && t.read === 'text')?.column
  // Each file's own columns, found once rather than per row.
  const userName = column('user', 'name')
  const userEmail = column('user', 'email')
  const companyName = column('company', 'name')
  const companyDomain = column('company', 'domain')
  // The traits the filters read, once each, beside the ones every file has.
  const seen = new Set(SHOWN)
  const extra = members.traits.filter((t) => !seen.has(traitKey(t)) && seen.add(traitKey(t)))
  const found = await rows<Record<string, unknown>>(deps.events.client, `SELECT * FROM (${members.sql}) ORDER BY last_seen DESC, person`, members.params)

  const csv = (header: string[], body: string[][]) => stringify([header, ...body], { quoted: true, record_delimiter: 'windows' })
  const at = (r: Record<string, unknown>, col: string | undefined) => (col ? text(r[col]) : '')

  if (input.of === 'users') {
    const header = ['User', 'Name', 'Email', 'Company', 'Company ID', 'Last seen', ...extra.map((t) => (t.entity === 'company' ? `Company ${t.name}` : t.name)), ...members.actions.map((a) => a.label)]
    const body = found.map((r) => [
      text(r.person),
      at(r, userName),
      at(r, userEmail),
      at(r, companyName),
      text(r.company),
      isoTime(r.last_seen),
      ...extra.map((t) => at(r, t.column)),
      ...members.actions.map((a) => String(Number(r[a.column] ?? 0))),
    ])
    return csv(header, body)
  }

  const companyTraits = extra.filter((t) => t.entity === 'company')
  const companies = new Map<string, { first: Record<string, unknown>; users: number }>()
  for (const r of found) {
    const id = text(r.company)
    if (!id) continue
    const c = companies.get(id)
    if (c) c.users++
    else companies.set(id, { first: r, users: 1 })
  }
  const ordered = [...companies].sort(([a, x], [b, y]) => y.users - x.users || (a < b ? -1 : a > b ? 1 : 0))
  const header = ['Company ID', 'Name', 'Domain', 'Users', ...companyTraits.map((t) => t.name)]
  const body = ordered.map(([id, c]) => [id, at(c.first, companyName), at(c.first, companyDomain), String(c.users), ...companyTraits.map((t) => at(c.first, t.column))])
  return csv(header, body)
}

/** attachment; filename="pro-users-users.csv", with the name as typed in filename* (RFC 6266). */
export function csvDisposition(audienceName: string, of: MembersOf): string {
  const base = `${audienceName} ${of}`
  const ascii = base.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase() || 'audience'
  return `attachment; filename="${ascii}.csv"; filename*=UTF-8''${encodeURIComponent(`${base}.csv`)}`
}
