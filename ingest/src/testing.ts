import { expect } from 'vitest'
import { parseEventRecord, type IngestedEvent } from '@fl0/contracts'
import { createIngestApp } from './app.ts'
import { createWriteKeyCache } from './write-keys.ts'
import { parseTrustedProxies } from './client-ip.ts'

export const KEY = 'wk_test_key'
export const NOW = new Date('2026-03-01T12:00:00.000Z')

/** An ingest app on a write key of its own, whose bus is an array: for tests that call it through app.request. */
export function setupIngest(options: { failPublish?: boolean | (() => void); trusted?: string; publicUrl?: string } = {}) {
  const published: IngestedEvent[] = []
  const app = createIngestApp({
    writeKeys: createWriteKeyCache(async (k) => (k === KEY ? { orgId: 'org-1', sourceId: 'src-1' } : undefined)),
    publish: async (records) => {
      // A function fails as it fails (a real write to /dev/full, say); true, with an error of its own.
      if (typeof options.failPublish === 'function') options.failPublish()
      if (options.failPublish) throw new Error('disk full')
      for (const r of records) {
        const event = parseEventRecord(r.value) as IngestedEvent
        expect(r.key).toBe(`${event.org_id}:${event.user_id || event.anonymous_id}`)
        published.push(event)
      }
    },
    trustedProxies: parseTrustedProxies(options.trusted ?? ''),
    now: () => NOW,
    publicUrl: options.publicUrl,
  })
  const post = (
    path: string,
    body: unknown,
    init: { auth?: string | null; headers?: Record<string, string>; remote?: string; raw?: boolean } = {},
  ) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
    if (init.auth !== null) headers.authorization = `Basic ${Buffer.from(`${init.auth ?? KEY}:`).toString('base64')}`
    return app.request(
      path,
      { method: 'POST', headers, body: init.raw ? (body as BodyInit) : JSON.stringify(body) },
      { incoming: { socket: { remoteAddress: init.remote ?? '203.0.113.9', remotePort: 5555, remoteFamily: 'IPv4' } } },
    )
  }
  return { app, post, published }
}
