import type { EventStore } from '@fl0/stores'

/** The events store's client, for the jobs' few ClickHouse statements. */
export type Client = EventStore['client']

export async function select<T>(client: Client, query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' })
  return result.json<T>()
}

export async function insert(client: Client, table: string, values: readonly object[]): Promise<void> {
  if (values.length === 0) return
  await client.insert({ table, values: values as object[], format: 'JSONEachRow' })
}

/** Keys per look-up of rows already stored: a bound array stays well inside a ClickHouse server's URL limit. */
export const KEYS_PER_QUERY = 2_000

export function chunks<T>(items: readonly T[], size = KEYS_PER_QUERY): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
