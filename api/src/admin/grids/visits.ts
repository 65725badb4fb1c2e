import { orgParams, resolutionCtes, rows, type Client } from '@fl0/query'
import { iso, num, orNull } from './page.ts'

/**
 * GET /api-v2/admin/identified-visits-table: visits newest first, each with
 * its person and company and how they were found (identification/resolution.ts),
 * and its events and page views counted from `events` for the page's rows.
 */
export async function visitsTable(client: Client, orgId: string | undefined, page: { limit: number; offset: number }) {
  const params = { ...orgParams(orgId), ...page }
  const [data, [count]] = await Promise.all([
    rows<Record<string, string | number | null>>(
      client,
      `WITH ${resolutionCtes()},
        page AS (SELECT * FROM resolved_visits ORDER BY started_at DESC, org_id, visitor_id LIMIT {limit:UInt32} OFFSET {offset:UInt32})
      SELECT p.*, c.events AS events, c.pages AS pages
      FROM page AS p
      LEFT JOIN (
        SELECT e.org_id AS org_id, e.visitor_id AS visitor_id, e.started_at AS started_at, count() AS events, countIf(e.type = 'page') AS pages
        FROM (
          SELECT p2.org_id AS org_id, p2.visitor_id AS visitor_id, p2.started_at AS started_at, ev.type AS type, ev.timestamp AS ts, p2.ended_at AS ended_at
          FROM page AS p2
          INNER JOIN (
            SELECT org_id, if(anonymous_id != '', anonymous_id, concat('user:', user_id)) AS visitor_id, type, timestamp
            FROM events
            WHERE org_id IN (SELECT org_id FROM page) AND type != 'alias'
              AND timestamp >= (SELECT min(started_at) FROM page) AND timestamp <= (SELECT max(ended_at) FROM page)
              AND (anonymous_id IN (SELECT anonymous_id FROM page WHERE anonymous_id != '')
                OR (anonymous_id = '' AND user_id IN (SELECT user_id FROM page WHERE anonymous_id = '')))
          ) AS ev ON ev.org_id = p2.org_id AND ev.visitor_id = p2.visitor_id
          WHERE ev.timestamp >= p2.started_at AND ev.timestamp <= p2.ended_at
        ) AS e
        GROUP BY e.org_id, e.visitor_id, e.started_at
      ) AS c ON c.org_id = p.org_id AND c.visitor_id = p.visitor_id AND c.started_at = p.started_at
      ORDER BY p.started_at DESC, p.org_id, p.visitor_id`,
      params,
    ),
    rows<{ n: string }>(client, `SELECT count() AS n FROM identified_visits FINAL WHERE {all_orgs:Bool} OR org_id = {org:String}`, params),
  ])
  return {
    data: data.map((r) => ({
      orgId: r.org_id,
      visitorId: r.visitor_id,
      anonymousId: orNull(r.anonymous_id as string),
      userId: orNull(r.user_id as string),
      puid: orNull(r.puid as string),
      startedAt: iso(r.started_at as string),
      endedAt: iso(r.ended_at as string),
      events: num(r.events),
      pages: num(r.pages),
      ip: orNull(r.ip as string),
      ipCompany: orNull(r.ip_company as string),
      ipDomain: orNull(r.network_domain as string),
      ipKind: orNull(r.network_kind as string),
      ipSource: orNull(r.ip_source as string),
      ipAsn: num(r.ip_asn) || null,
      ipNetwork: orNull(r.ip_network as string),
      ipCountry: orNull(r.ip_country as string),
      ipRegion: orNull(r.ip_region as string),
      ipCity: orNull(r.ip_city as string),
      personKey: r.person,
      personName: orNull(r.person_name as string),
      upId: orNull(r.up_id as string),
      personVia: orNull(r.person_via as string),
      companyName: orNull(r.company_name as string),
      companyDomain: orNull(r.company_domain as string),
      companyVia: orNull(r.company_via as string),
    })),
    total: num(count?.n),
  }
}
