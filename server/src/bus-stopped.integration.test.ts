import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * Embedded, the bus log stops after a write it cannot be sure of (a failed
 * fdatasync, a segment it cannot make): it refuses events until a restart
 * recovers it from its last good record. /healthz then answers 503, so that
 * a liveness probe sees it and can restart fl0, rather than 200 for a process
 * that refuses every event. Here the topic's directory is removed under a running
 * fl0 (as by an operator's rm): the open segment still takes writes, and the
 * log stops when it has to make the next one.
 */
let fl0: TestFl0
beforeAll(async () => {
  fl0 = await startTestFl0()
})
afterAll(() => fl0?.stop())

const send = (path: string, body: unknown) =>
  fetch(`${fl0.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${fl0.segment.write_key}:`).toString('base64')}` },
    body: JSON.stringify(body),
  })

it('answers /healthz with 503 once the bus log has stopped, while the ingest answers 503 and the API goes on', async () => {
  expect((await send('/v1/track', { userId: 'u-1', event: 'Before' })).status).toBe(200)
  const healthy = await fetch(`${fl0.url}/healthz`)
  expect(healthy.status).toBe(200)
  expect(await healthy.json()).toMatchObject({ ok: true })

  rmSync(join(fl0.dataDir, 'bus', 'events'), { recursive: true })
  // Batches of about 1.5 MB on the bus until the 64 MB segment is full and the next cannot be made.
  const batch = { batch: Array.from({ length: 2000 }, (_, i) => ({ type: 'track', userId: `u-${i}`, event: 'Filler', properties: { pad: 'x'.repeat(400) } })) }
  let status = 200
  for (let i = 0; i < 100 && status === 200; i++) status = (await send('/v1/batch', batch)).status
  expect(status).toBe(503)

  const health = await fetch(`${fl0.url}/healthz`)
  expect(health.status).toBe(503)
  expect(await health.json()).toEqual({
    ok: false,
    roles: expect.arrayContaining(['ingest', 'api', 'workers']),
    error: 'bus_stopped',
    message: 'The event bus stopped after a failed write: restart fl0 to recover it',
  })
  const refused = await send('/v1/track', { userId: 'u-1', event: 'After' })
  expect(refused.status).toBe(503)
  expect(await refused.json()).toMatchObject({ success: false, code: 'bus_unavailable' })
  // The dashboard's API still answers: a team can sign in and look while fl0 waits for its restart.
  const cookie = await fl0.signUp('Sam Stop', 'sam@stop.test')
  expect((await fetch(`${fl0.url}/api/users/me`, { headers: { cookie } })).status).toBe(200)
}, 120_000)
