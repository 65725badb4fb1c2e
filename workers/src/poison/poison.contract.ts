import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bus, Consumer, EventStore } from '@fl0/stores'
import { eventRow, openTestEventStore } from '@fl0/stores/events/testing'
import { startEventWriter } from '../event-writer/index.ts'
import { startLexiconWorker } from '../lexicon/index.ts'
import { startIdentityWorker } from '../identity/index.ts'

/**
 * No record, whatever it holds, stops a consumer: every poison we could think
 * of sits on one partition between two good events, and every consumer of
 * `events` (the event writer, the lexicon, identity) handles both good events.
 * What the writer could not store is set aside with its reason. Run on the
 * disk bus (poison.integration.test.ts) and on Kafka (poison.cluster.test.ts).
 */
const silent = { info() {}, warn() {} }

/** A record as ingest writes it: its keys in ingest's order (org, message id and time first). */
function record(org: string, messageId: string, event: string, at: string): Record<string, unknown> {
  const { org_id, message_id, timestamp, ...rest } = eventRow({
    org_id: org,
    message_id: messageId,
    source_id: 'src',
    type: 'track',
    event,
    user_id: 'u1',
    anonymous_id: 'a1',
    timestamp: at,
    ip: '203.0.113.7',
    properties: { ok: true },
  })
  return { org_id, message_id, timestamp, ...rest }
}

function good(org: string, event: string, at: string, messageId: string): string {
  return JSON.stringify(record(org, messageId, event, at))
}

/** A record with one field replaced by raw JSON text (values JSON.stringify cannot make). */
function withRaw(org: string, messageId: string, field: string, rawJson: string): string {
  const marker = `"__raw_${field}__"`
  return JSON.stringify({ ...record(org, messageId, 'Poison', '2026-03-01 12:00:00.000'), [field]: `__raw_${field}__` }).replace(marker, rawJson)
}

