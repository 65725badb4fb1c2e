import type { EventStore } from '@fl0/stores'

/**
 * The host a snippet source's domain names, as events are matched against it:
 * lowercased, without a port or path someone typed after it, and without a
 * leading "www." (the spec's example of a domain is a www domain, and a site
 * reached at both acme.com and www.acme.com is one site).
 */
export function siteHost(domain: string): string {
  return domain.trim().toLowerCase().split(/[/:?#]/)[0]!.replace(/^www\./, '')
}

/**
 * Which snippet sources have received events from their own site: an event of
 * that source whose page_url's host is the source's domain or a subdomain of it.
 * A source whose domain is blank is never detected. One query for all of them,
 * a part per source that stops at the first such event: a detected source
 * costs a few granules, not a scan of the organisation's events (at 10 million
 * events, 13–15 ms against 320–430 ms, warm).
 */
export async function detectedSources(store: EventStore, orgId: string, sources: Array<{ id: string; url: string | null }>): Promise<Set<string>> {
  const wanted = sources.map((s) => ({ id: s.id, host: siteHost(s.url ?? '') })).filter((s) => s.host !== '')
  if (wanted.length === 0) return new Set()
  const params: Record<string, string> = { org: orgId }
  const parts = wanted.map((s, i) => {
    params[`id${i}`] = s.id
    params[`host${i}`] = s.host
    const host = 'lower(domain(page_url))'
    // Named apart from the column: an alias source_id would stand for it in WHERE.
    return `(SELECT {id${i}:String} AS detected FROM events
      WHERE org_id = {org:String} AND source_id = {id${i}:String} AND page_url != ''
        AND (${host} = {host${i}:String} OR endsWith(${host}, concat('.', {host${i}:String})))
      LIMIT 1)`
  })
  const result = await store.client.query({ query: parts.join('\n    UNION ALL\n    '), query_params: params, format: 'JSONEachRow' })
  return new Set((await result.json<{ detected: string }>()).map((r) => r.detected))
}
