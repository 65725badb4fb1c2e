import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chTime, type IngestedEvent } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'
import { eventRow, insertEvents, openTestEventStore } from '@fl0/stores/events/testing'
import { detectBots, MIN_SESSIONS, startBotsWorker, type BotScan } from './index.ts'

/**
 * The bots worker on chDB: which visitors its two rules mark, and which they
 * must not (an office and a mobile carrier behind one address, a visitor who
 * signed in, a group one session short of the threshold); a rescan writes
 * nothing; the watermark's window; a day's sessions judged together across
 * scans; the worker's loop. Each test plants its own organisation's events.
 */
let store: EventStore
beforeAll(async () => {
  store = await openTestEventStore()
})
afterAll(async () => {
  await store?.close()
})

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

const DAY = Date.parse('2026-03-02T00:00:00Z')
const NOW = new Date('2026-03-02T20:00:00Z')
const MINUTE = 60_000

/** One visit: a page view per path, `gapMs` apart, from `start` minutes after the day's 08:00. */
function visit(org: string, anon: string, o: { ip: string; ua: string; start: number; paths: string[]; gapMs: number; user?: string }): IngestedEvent[] {
  const t0 = DAY + 8 * 60 * MINUTE + o.start * MINUTE
  return o.paths.map((path, i) =>
    eventRow({ org_id: org, type: 'page', anonymous_id: anon, user_id: o.user ?? '', ip: o.ip, user_agent: o.ua, page_path: path, timestamp: new Date(t0 + i * o.gapMs) }),
  )
}

/** The rows as the ingest would have stamped them on arrival at `at`. */
const received = (rows: IngestedEvent[], at: Date) => rows.map((r) => ({ ...r, received_at: chTime(at) }))
const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const SITE = ['/', '/pricing', '/docs', '/docs/install', '/blog', '/blog/launch', '/customers', '/about', '/careers', '/contact']

/** A scraper: `n` one-page sessions from one address and browser, each two seconds from first call to last. */
const scraper = (org: string, prefix: string, n: number, ip: string) => range(n).flatMap((i) => visit(org, `${prefix}-${i}`, { ip, ua: CHROME, start: i * 3, paths: ['/pricing', '/pricing'], gapMs: 2_000 }))

async function marked(org: string): Promise<Record<string, string>> {
  const result = await store.client.query({
    query: 'SELECT DISTINCT anonymous_id, reason FROM bot_visitors WHERE org_id = {org:String} ORDER BY anonymous_id',
    query_params: { org },
    format: 'JSONEachRow',
  })
  return Object.fromEntries((await result.json<{ anonymous_id: string; reason: string }>()).map((r) => [r.anonymous_id, r.reason]))
}

