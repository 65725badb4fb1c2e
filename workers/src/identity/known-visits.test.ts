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

  it('answers none for a visitor never seen, once its organisation is covered from the time asked', () => {
    const known = new KnownVisits()
    expect(known.get('o', 'new', min(40))).toBeUndefined()
    known.coverFrom('o', min(30))
    // Before coverage starts, a stored visit may still be there: read it.
    expect(known.get('o', 'new', min(29))).toBeUndefined()
    expect(known.get('o', 'new', min(30))).toEqual([])
    expect(known.size).toBe(1)
    // Another organisation is not covered by it.
    expect(known.get('p', 'new', min(40))).toBeUndefined()
    // A known visitor asked before its entry's time is read as before, coverage or not.
    known.learn('o', 'a', min(50), [visit(60, 70)])
    expect(known.get('o', 'a', min(45))).toBeUndefined()
  })

  it('moves coverage past the visits of a visitor it lets go, so that visitor is read again', () => {
    const known = new KnownVisits(1)
    known.coverFrom('o', min(0))
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.learn('o', 'b', min(0), [])
    expect(known.size).toBe(1)
    // a's visit ended at 20: a hit at 40 may join it, so a is read; a visitor first seen at 51 need not be.
    expect(known.get('o', 'a', min(10))).toBeUndefined()
    expect(known.get('o', 'c', min(20))).toBeUndefined()
    expect(known.get('o', 'c', min(20) + 1)).toEqual([])
  })

  it('moves coverage past what it wrote for a visitor let go meanwhile', () => {
    const known = new KnownVisits(1)
    known.coverFrom('o', min(0))
    expect(known.get('o', 'a', min(0))).toEqual([])
    expect(known.get('o', 'b', min(0))).toEqual([])
    known.wrote('o', 'a', [visit(30, 31)], [], min(31))
    expect(known.get('o', 'a', min(31))).toBeUndefined()
    expect(known.get('o', 'z', min(31) + 1)).toEqual([])
  })

  it('lets go of visitors whose visits ended two hours before now, and covers from after them', () => {
    let now = min(20 + 120)
    const known = new KnownVisits(100, () => now)
    known.coverFrom('o', min(0))
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.learn('o', 'b', min(0), [visit(100, 130)])
    known.expire()
    expect(known.size).toBe(2)
    now = min(20 + 121)
    known.expire()
    expect(known.size).toBe(1)
    expect(known.get('o', 'a', min(0))).toBeUndefined()
    expect(known.get('o', 'b', min(0))).toEqual([visit(100, 130)])
    expect(known.get('o', 'c', min(21))).toEqual([])
  })

  it('forgets its coverage with everything else', () => {
    const known = new KnownVisits()
    known.coverFrom('o', min(0))
    expect(known.isCovered('o')).toBe(true)
    known.clear()
    expect(known.isCovered('o')).toBe(false)
    expect(known.get('o', 'new', min(10))).toBeUndefined()
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

  /**
   * Forty batches of ten hours of hits by eight visitors, a quarter of an hour a batch: each visitor in about half
   * of them (so visits end and begin again), one hit in six late (up to two hours), some facts changing.
   */
  function dayOfBatches(): Array<Array<Omit<Hit, 'orgId'>>> {
    let seed = 11
    const random = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n)
    const batches: Array<Array<Omit<Hit, 'orgId'>>> = []
    for (let b = 0; b < 40; b++) {
      const batch: Array<Omit<Hit, 'orgId'>> = []
      for (let k = 0; k < 6; k++) {
        const visitorId = `v${random(8)}`
        const now = b * 15 * 60_000 + random(15) * 60_000
        const at = random(6) === 0 ? now - random(120) * 60_000 : now
        const pick = (xs: string[]) => xs[random(xs.length)]!
        batch.push({ visitorId, at: T0 + at, anonymousId: visitorId, userId: pick(['', '', 'u1', 'u2']), puid: pick(['', 'p1', 'p2']), ip: pick(['', '1.1.1.1', '2.2.2.2']), email: pick(['', '', 'a@x.com']), name: pick(['', 'Ada']) })
      }
      batches.push(batch)
    }
    return batches
  }

  /** Reads of stored visits the worker made (storedVisits' query) while `run` ran. */
  async function readsDuring(run: () => Promise<void>): Promise<number> {
    const query = store.client.query.bind(store.client)
    let reads = 0
    store.client.query = ((params: Parameters<typeof query>[0]) => {
      if (/FROM identified_visits FINAL/.test(params.query)) reads++
      return query(params)
    }) as typeof store.client.query
    try {
      await run()
    } finally {
      store.client.query = query as typeof store.client.query
    }
    return reads
  }

  it('stores the same visits as reading them back each batch, over batches in and out of order', async () => {
    const batches = dayOfBatches()
    let now = 0
    const known = new KnownVisits(100, () => now)
    for (const batch of batches) {
      now = Math.max(...batch.map((h) => h.at))
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-read' })))
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-known' })), known)
    }
    const read = await stored('org-read')
    expect(read.length).toBeGreaterThan(20)
    expect(await stored('org-known')).toEqual(read)
    expect(known.size).toBe(8)
  })

  it('stores the same visits when it starts on visits stored before it and knows fewer visitors than come', async () => {
    const batches = dayOfBatches()
    // Five visitors known at most: the others are let go and read again. The first ten batches stored before the worker started.
    // The clock is the batch's latest hit: visitors gone two hours are let go too.
    let now = 0
    const known = new KnownVisits(5, () => now)
    let reads = 0
    for (const [i, batch] of batches.entries()) {
      now = Math.max(...batch.map((h) => h.at))
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-read-2' })))
      if (i < 10) await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-small' })))
      else reads += await readsDuring(() => storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-small' })), known).then(() => undefined))
    }
    expect(await stored('org-small')).toEqual(await stored('org-read-2'))
    expect(known.size).toBe(5)
    // Visitors let go are read again: coverage moved past their visits.
    expect(reads).toBeGreaterThan(0)
  })

  it('reads no visits for visitors never seen once it covers the organisation, and those it knows are folded as before', async () => {
    const known = new KnownVisits(100, () => min(60))
    const hit = (visitorId: string, m: number): Hit => ({ orgId: 'org-new', visitorId, at: min(m), anonymousId: visitorId, userId: '', puid: '', ip: '', email: '', name: '' })
    // A visit stored before the worker: its end (minute 5) is where coverage starts.
    await storeHits(store, networks, [hit('old', 0), hit('old', 5)])
    expect(await readsDuring(async () => void (await storeHits(store, networks, [hit('a', 10), hit('old', 20)], known)))).toBe(1)
    expect(await readsDuring(async () => void (await storeHits(store, networks, [hit('b', 40), hit('c', 41), hit('a', 35), hit('old', 43)], known)))).toBe(0)
    expect((await stored('org-new')).map((v) => [v.visitor_id, v.started_at, v.ended_at])).toEqual([
      ['a', chTime(new Date(min(10))), chTime(new Date(min(35)))],
      ['b', chTime(new Date(min(40))), chTime(new Date(min(40)))],
      ['c', chTime(new Date(min(41))), chTime(new Date(min(41)))],
      ['old', chTime(new Date(min(0))), chTime(new Date(min(43)))],
    ])
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
