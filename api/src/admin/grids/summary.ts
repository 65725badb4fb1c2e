import { CALLBACK_REFUSAL_LABELS, CALLBACK_REFUSAL_REASONS } from '@fl0/contracts'
import { callbackRefusalTotals, listAdminJobs, listOrganisations, type Sql } from '@fl0/stores'
import { orgParams, resolutionCtes, rows, type Client } from '@fl0/query'
import { num } from './page.ts'

/** GET /api-v2/admin/summary: one row per figure of identification's tables, in a fixed order. */
export async function summaryTable(client: Client, sql: Sql) {
  const [[c], [v], orgs, jobs, refused] = await Promise.all([
    rows<Record<string, string>>(
      client,
      `SELECT
        (SELECT count() FROM events) AS events,
        (SELECT count() FROM ip_to_company FINAL) AS ip_ranges,
        (SELECT count() FROM ip_to_company FINAL WHERE kind != 'company') AS provider_ranges,
        (SELECT count() FROM universal_persons FINAL) AS universal,
        (SELECT count() FROM (SELECT DISTINCT puid, up_id, hem FROM identity_links WHERE source = 'cookies')) AS cookie_links,
        (SELECT count() FROM (SELECT DISTINCT puid, up_id, hem FROM identity_links WHERE source = 'callback')) AS callback_links,
        (SELECT count() FROM business_intents FINAL) AS intents,
        (SELECT count() FROM pages FINAL) AS pages,
        (SELECT count() FROM activities FINAL) AS activities,
        (SELECT uniqExact(consumer, topic, partition, offset) FROM dead_letters) AS dead_letters,
        (SELECT uniqExact(org_id, anonymous_id) FROM bot_visitors) AS bot_visitors`,
      {},
    ),
    rows<Record<string, string>>(
      client,
      `WITH ${resolutionCtes()}
       SELECT count() AS visits, countIf(company_via != '') AS with_company, countIf(person_via != '') AS with_person FROM resolved_visits`,
      orgParams(undefined),
    ),
    listOrganisations(sql),
    listAdminJobs(sql, { limit: 1, offset: 0 }),
    // Summed over every ingest process and day (ingest/src/callback/refusals.ts).
    callbackRefusalTotals(sql),
  ])
  const last = jobs.rows[0]
  const data = [
    { key: 'organisations', label: 'Organisations', value: orgs.length },
    { key: 'events', label: 'Events', value: num(c?.events) },
    { key: 'identifiedVisits', label: 'Visits', value: num(v?.visits) },
    { key: 'visitsWithCompany', label: 'Visits resolved to a company', value: num(v?.with_company) },
    { key: 'visitsWithPerson', label: 'Visits resolved to a person', value: num(v?.with_person) },
    { key: 'botVisitors', label: 'Bot visitors left out', value: num(c?.bot_visitors) },
    { key: 'ipRanges', label: 'IP ranges', value: num(c?.ip_ranges) },
    { key: 'providerRanges', label: 'IP ranges of providers (isp, hosting, mobile)', value: num(c?.provider_ranges) },
    { key: 'universalPersons', label: 'Universal table persons', value: num(c?.universal) },
    { key: 'cookieLinks', label: 'Cookie links', value: num(c?.cookie_links) },
    { key: 'callbackLinks', label: 'Callback links', value: num(c?.callback_links) },
    ...CALLBACK_REFUSAL_REASONS.map((reason) => ({ ...CALLBACK_REFUSAL_LABELS[reason], value: refused[reason] ?? 0 })),
    { key: 'businessIntents', label: 'Business intents', value: num(c?.intents) },
    { key: 'pages', label: 'Pages', value: num(c?.pages) },
    { key: 'activities', label: 'Activities', value: num(c?.activities) },
    { key: 'deadLetters', label: 'Bus records set aside (dead-letter topic)', value: num(c?.dead_letters) },
    { key: 'lastJob', label: 'Last job', value: last ? `${last.kind}: ${last.status}${last.message ? ` (${last.message})` : ''}` : null },
  ]
  return { data, total: data.length }
}
