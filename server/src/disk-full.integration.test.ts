import { execFileSync } from 'node:child_process'
import { rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Analytics, FetchHTTPClient } from '@segment/analytics-node'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * Embedded, fl0's bus, chDB and PGlite share the data directory's disk, and
 * the bus keeps events until chDB has them: a flood through a public write key
 * (or a stopped consumer) would fill it, and a full disk fails all three at
 * once. Below FL0_MIN_FREE_DISK_MB free, the ingest refuses events with a 429
 * and Retry-After, on which clients keep them and send them again; the rest of
 * fl0 goes on, and events are taken again once there is room. The disk here is
 * the machine's own: its space is taken for real (fallocate) and given back;
 * the client is Segment's own analytics-node.
 */
const GiB = 1024 ** 3
const freeBytes = () => {
  const s = statfsSync(tmpdir())
  return s.bavail * s.bsize
}

let fl0: TestFl0
let hog: string
let floorBytes: number
// The test takes 4 GiB of the disk for a while, and the files beside it still need room then.
const roomy = freeBytes() > 10 * GiB
if (!roomy) console.warn('disk-full.integration.test.ts: not run: it needs more than 10 GiB free on the disk of TMPDIR')

beforeAll(async () => {
  if (!roomy) return
  // A floor 2 GiB under what is free now: other tests writing meanwhile move the free space by far less.
  floorBytes = freeBytes() - 2 * GiB
  fl0 = await startTestFl0({ FL0_MIN_FREE_DISK_MB: String(Math.floor(floorBytes / (1024 * 1024))) })
  hog = join(fl0.dataDir, 'disk-hog')
})
afterAll(async () => {
  if (hog) rmSync(hog, { force: true })
  await fl0?.stop()
})

const auth = () => `Basic ${Buffer.from(`${fl0.segment.write_key}:`).toString('base64')}`
const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${fl0.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth(), ...headers }, body: JSON.stringify(body) })
const track = (messageId: string) => ({ userId: 'u-disk', event: 'Disk Test', messageId })

/**
 * Sends events of its own until one is answered `status` (the guard asks the disk once a second), or fails after
 * a deadline: probes, which may be stored or not, and which the test counts apart from its events.
 */
let probes = 0
async function sendUntil(status: number): Promise<Response> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const res = await send('/v1/track', track(`probe-${probes++}`))
    if (res.status === status) return res
    await res.arrayBuffer()
    if (Date.now() > deadline) throw new Error(`still ${res.status} after 30 s, waiting for ${status}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe('a data directory whose disk fills up', () => {
  it.skipIf(!roomy)('refuses events with a 429 and Retry-After while the disk is nearly full, goes on serving the rest, and takes them again once there is room: a real client loses none', async () => {
    expect((await send('/v1/track', track('before'))).status).toBe(200)

    // Take 4 GiB: the free space falls 2 GiB under the floor.
    execFileSync('fallocate', ['-l', String(4 * GiB), hog])
    expect(freeBytes()).toBeLessThan(floorBytes)

    await (await sendUntil(429)).arrayBuffer()
    const refused = await send('/v1/track', track('while-full'))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(await refused.json()).toEqual({
      success: false,
      code: 'disk_full',
      message: "fl0's disk is nearly full: events are refused until space is freed, retry later",
      errors: [],
    })
    // Every way in: a batch, analytics.js 2.0's short path from a browser (which must be able to read Retry-After).
    const batch = await send('/v1/batch', { batch: [{ type: 'track', ...track('batch-while-full') }] })
    expect(batch.status).toBe(429)
    expect((await batch.json()).code).toBe('disk_full')
    const browser = await send('/v1/t', { ...track('browser-while-full'), writeKey: fl0.segment.write_key }, { origin: 'https://example.com' })
    expect(browser.status).toBe(429)
    expect(browser.headers.get('access-control-expose-headers')).toContain('Retry-After')
    expect(browser.headers.get('retry-after')).toBe('30')
    // Bad input is still told what is wrong with it.
    expect((await send('/v1/track', { event: 'no id' })).status).toBe(400)

    // The rest of fl0 goes on: its health, and a team signing in to look.
    expect((await fetch(`${fl0.url}/healthz`)).status).toBe(200)
    const cookie = await fl0.signUp('Dana Disk', 'dana@disk.test')
    expect((await fetch(`${fl0.url}/api/users/me`, { headers: { cookie } })).status).toBe(200)

    // Segment's analytics-node, as an app sends with it: refused while the disk is full, it keeps the event.
    const answers: number[] = []
    const httpClient = new FetchHTTPClient(async (url, init) => {
      const res = await fetch(url, init)
      answers.push(res.status)
      return res
    })
    const analytics = new Analytics({ writeKey: fl0.segment.write_key, host: fl0.url, path: '/v1/batch', flushAt: 1, httpClient })
    analytics.track({ ...track('node-while-full') })
    const deadline = Date.now() + 30_000
    while (answers.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(answers).toEqual([429])

    // Room again: the refused event, retried with its id, is taken; the client sends its own after Retry-After.
    rmSync(hog)
    await (await sendUntil(200)).arrayBuffer()
    expect((await send('/v1/track', track('while-full'))).status).toBe(200)
    expect((await send('/v1/track', track('after'))).status).toBe(200)
    await analytics.closeAndFlush({ timeout: 90_000 })
    expect(answers).toEqual([429, 200])
    // Each event is stored once, the refused ones included; none sent while the disk was full is there twice.
    const ids = ['before', 'while-full', 'after', 'node-while-full']
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id IN {ids:Array(String)}', { org: fl0.org.id, ids }, ids.length, 60_000)
    const stored = await fl0.query<{ message_id: string; n: string }>(
      "SELECT message_id, count() AS n FROM events WHERE org_id = {org:String} AND event = 'Disk Test' AND NOT startsWith(message_id, 'probe-') GROUP BY message_id ORDER BY message_id",
      { org: fl0.org.id },
    )
    expect(stored.map((r) => [r.message_id, Number(r.n)])).toEqual([
      ['after', 1],
      ['before', 1],
      ['node-while-full', 1],
      ['while-full', 1],
    ])
  }, 150_000)
})
