import { orgParams, resolutionCtes, rows, type Client } from '@fl0/query'
import { iso, num, numOrNull, orNull } from './page.ts'

/**
 * GET /api-v2/admin/people-table: one row per person (identification/resolution.ts),
 * most recently seen first. Without showIp2Company only the people identified as
 * persons (callback or identify); with it every visitor, those known only by their
 * address's company (ip2company) and those not known at all. Bots' visits
 * (query/src/people/bots.ts) are left out by the resolution.
 */
export async function peopleTable(client: Client, filters: { orgId?: string; showIp2Company: boolean; name?: string }, page: { limit: number; offset: number }) {
  const params = { ...orgParams(filters.orgId), ...page, ip2company: filters.showIp2Company, name: filters.name ?? '' }
  const grouped = `
    SELECT v.org_id AS org_id, v.person AS person, count() AS visits, min(v.started_at) AS first_seen, max(v.ended_at) AS last_seen,
      argMax(v.ip, v.ended_at) AS last_ip
    FROM visit_networks AS v GROUP BY v.org_id, v.person`
  const where = `({ip2company:Bool} OR p.person_via != '')
    AND ({name:String} = '' OR positionCaseInsensitiveUTF8(p.person_name, {name:String}) > 0
      OR positionCaseInsensitiveUTF8(p.email, {name:String}) > 0 OR positionCaseInsensitiveUTF8(p.person, {name:String}) > 0)`
  const [data, [count]] = await Promise.all([
    rows<Record<string, string | number | null>>(
      client,
      `WITH ${resolutionCtes()}
      SELECT p.*, g.visits AS visits, g.first_seen AS first_seen, g.last_seen AS last_seen, g.last_ip AS last_ip
      FROM persons AS p INNER JOIN (${grouped}) AS g ON g.org_id = p.org_id AND g.person = p.person
      WHERE ${where}
      ORDER BY g.last_seen DESC, p.org_id, p.person
      LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params,
    ),
    rows<{ n: string }>(client, `WITH ${resolutionCtes()} SELECT count() AS n FROM persons AS p WHERE ${where}`, params),
  ])
  return {
    data: data.map((r) => {
      return {
        orgId: r.org_id,
        personKey: r.person,
        // Anonymous: not identified as a person. A visitor a callback named keeps an
        // 'anon:' key (no user id) but is known, and shows without showIp2Company.
        anonymous: r.person_via === '',
        name: orNull(r.person_name as string),
        email: orNull(r.email as string),
        role: orNull(r.role as string),
        upId: orNull(r.up_id as string),
        companyName: orNull(r.company_name as string),
        companyDomain: orNull(r.company_domain as string),
        personVia: orNull(r.person_via as string),
        companyVia: orNull(r.company_via as string),
        linkedinUrl: orNull(r.linkedin_url as string),
        hasBusinessEmail: num(r.has_business_email) > 0,
        hasPersonalEmail: num(r.has_personal_email) > 0,
        hasHem: num(r.has_hem) > 0,
        employees: numOrNull(r.employees),
        revenue: numOrNull(r.revenue),
        location: orNull(r.location as string),
        visits: num(r.visits),
        firstSeen: iso(r.first_seen as string),
        lastSeen: iso(r.last_seen as string),
        lastIp: orNull(r.last_ip as string),
      }
    }),
    total: num(count?.n),
  }
}
