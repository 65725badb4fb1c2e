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
    // a's visit ended at 20: a hit at 40 may join it, so a is read; a visitor first seen just after 50 need not be.
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

  it('lets go of visitors whose visits ended two hours before the latest event, and covers from after them', () => {
    const known = new KnownVisits()
    known.coverFrom('o', min(0))
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.learn('o', 'b', min(0), [visit(100, 130)])
    known.expire(min(20 + 120))
    expect(known.size).toBe(2)
    known.expire(min(20 + 121))
    expect(known.size).toBe(1)
    expect(known.get('o', 'a', min(0))).toBeUndefined()
    expect(known.get('o', 'b', min(0))).toEqual([visit(100, 130)])
    expect(known.get('o', 'c', min(21))).toEqual([])
  })

  it('lets go by the clock when an event says later: one from the future lets nobody go', () => {
    const known = new KnownVisits(100, () => min(60))
    known.learn('o', 'a', min(0), [visit(10, 20)])
    known.expire(min(10_000))
    expect(known.size).toBe(1)
  })

  it('holds a visitor with a visit in the future, so that letting visitors go moves no coverage into the future', () => {
    const known = new KnownVisits(2, () => min(100))
    known.coverFrom('o', min(0))
    known.learn('o', 'ahead', min(0), [visit(5000, 5000, { visitorId: 'ahead' })])
    known.learn('o', 'a', min(0), [visit(10, 20)])
    // Past the cap: the least recently used is the one ahead, held; a goes.
    known.learn('o', 'b', min(0), [visit(30, 40)])
    expect(known.get('o', 'ahead', min(4990))).toEqual([visit(5000, 5000, { visitorId: 'ahead' })])
    expect(known.get('o', 'a', min(0))).toBeUndefined()
    expect(known.get('o', 'new', min(20) + 1)).toEqual([])
    // Nor does it stop the others from being let go when they are done.
    const later = new KnownVisits(100, () => min(1000))
    later.coverFrom('o', min(0))
    later.learn('o', 'ahead', min(0), [visit(5000, 5000, { visitorId: 'ahead' })])
    later.learn('o', 'a', min(0), [visit(10, 20)])
    later.expire(min(1000))
    expect(later.size).toBe(1)
    expect(later.get('o', 'ahead', min(4990))).toHaveLength(1)
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

  it('stores the same visits when it starts on visits stored before it, knows fewer visitors than come, and an event is from the future', async () => {
    const batches = dayOfBatches()
    // One visitor's events three days ahead of the clock (the end of the batches' day), twice: one visit.
    const clock = T0 + 10 * 3600_000
    const ahead = (at: number): Omit<Hit, 'orgId'> => ({ visitorId: 'v3', at, anonymousId: 'v3', userId: '', puid: '', ip: '', email: '', name: '' })
    batches[5]!.push(ahead(T0 + 72 * 3600_000))
    batches[25]!.push(ahead(T0 + 72 * 3600_000 + 5 * 60_000))
    // Five visitors of two organisations known at most: the others are let go and read again. The first ten batches
    // stored before the worker started; the two organisations' hits come in the same batches.
    const known = new KnownVisits(5, () => clock)
    for (const [i, batch] of batches.entries()) {
      await storeHits(store, networks, batch.map((h) => ({ ...h, orgId: 'org-read-2' })))
      const both = [...batch.map((h) => ({ ...h, orgId: 'org-small' })), ...batch.map((h) => ({ ...h, orgId: 'org-small-b' }))]
      await storeHits(store, networks, both, i < 10 ? undefined : known)
    }
    const read = await stored('org-read-2')
    expect(read.filter((v) => v.visitor_id === 'v3' && v.started_at > chTime(new Date(clock)))).toHaveLength(1)
    expect(await stored('org-small')).toEqual(read)
    expect(await stored('org-small-b')).toEqual(read)
    expect(known.size).toBe(5)
  })

  it('folds a backlog hours old with the visitors it knows, reading only the first time', async () => {
    // The clock is now; the events are of March: every batch's are hours older than it.
    const known = new KnownVisits()
    const batch = (b: number): Hit[] =>
      Array.from({ length: 20 }, (_, k) => ({ orgId: 'org-backlog', visitorId: `v${k}`, at: min(b * 5 + (k % 5)), anonymousId: `v${k}`, userId: '', puid: '', ip: '', email: '', name: '' }))
    // One visit stored before the worker, 20 minutes before the first batch: v0's hits join it (one read, the first batch's).
    await storeHits(store, networks, [{ ...batch(0)[0]!, at: min(-20) }])
    let reads = 0
    for (let b = 0; b < 10; b++) reads += await readsDuring(async () => void (await storeHits(store, networks, batch(b), known)))
    expect(reads).toBe(1)
    const visits = await stored('org-backlog')
    expect(visits).toHaveLength(20)
    expect(visits.filter((v) => v.visitor_id === 'v0' || v.visitor_id === 'v1').map((v) => [v.started_at, v.ended_at])).toEqual([
      [chTime(new Date(min(-20))), chTime(new Date(min(45)))],
      [chTime(new Date(min(1))), chTime(new Date(min(46)))],
    ])
  })

  it('starts covering after the visits stored up to now, learning the visitors with visits in the future', async () => {
    const now = Date.now()
    const hit = (visitorId: string, at: number): Hit => ({ orgId: 'org-ahead', visitorId, at, anonymousId: visitorId, userId: '', puid: '', ip: '', email: '', name: '' })
    // Stored before the worker: a visit an hour ago, and one a day ahead (a client's clock).
    await storeHits(store, networks, [hit('past', now - 3600_000), hit('ahead', now + 86_400_000)])
    const known = new KnownVisits()
    // Coverage starts after the past visit, not after the one ahead: a visitor never seen is not read.
    expect(await readsDuring(async () => void (await storeHits(store, networks, [hit('new', now - 60_000)], known)))).toBe(1)
    expect(await readsDuring(async () => void (await storeHits(store, networks, [hit('newer', now), hit('ahead', now + 86_400_000 + 60_000)], known)))).toBe(0)
    expect((await stored('org-ahead')).map((v) => [v.visitor_id, v.started_at, v.ended_at])).toEqual([
      ['ahead', chTime(new Date(now + 86_400_000)), chTime(new Date(now + 86_400_000 + 60_000))],
      ['new', chTime(new Date(now - 60_000)), chTime(new Date(now - 60_000))],
      ['newer', chTime(new Date(now)), chTime(new Date(now))],
      ['past', chTime(new Date(now - 3600_000)), chTime(new Date(now - 3600_000))],
    ])
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