describe('detectBots', () => {
  it('marks crawlers and headless browsers by user agent, and hundreds of short one-address sessions by behaviour; not an office, a carrier or a signed-in user', async () => {
    const org = 'org-rules'
    await insertEvents(store, [
      ...visit(org, 'crawler-google', { ip: '66.249.66.1', ua: GOOGLEBOT, start: 0, paths: ['/', '/pricing', '/docs'], gapMs: 500 }),
      ...visit(org, 'headless-1', { ip: '192.0.2.9', ua: HEADLESS, start: 5, paths: ['/'], gapMs: 0 }),
      // The behavioural bot: 150 sessions of one page, two seconds each, from one address, in a browser's user agent.
      ...scraper(org, 'scraper', 150, '198.51.100.7'),
      // One short of the threshold, from another address: not marked.
      ...scraper(org, 'almost', MIN_SESSIONS - 1, '198.51.100.8'),
      // An office: 120 people behind one address, one browser build, visits of minutes over many pages.
      ...range(120).flatMap((i) =>
        visit(org, `office-${i}`, { ip: '203.0.113.10', ua: CHROME, start: i, paths: [SITE[i % 10]!, SITE[(i + 3) % 10]!, SITE[(i + 5) % 10]!, SITE[(i + 7) % 10]!], gapMs: 90_000 }),
      ),
      // A mobile carrier's shared address: 150 people, one phone build; most leave after one page (a median of 0 s),
      // the rest read on for minutes.
      ...range(150).flatMap((i) =>
        i % 5 < 3
          ? visit(org, `carrier-${i}`, { ip: '172.56.1.1', ua: IPHONE, start: i * 2, paths: ['/'], gapMs: 0 })
          : visit(org, `carrier-${i}`, { ip: '172.56.1.1', ua: IPHONE, start: i * 2, paths: [SITE[i % 10]!, SITE[(i + 1) % 10]!, SITE[(i + 4) % 10]!], gapMs: 60_000 }),
      ),
      // A synthetic monitor that signs in: calls with a user id are never a bot's.
      ...visit(org, 'monitor', { ip: '192.0.2.10', ua: HEADLESS, start: 30, paths: ['/app'], gapMs: 0, user: 'u-monitor' }),
      // An ordinary visitor.
      ...visit(org, 'reader', { ip: '192.0.2.50', ua: CHROME, start: 60, paths: ['/', '/blog', '/pricing'], gapMs: 45_000 }),
    ])

    const scan = await detectBots(store, NOW)
    expect(scan.marked).toEqual({ user_agent: 2, behaviour: 150 })
    // Googlebot and HeadlessChrome among the anonymous calls' four user agents (the monitor's calls, with a user id, are not read).
    expect([scan.agents, scan.botAgents]).toEqual([4, 2])
    const found = await marked(org)
    expect(Object.keys(found).length).toBe(152)
    expect(found['crawler-google']).toBe('user_agent')
    expect(found['headless-1']).toBe('user_agent')
    expect(range(150).every((i) => found[`scraper-${i}`] === 'behaviour')).toBe(true)
    expect(Object.keys(found).filter((id) => /^(almost|office|carrier|monitor|reader)/.test(id))).toEqual([])
  })

  it('writes nothing on a rescan', async () => {
    const org = 'org-rescan'
    await insertEvents(store, [...visit(org, 'crawler', { ip: '66.249.66.2', ua: GOOGLEBOT, start: 0, paths: ['/'], gapMs: 0 }), ...scraper(org, 'bot', 100, '198.51.100.20')])
    const first = await detectBots(store, NOW)
    expect(first.marked).toEqual({ user_agent: 1, behaviour: 100 })
    const again = await detectBots(store, new Date(NOW.getTime() + 1))
    expect(again.marked).toEqual({ user_agent: 0, behaviour: 0 })
    const count = await store.client.query({ query: "SELECT count() AS n FROM bot_visitors WHERE org_id = 'org-rescan'", format: 'JSONEachRow' })
    expect((await count.json<{ n: number | string }>()).map((r) => Number(r.n))).toEqual([101])
  })

  it('reads the calls received in its window only', async () => {
    const org = 'org-window'
    const early = new Date(NOW.getTime() - 3 * 24 * 60 * MINUTE)
    await insertEvents(store, received(visit(org, 'old-crawler', { ip: '66.249.66.3', ua: GOOGLEBOT, start: -3 * 24 * 60, paths: ['/'], gapMs: 0 }), early))
    // Two days back by default: a call received three days ago is not read.
    await detectBots(store, NOW)
    expect(await marked(org)).toEqual({})
    await detectBots(store, NOW, { since: new Date(early.getTime() - MINUTE) })
    expect(await marked(org)).toEqual({ 'old-crawler': 'user_agent' })
  })

  it("judges a day's sessions together, however many scans they arrive in", async () => {
    const org = 'org-accumulate'
    const bots = scraper(org, 'slow', 120, '198.51.100.30')
    const noon = new Date(DAY + 12 * 60 * MINUTE)
    const firstHalf = bots.filter((e) => e.timestamp < '2026-03-02 11:00:00.000')
    const secondHalf = bots.filter((e) => e.timestamp >= '2026-03-02 11:00:00.000')
    expect(firstHalf.length / 2).toBeLessThan(MIN_SESSIONS)
    await insertEvents(store, received(firstHalf, noon))
    await detectBots(store, noon, { since: new Date(noon.getTime() - MINUTE) })
    expect(await marked(org)).toEqual({})
    await insertEvents(store, received(secondHalf, NOW))
    // The second scan's window holds only the later sessions; the group is judged over its whole day.
    await detectBots(store, NOW, { since: noon })
    expect(Object.values(await marked(org))).toEqual(Array(120).fill('behaviour'))
  })
})

describe('startBotsWorker', () => {
  it('marks what arrives after it started, scan after scan, until stopped', async () => {
    const org = 'org-worker'
    const scans: BotScan[] = []
    const worker = startBotsWorker({ store, logger: { info() {}, warn() {} }, intervalMs: 50, onScan: (s) => scans.push(s) })
    try {
      await until(async () => scans.length > 0)
      const now = new Date()
      await insertEvents(store, [eventRow({ org_id: org, type: 'page', anonymous_id: 'late-crawler', user_agent: GOOGLEBOT, ip: '66.249.66.4', page_path: '/', timestamp: now })])
      await until(async () => (await marked(org))['late-crawler'] === 'user_agent')
    } finally {
      await worker.stop()
    }
  })
})

async function until(check: () => Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('timed out')
}
