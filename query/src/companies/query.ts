import type { EventStore } from '@fl0/stores'

/** The events store's client (ClickHouse through @clickhouse/client). */
export type Client = EventStore['client']

/** Runs one query with bound parameters and returns its rows. */
export async function rows<T>(client: Client, query: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' })
  return result.json<T>()
}

/** ClickHouse returns 64-bit integers as text in JSON: counts come back through this. */
export const num = (v: number | string | null | undefined): number => Number(v ?? 0)

/** ClickHouse DateTime64 text in UTC ("2026-03-01 12:00:00.000") as ISO-8601. */
export const isoOf = (chTime: string): string => `${chTime.replace(' ', 'T')}Z`
