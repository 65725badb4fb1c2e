import { IDENTIFICATION_TEXT } from '@fl0/contracts'
import { addressKey, cidrOf, keyToText } from '@fl0/workers'
import { rows, type Client } from '@fl0/query'
import { fieldError } from '../../http/errors.ts'
import { iso, num } from './page.ts'

/**
 * GET /api-v2/admin/ip-to-company-table: the ranges in address order; with
 * ipAddress, those holding the address, the narrowest (the one that wins)
 * first; with orgId, only the ranges that organisation's visits matched,
 * each with how many.
 */
export async function ipRangesTable(client: Client, filters: { ipAddress?: string; orgId?: string }, page: { limit: number; offset: number }) {
  let ip = ''
  if (filters.ipAddress !== undefined) {
    const key = addressKey(filters.ipAddress)
    if (key === undefined) throw fieldError('ipAddress', IDENTIFICATION_TEXT.invalidIpAddress)
    ip = keyToText(key, true)
  }
  const params = { ip: ip || '::', has_ip: ip !== '', org: filters.orgId ?? '', ...page }
  const from = `
    FROM ip_to_company AS r FINAL
    ${filters.orgId !== undefined ? `INNER JOIN (
      SELECT ip_range_first, ip_range_last, count() AS visits FROM identified_visits FINAL
      WHERE org_id = {org:String} AND ip_kind != '' GROUP BY ip_range_first, ip_range_last
    ) AS m ON m.ip_range_first = r.first_ip AND m.ip_range_last = r.last_ip` : ''}
    WHERE (NOT {has_ip:Bool} OR (r.first_ip <= toIPv6({ip:String}) AND r.last_ip >= toIPv6({ip:String})))`
  const order = ip ? 'ORDER BY toUInt128(r.last_ip) - toUInt128(r.first_ip), r.imported_at DESC, r.first_ip' : 'ORDER BY r.first_ip, r.last_ip'
  const [data, [count]] = await Promise.all([
    rows<Record<string, string | number>>(
      client,
      `SELECT toString(r.first_ip) AS first, toString(r.last_ip) AS last, r.company_name AS company_name, r.domain AS domain, r.kind AS kind,
         r.source AS source, r.imported_at AS imported_at${filters.orgId !== undefined ? ', m.visits AS visits' : ''}
       ${from} ${order} LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params,
    ),
    rows<{ n: string }>(client, `SELECT count() AS n ${from}`, params),
  ])
  return {
    data: data.map((r) => {
      const first = addressKey(String(r.first))!
      const last = addressKey(String(r.last))!
      return {
        firstIp: keyToText(first),
        lastIp: keyToText(last),
        cidr: cidrOf(first, last) ?? null,
        companyName: r.company_name,
        domain: r.domain || null,
        kind: r.kind,
        source: r.source,
        importedAt: iso(String(r.imported_at)),
        ...(filters.orgId !== undefined ? { visits: num(r.visits) } : {}),
      }
    }),
    total: num(count?.n),
  }
}
