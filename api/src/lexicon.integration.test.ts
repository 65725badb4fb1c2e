import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestedEvent, LexiconEventList } from '@fl0/contracts'
import { createDiskBus } from '@fl0/stores'
import { eventRow } from '@fl0/stores/events/testing'
import { startEventWriter, startLexiconWorker } from '@fl0/workers'
import { createTestApi, type TestApi } from './testing.ts'

/**
 * The lexicon end to end below the HTTP ingest: records on the real disk bus,
 * the event writer and the lexicon worker each in its own consumer group on
 * chDB, the api reading what they wrote. Delivery is at least once, so the
 * same records come again, and then the whole log is replayed by new groups:
 * the names, properties and 30-day volumes the api answers do not move.
 */
let t: TestApi
let cookie: string
let orgId: string
const silent = { info() {}, warn() {} }
const bus = createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-lexicon-api-bus-')) })

beforeAll(async () => {
  t = await createTestApi()
  cookie = (await t.signUp('Ada')).cookie
  await t.createOrg(cookie, 'Acme')
  const me = (await (await t.call('GET', '/api/users/me', { cookie })).json()) as { orgs: Array<{ id: string }> }
  orgId = me.orgs[0]!.id
})
afterAll(async () => {
  await bus.close()
  await t?.close()
})

async function until(fn: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await fn()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('timed out')
}

/** Runs the writer and the lexicon worker under these group names until both have read the whole log. */
async function drain(groups: { writer: string; lexicon: string }) {
  const writer = await startEventWriter({ bus, store: t.events, logger: silent, group: groups.writer, maxWaitMs: 20 })
  const lexicon = await startLexiconWorker({ bus, store: t.events, logger: silent, group: groups.lexicon, maxWaitMs: 20 })
  await until(() => bus.lag('events', groups.writer) === 0 && bus.lag('events', groups.lexicon) === 0)
  await Promise.all([writer.stop(), lexicon.stop()])
}

const snapshot = async () => ({
  events: ((await (await t.call('GET', '/api/orgs/acme/lexicon/events', { cookie })).json()) as LexiconEventList).events,
  properties: await (await t.call('GET', '/api/orgs/acme/lexicon/events/Report%20Created/properties', { cookie })).json(),
  traits: await (await t.call('GET', '/api/orgs/acme/lexicon/traits', { cookie })).json(),
})

describe('lexicon, from the bus to the api', () => {
  it('answers the same names, properties and volumes after the same records come again and after a full replay', async () => {
    // Within the test clock's 30 days (it stands at 2026-03-02 09:00 UTC).
    const at = (i: number) => new Date(Date.parse('2026-02-20T00:00:00Z') + i * 60_000)
    const records: IngestedEvent[] = [
      ...Array.from({ length: 30 }, (_, i) => eventRow({ org_id: orgId, source_id: 'src', timestamp: at(i), event: 'Report Created', user_id: `u${i % 4}`, properties: { kind: i % 2 ? 'table' : 'chart', rows: i } })),
      ...Array.from({ length: 12 }, (_, i) => eventRow({ org_id: orgId, source_id: 'src', timestamp: at(100 + i), event: 'Dashboard Viewed', user_id: `u${i % 4}` })),
      eventRow({ org_id: orgId, source_id: 'src', timestamp: at(200), type: 'identify', user_id: 'u1', traits: { email: 'ada@acme.com' } }),
    ]
    const publish = () => bus.publish('events', records.map((r) => ({ key: `${r.org_id}:${r.user_id}`, value: JSON.stringify(r) })))

    await publish()
    await drain({ writer: 'event-writer', lexicon: 'lexicon' })
    const first = await snapshot()
    expect(first.events.map(({ name, volume }) => ({ name, volume }))).toEqual([
      { name: 'Report Created', volume: 30 },
      { name: 'Dashboard Viewed', volume: 12 },
    ])
    expect(first.properties).toEqual({ properties: [{ name: 'kind', propertyType: 'string' }, { name: 'rows', propertyType: 'number' }] })
    expect(first.traits).toEqual({ traits: [{ name: 'email', traitType: 'string', eventType: 'SegmentIdentify' }] })

    // A client's retry: the same message ids again, read by the same groups.
    await publish()
    await drain({ writer: 'event-writer', lexicon: 'lexicon' })
    expect(await snapshot()).toEqual(first)

    // New groups read the whole log from the start: every record twice more.
    await drain({ writer: 'event-writer-replay', lexicon: 'lexicon-replay' })
    expect(await snapshot()).toEqual(first)
  })
})
