import { orgParams, resolutionCtes, rows, type Client } from '@fl0/query'
import { iso, num, numOrNull, orNull } from './page.ts'

/**
 * GET /api-v2/admin/pages-table: page views newest first, as "refresh pages and
 * activities" built them, each with its visit's person and company.
 */
export async function pagesTable(client: Client, orgId: string | undefined, page: { limit: number; offset: number }) {
  const params = { ...orgParams(orgId), ...page }
  const [data, [count]] = await Promise.all([
    rows<Record<string, string | number | null>>(
      client,
      `WITH page AS (
          SELECT org_id, message_id, viewed_at, visitor_id, anonymous_id, user_id, visit_started_at, url, path, title, referrer, time_on_page
          FROM pages FINAL WHERE {all_orgs:Bool} OR org_id = {org:String}
          ORDER BY viewed_at DESC, org_id, message_id LIMIT {limit:UInt32} OFFSET {offset:UInt32}
        ),
        ${resolutionCtes(`visitor_id IN (SELECT visitor_id FROM page) OR user_id IN (SELECT user_id FROM page WHERE user_id != '')`)}
      SELECT p.*, v.person AS person, v.person_name AS person_name, v.company_name AS company_name, v.company_domain AS company_domain
      FROM page AS p
      LEFT JOIN resolved_visits AS v ON v.org_id = p.org_id AND v.visitor_id = p.visitor_id AND v.started_at = p.visit_started_at
      ORDER BY p.viewed_at DESC, p.org_id, p.message_id`,
      params,
    ),
    rows<{ n: string }>(client, 'SELECT count() AS n FROM pages FINAL WHERE {all_orgs:Bool} OR org_id = {org:String}', params),
  ])
  return {
    data: data.map((r) => ({
      orgId: r.org_id,
      messageId: r.message_id,
      viewedAt: iso(r.viewed_at as string),
      visitorId: r.visitor_id,
      visitStartedAt: iso(r.visit_started_at as string),
      url: r.url,
      path: r.path,
      title: r.title,
      referrer: r.referrer,
      timeOnPage: numOrNull(r.time_on_page),
      personKey: orNull(r.person as string) ?? (r.anonymous_id ? `anon:${r.anonymous_id}` : r.user_id),
      personName: orNull(r.person_name as string),
      companyName: orNull(r.company_name as string),
      companyDomain: orNull(r.company_domain as string),
    })),
    total: num(count?.n),
  }
}
