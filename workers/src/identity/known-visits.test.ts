import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chTime } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { storeHits } from './index.ts'
import { KnownVisits, visitsRewritten } from './known-visits.ts'
import { Networks } from './networks/index.ts'
import { RangeTable } from './ranges.ts'
import { nextVersion, type Hit, type Visit } from './visits.ts'

const T0 = Date.parse('2026-03-02T09:00:00.000Z')
const min = (m: number) => T0 + m * 60_000
const visit = (start: number, end: number, extra: Partial<Visit> = {}): Visit => ({
  orgId: 'o',
  visitorId: 'a',
  startedAt: min(start),
  endedAt: min(end),
  anonymousId: 'a',
  userId: '',
  puid: '',
  ip: '',
  email: '',
  name: '',
  ...extra,
})

describe('KnownVisits', () => {
  it('answers only for times it knows all the stored visits of', () => {
    const known = new KnownVisits()
    expect(known.get('o', 'a', min(0))).toBeUndefined()
    known.learn('o', 'a', min(0), [visit(10, 20)])
    expect(known.get('o', 'a', min(0))).toEqual([visit(10, 20)])
    expect(known.get('o', 'a', min(15))).toEqual([visit(10, 20)])
    expect(known.get('o', 'a', min(25))).toEqual([])
    // Before what was read: a late event; the store must be asked.
    expect(known.get('o', 'a', min(-1))).toBeUndefined()
    expect(known.get('o', 'b', min(0))).toBeUndefined()
    expect(known.get('p', 'a', min(0))).toBeUndefined()
  })

  it('follows what the worker writes: a grown visit replaces the old, a tombstoned one goes', () => {
    const known = new KnownVisits()
    known.learn('o', 'a', min(0), [visit(10, 20), visit(60, 61)])
    // The visit grew later (same start); a late hit joined it to the next, tombstoning the one at 60.
    known.wrote('o', 'a', [visit(10, 61)], [visit(60, 61)], min(45))
    expect(known.get('o', 'a', min(0))).toEqual([visit(10, 61)])
  })

  it('keeps about one visit a visitor: visits ended an hour before the latest hit are let go, and so are their times', () => {
    const known = new KnownVisits()
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.wrote('o', 'a', [visit(200, 200)], [], min(200))
    expect(known.get('o', 'a', min(170))).toEqual([visit(200, 200)])
    expect(known.get('o', 'a', min(100))).toBeUndefined()
  })

  it('forgets the least recently used visitor past its size', () => {
    const known = new KnownVisits(2)
    known.learn('o', 'a', min(0), [])
    known.learn('o', 'b', min(0), [])
    known.get('o', 'a', min(0))
    known.learn('o', 'c', min(0), [])
    expect(known.size).toBe(2)
    expect(known.get('o', 'b', min(0))).toBeUndefined()
    expect(known.get('o', 'a', min(0))).toEqual([])
    expect(known.get('o', 'c', min(0))).toEqual([])
  })

  it('forgets everything once a job says it rewrote visits', () => {
    const known = new KnownVisits()
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.checkEpoch()
    expect(known.size).toBe(1)
    visitsRewritten()
    known.checkEpoch()
    expect(known.size).toBe(0)
  })
})

describe('storeHits with known visits (chDB)', () => {
  let store: EventStore
  beforeAll(async () => {
    store = await openTestEventStore()
  })
  afterAll(async () => {
    await store?.close()
  })

  const networks = new Networks(RangeTable.empty(), undefined)
  async function stored(org: string) {
    const r = await store.client.query({
      query: `SELECT visitor_id, started_at, ended_at, anonymous_id, user_id, puid, ip, email, name
              FROM identified_visits FINAL WHERE org_id = {org:String} ORDER BY visitor_id, started_at`,
      query_params: { org },
      format: 'JSONEachRow',
    })
    return r.json<Record<string, string>>()
  }

  it('stores the same visits as reading them back each batch, over batches in and out of order', async () => {
    // Eight visitors, a day of hits in 40 batches: mostly in order, some late (up to two hours), some facts changing.
    let seed = 11
    const random = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n)
    const batches: Array<Array<Omit<Hit, 'orgId'>>> = []
    const clock = new Map<string, number>()
    for (let b = 0; b < 40; b++) {
      const batch: Array<Omit<Hit, 'orgId'>> = []
      for (let k = 0; k < 12; k++) {
        const visitorId = `v${random(8)}`
        const now = (clock.get(visitorId) ?? 0) + random(50) * 60_000
        clock.set(visitorId, now)
        const at = random(6) === 0 ? now - random(120) * 60_000 : now
        const pick = (xs: string[]) => xs[random(xs.length)]!
        batch.push({ visitorId, at: T0 + at, anonymousId: visitorId, userId: pick(['', '', 'u1', 'u2']), puid: pick(['', 'p1', 'p2']), ip: pick(['', '1.1.1.1', '2.2.2.2']), email: pick(['', '', 'a@x.com']), name: pick(['', 'Ada']) })
      }
      batches.push(batch)
    }
    const known = new KnownVisits()
    for (const batch of batches) {
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-read' })))
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-known' })), known)
    }
    const read = await stored('org-read')
    expect(read.length).toBeGreaterThan(20)
    expect(await stored('org-known')).toEqual(read)
    expect(known.size).toBe(8)
  })

  it('reads again after a job rewrote the visits, and folds into what the job wrote', async () => {
    const known = new KnownVisits()
    const hit = (m: number, extra: Partial<Hit> = {}): Hit => ({ orgId: 'org-job', visitorId: 'a', at: min(m), anonymousId: 'a', userId: '', puid: '', ip: '', email: '', name: '', ...extra })
    await storeHits(store, networks, [hit(0)], known)
    // A refresh, say, rewrote the visit with a name the worker never saw.
    await store.client.insert({
      table: 'identified_visits',
      values: [{ org_id: 'org-job', visitor_id: 'a', started_at: chTime(new Date(min(0))), ended_at: chTime(new Date(min(0))), anonymous_id: 'a', name: 'Ada', version: nextVersion(), is_deleted: 0 }],
      format: 'JSONEachRow',
    })
    visitsRewritten()
    await storeHits(store, networks, [hit(5)], known)
    expect((await stored('org-job')).map((v) => [v.started_at, v.ended_at, v.name])).toEqual([[chTime(new Date(min(0))), chTime(new Date(min(5))), 'Ada']])
  })
})
