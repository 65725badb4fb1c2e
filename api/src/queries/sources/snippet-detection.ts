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
 * A source whose domain is blank is never detected. One query for all of them.
 */
export async function detectedSources(store: EventStore, orgId: string, sources: Array<{ id: string; url: string | null }>): Promise<Set<string>> {
  const wanted = sources.map((s) => ({ id: s.id, host: siteHost(s.url ?? '') })).filter((s) => s.host !== '')
  if (wanted.length === 0) return new Set()
  const result = await store.client.query({
    query: `
      SELECT DISTINCT source_id FROM (
        SELECT source_id, lower(domain(page_url)) AS host, transform(source_id, {ids:Array(String)}, {hosts:Array(String)}, '') AS site
        FROM events
        WHERE org_id = {org:String} AND source_id IN {ids:Array(String)} AND page_url != ''
      )
      WHERE host = site OR endsWith(host, concat('.', site))`,
    query_params: { org: orgId, ids: wanted.map((s) => s.id), hosts: wanted.map((s) => s.host) },
    format: 'JSONEachRow',
  })
  return new Set((await result.json<{ source_id: string }>()).map((r) => r.source_id))
}
