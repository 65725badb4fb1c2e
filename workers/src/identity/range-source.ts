import type { EventStore } from '@fl0/stores'
import { addressKey } from './ip.ts'
import { freeNetworkData, Networks } from './networks/index.ts'
import { RANGE_KINDS, RangeTable, type IpRange, type RangeKind } from './ranges.ts'

/**
 * The ranges of ip_to_company as a RangeTable, reloaded when the table
 * changes, with the free network data behind them (networks/index.ts). Whether it changed is a cheap question (row count and newest
 * import time), asked at most every `checkMs`, so a worker sees an import
 * within seconds and pays one tiny query a batch at most.
 */
export interface RangeSource {
  get(): Promise<Networks>
}

/** Whether the free data is used: 'free' (the default) or 'off' (FL0_IP_DATA). */
export type IpDataMode = 'free' | 'off'

export function createRangeSource(store: EventStore, options: { checkMs?: number; now?: () => number; ipData?: IpDataMode } = {}): RangeSource {
  const checkMs = options.checkMs ?? 10_000
  const now = options.now ?? Date.now
  const free = freeNetworkData(options.ipData)
  let networks = new Networks(RangeTable.empty(), free)
  let signature: string | undefined
  let checkedAt = -Infinity
  let loading: Promise<Networks> | undefined
  return {
    async get() {
      if (loading) return loading
      if (now() - checkedAt < checkMs) return networks
      loading = (async () => {
        try {
          const sig = await rangesSignature(store)
          checkedAt = now()
          if (sig !== signature) {
            networks = new Networks(await loadRanges(store), free)
            signature = sig
          }
          return networks
        } finally {
          loading = undefined
        }
      })()
      return loading
    },
  }
}

async function rangesSignature(store: EventStore): Promise<string> {
  const result = await store.client.query({ query: 'SELECT count() AS n, max(imported_at) AS at FROM ip_to_company', format: 'JSONEachRow' })
  const [row] = await result.json<{ n: string; at: string }>()
  return `${row?.n}:${row?.at}`
}

/** Every range in ip_to_company, streamed (a million ranges do not pass through one JSON text), oldest import first (RangeTable.build's fast path). */
export async function loadRanges(store: EventStore): Promise<RangeTable> {
  const result = await store.client.query({
    query: `SELECT toString(first_ip), toString(last_ip), company_name, domain, kind, toUnixTimestamp64Milli(imported_at)
            FROM ip_to_company FINAL
            ORDER BY imported_at, first_ip, last_ip`,
    format: 'JSONCompactEachRow',
  })
  const ranges: IpRange[] = []
  for await (const batch of result.stream()) {
    for (const row of batch) {
      const [first, last, companyName, domain, kind, at] = row.json<[string, string, string, string, string, string | number]>()
      const f = addressKey(first)
      const l = addressKey(last)
      if (f === undefined || l === undefined) continue
      ranges.push({ first: f, last: l, companyName, domain, kind: (RANGE_KINDS as readonly string[]).includes(kind) ? (kind as RangeKind) : 'company', importedAt: Number(at) })
    }
  }
  return RangeTable.build(ranges)
}

/** The ranges in force now with the free data behind them: what a refresh matches visits against. */
export async function loadNetworks(store: EventStore, ipData: IpDataMode = 'free'): Promise<Networks> {
  return new Networks(await loadRanges(store), freeNetworkData(ipData))
}