export function poisonContract(kind: string, openBus: () => Promise<Bus>, groupPrefix = '') {
  describe(`no record stops a consumer (${kind} bus)`, () => {
    let store: EventStore
    let bus: Bus
    const consumers: Consumer[] = []
    const run = randomUUID().slice(0, 8)
    const org = `org-poison-${run}`
    const topic = `events-poison-${run}`
    const visits = { seen: 0 }

    beforeAll(async () => {
      store = await openTestEventStore()
      bus = await openBus()
    })
    afterAll(async () => {
      await Promise.all(consumers.map((c) => c.stop()))
      await bus?.close()
      await store?.close()
    })

    const poisons: Array<[string, string]> = [
      ['not JSON', 'not json'],
      ['an empty record', ''],
      ['a JSON array', '[1,2]'],
      ['JSON null', 'null'],
      ['an empty object', '{}'],
      ['an organisation and nothing else', JSON.stringify({ org_id: org })],
      ["a year-10000 time, as ingest used to write it", withRaw(org, `p-year10000-${run}`, 'timestamp', '"+010000-01-01 00:00:00.000"')],
      ['a timestamp that is a number', withRaw(org, `p-numtime-${run}`, 'timestamp', '1767225600000')],
      ['a received_at that is not a time', withRaw(org, `p-received-${run}`, 'received_at', '"not a time"')],
      ['properties that are a string', withRaw(org, `p-propstring-${run}`, 'properties', '"x"')],
      ['a dotted key and nested keys naming one path', withRaw(org, `p-dup-${run}`, 'properties', '{"a.b":1,"a":{"b":2}}')],
      ['an unpaired surrogate in properties', withRaw(org, `p-surrogate-${run}`, 'properties', '{"s":"\\ud800"}')],
      ['properties nested 1,100 deep', withRaw(org, `p-deep-${run}`, 'properties', '{"a":'.repeat(1100) + '1' + '}'.repeat(1100))],
      ['an integer past 64 bits', withRaw(org, `p-bigint-${run}`, 'properties', '{"n":20000000000000000000}')],
      ['a valid head followed by garbage', `${good(org, 'Garbage', '2026-03-01 12:00:00.000', `p-garbage-${run}`).slice(0, -1)},,,}`],
      ['context that is an array', withRaw(org, `p-ctxarray-${run}`, 'context', '[1]')],
    ]
    // Not poison: odd but storable, so stored (and never the reason a consumer stops).
    const storable: Array<[string, string, string]> = [
      ['a time in year 9999', `s-9999-${run}`, withRaw(org, `s-9999-${run}`, 'timestamp', '"9999-12-31 23:59:59.000"')],
      ['a 512 KB property', `s-big-${run}`, withRaw(org, `s-big-${run}`, 'properties', JSON.stringify({ blob: 'x'.repeat(512 * 1024) }))],
      ['a NUL in a property value', `s-nul-${run}`, withRaw(org, `s-nul-${run}`, 'properties', '{"v":"a\\u0000b"}')],
    ]

    it('handles both good events around every poison, in each consumer, and sets the poison aside with its reason', { timeout: 180_000 }, async () => {
      const key = `${org}:u1`
      const before = good(org, 'Good Before', '2026-03-01 11:00:00.000', `good-1-${run}`)
      const after = good(org, 'Good After', '2026-03-01 13:00:00.000', `good-2-${run}`)
      await bus.publish(topic, [before, ...poisons.map(([, v]) => v), ...storable.map(([, , v]) => v), after].map((value) => ({ key, value })))

      const group = (name: string) => `${groupPrefix}${name}-${run}`
      consumers.push(await startEventWriter({ bus, store, logger: silent, topic, group: group('event-writer'), maxWaitMs: 50 }))
      consumers.push(await startLexiconWorker({ bus, store, logger: silent, topic, group: group('lexicon'), maxWaitMs: 50 }))
      consumers.push(
        await startIdentityWorker({
          bus,
          store,
          logger: silent,
          topic,
          linksTopic: `links-poison-${run}`,
          group: group('identity'),
          maxWaitMs: 50,
          onVisits: (n) => void (visits.seen += n),
        }),
      )

      const ids = [`good-1-${run}`, `good-2-${run}`, ...storable.map(([, id]) => id)]
      await until('the good and the storable events in `events`', async () =>
        Number((await rows(`SELECT count() AS n FROM events WHERE org_id = {org:String} AND message_id IN {ids:Array(String)}`, { org, ids }))[0].n) === ids.length,
      )
      await until('both good events in the lexicon', async () =>
        Number((await rows(`SELECT count(DISTINCT event) AS n FROM lexicon_events WHERE org_id = {org:String} AND event IN ('Good Before', 'Good After')`, { org }))[0].n) === 2,
      )
      await until('a visit for each good event', async () =>
        Number((await rows(`SELECT count() AS n FROM identified_visits FINAL WHERE org_id = {org:String} AND visitor_id = 'a1' AND (started_at <= '2026-03-01 11:00:00.000' AND ended_at >= '2026-03-01 11:00:00.000' OR started_at <= '2026-03-01 13:00:00.000' AND ended_at >= '2026-03-01 13:00:00.000')`, { org }))[0].n) === 2,
      )

      // Stored once each, poison nowhere in `events`.
      const stored = await rows(`SELECT message_id, count() AS n FROM events WHERE org_id = {org:String} GROUP BY message_id ORDER BY message_id`, { org })
      expect(stored.map((r) => r.message_id).sort()).toEqual([...ids].sort())
      expect(stored.every((r) => Number(r.n) === 1)).toBe(true)

      // Every poison the writer met is set aside, once, with a reason; the records are whole in the topic.
      await until('a dead letter for each poison', async () =>
        Number((await rows(`SELECT uniqExact(offset) AS n FROM dead_letters WHERE consumer = {c:String}`, { c: group('event-writer') }))[0].n) === poisons.length,
      )
      const reasons = await rows(`SELECT reason, value FROM dead_letters FINAL WHERE consumer = {c:String}`, { c: group('event-writer') })
      const reasonOf = (value: string) => reasons.find((r) => r.value === value)?.reason
      for (const [what, value] of poisons) expect(reasonOf(value.slice(0, 64 * 1024)), what).toBeTruthy()
      expect(reasonOf('not json')).toBe('not valid JSON')
      expect(reasonOf(poisons.find(([w]) => w.startsWith('a dotted key'))![1])).toMatch(/Duplicate path found/)
    })

    async function rows(query: string, params: Record<string, unknown>) {
      const r = await store.client.query({ query, query_params: params, format: 'JSONEachRow' })
      return r.json<Record<string, string>>()
    }
  })
}

async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
