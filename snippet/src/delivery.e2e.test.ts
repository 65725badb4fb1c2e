import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'
import { launchChromium, libraryLoaded, requireChromiumWhenAsked, PROXIED_VISITOR_IP, puidOf, recordBatches, runBrowserTests, SCREENSHOTS, showStored, startSite, storedEvents, waitForEvents, type Site } from './e2e/harness.ts'

/**
 * fl0.js in Chromium against a real embedded fl0: what reaches the events
 * table, in what order, with what context, and what survives being offline.
 */
requireChromiumWhenAsked()

describe.skipIf(!runBrowserTests)('fl0.js delivery, in Chromium', () => {
  let fl0: TestFl0
  let site: Site
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    // The test site's first-party proxy (harness.ts) runs on this machine.
    ;[fl0, browser] = await Promise.all([startTestFl0({ TRUSTED_PROXIES: '127.0.0.1' }), launchChromium()])
    site = await startSite(fl0)
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await fl0?.stop()
  })

  async function newVisitor() {
    site.options = {}
    site.inline = ''
    context = await browser.newContext()
    page = await context.newPage()
    page.on('pageerror', (error) => {
      throw error
    })
    return page
  }

  it('delivers calls made before and after the library loads, in call order, each with the page as it was at the call', async () => {
    await newVisitor()
    // Runs right after the loader, before fl0.js can have arrived: two calls
    // on two different "pages" (a replaceState between them).
    site.inline = `
      window.loadedBeforeCalls = analytics.initialized === true
      analytics.track('Before Load 1', { step: 1 })
      history.replaceState(null, '', '/pricing/annual?plan=pro')
      document.title = 'Annual pricing'
      analytics.track('Before Load 2', { step: 2 })`
    const batches = recordBatches(page)
    await page.goto(`${site.url}/pricing?title=Pricing&utm_source=news`, { referer: 'https://news.example/today' })
    await libraryLoaded(page)
    expect(await page.evaluate(() => (window as any).loadedBeforeCalls)).toBe(false)
    await page.evaluate(() => (window as any).analytics.track('After Load', { step: 3 }))
    const userAgent = await page.evaluate(() => navigator.userAgent)
    const puid = await puidOf(page)

    const rows = await waitForEvents(fl0, puid, 4)
    // The order the browser sent them in is the order of the calls…
    const sent = batches.flatMap((b) => b.body.batch)
    expect(sent.map((e: any) => e.event ?? e.type)).toEqual(['page', 'Before Load 1', 'Before Load 2', 'After Load'])
    // …and fl0 stored each once, with the same ids and the page of its own call.
    expect(rows.map((r) => r.message_id).sort()).toEqual(sent.map((e: any) => e.messageId).sort())
    const byName = Object.fromEntries(rows.map((r) => [r.event || r.type, r]))
    const first = { page_path: '/pricing', page_title: 'Pricing', page_search: '?title=Pricing&utm_source=news', page_url: `${site.url}/pricing?title=Pricing&utm_source=news` }
    const second = { page_path: '/pricing/annual', page_title: 'Annual pricing', page_search: '?plan=pro', page_url: `${site.url}/pricing/annual?plan=pro` }
    expect(byName.page).toMatchObject({ ...first, page_referrer: 'https://news.example/today', name: '' })
    expect(byName['Before Load 1']).toMatchObject(first)
    expect(byName['Before Load 2']).toMatchObject(second)
    expect(byName['After Load']).toMatchObject(second)
    // A page call repeats its page in its properties, as analytics.js does.
    expect(byName.page.properties).toMatchObject({ path: '/pricing', title: 'Pricing', referrer: 'https://news.example/today' })
    expect(byName['After Load'].properties).toEqual({ step: 3 })
    // Timestamps follow the calls (within a millisecond's resolution).
    const time = (r: any) => Date.parse(r.timestamp.replace(' ', 'T') + 'Z')
    const times = ['page', 'Before Load 1', 'Before Load 2', 'After Load'].map((n) => time(byName[n]))
    expect([...times].sort((x, y) => x - y)).toEqual(times)
    for (const row of rows) {
      expect(row.user_agent).toBe(userAgent)
      expect(row.anonymous_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(row.context).toMatchObject({
        library: { name: 'fl0.js', version: expect.any(String) },
        userAgent,
        locale: 'en-US',
        timezone: expect.any(String),
        puid,
      })
    }
    // Text bodies are "simple" requests: no CORS preflight per batch.
    for (const { request } of batches) expect(request.headers()['content-type']).toMatch(/^text\/plain/)
    await showStored(page, rows)
    await page.screenshot({ path: `${SCREENSHOTS}snippet-delivery.png` })
    await context.close()
  })

  it('sends what was queued before it loaded at once, then batches by count and by time', async () => {
    await newVisitor()
    site.options = { flushAt: 3, flushInterval: 3000 }
    const batches = recordBatches(page)
    await page.goto(`${site.url}/count`)
    await libraryLoaded(page)
    // The loader's page view, queued before the library came, goes at once.
    await expect.poll(() => batches.length).toBe(1)
    expect(batches[0].body.batch.map((e: any) => e.type)).toEqual(['page'])
    const track = (name: string) => page.evaluate((n) => (window as any).analytics.track(n), name)
    // Two waiting: neither the count (3) nor the time (3 s) is reached yet.
    await track('One')
    const firstWaiting = Date.now()
    await track('Two')
    await page.waitForTimeout(500)
    expect(batches.length).toBe(1)
    // The third makes the count: sent at once, well before the interval.
    await track('Three')
    await expect.poll(() => batches.length).toBe(2)
    expect(Date.now() - firstWaiting).toBeLessThan(3000)
    expect(batches[1].body.batch.map((e: any) => e.event)).toEqual(['One', 'Two', 'Three'])
    // One alone waits for the interval.
    const before = Date.now()
    await track('Four')
    await expect.poll(() => batches.length, { timeout: 8000 }).toBe(3)
    expect(Date.now() - before).toBeGreaterThanOrEqual(2800)
    expect(batches[2].body.batch.map((e: any) => e.event)).toEqual(['Four'])
    await waitForEvents(fl0, await puidOf(page), 5, 0)
    await context.close()
  })

  it('keeps events made offline and delivers each exactly once when back online', async () => {
    await newVisitor()
    await page.goto(`${site.url}/offline`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    await waitForEvents(fl0, puid, 1, 0) // the page view
    await context.setOffline(true)
    await page.evaluate(() => {
      for (const n of [1, 2, 3]) (window as any).analytics.track('Offline', { n })
    })
    await page.waitForTimeout(1000)
    expect((await storedEvents(fl0, puid)).filter((r) => r.event == 'Offline')).toEqual([])
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('fl0_queue')!).length)).toBe(3)

    await context.setOffline(false)
    const rows = (await waitForEvents(fl0, puid, 4)).filter((r) => r.event == 'Offline')
    expect(rows.map((r) => r.properties.n).sort()).toEqual([1, 2, 3])
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(3)
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('fl0_queue')!).length)).toBe(0)
    await context.close()
  })

  it('delivers events from a page closed while offline on the next page, once, even when two tabs send them', async () => {
    await newVisitor()
    await page.goto(`${site.url}/closing`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    await waitForEvents(fl0, puid, 1, 0)
    await context.setOffline(true)
    await page.evaluate(() => {
      ;(window as any).analytics.track('Left Offline', { n: 1 })
      ;(window as any).analytics.track('Left Offline', { n: 2 })
    })
    await page.close() // pagehide while offline: no beacon, the events stay stored
    await context.setOffline(false)

    // Two tabs open at once; each adopts the stored events and sends them.
    const [tab1, tab2] = await Promise.all([context.newPage(), context.newPage()])
    const sent = [recordBatches(tab1), recordBatches(tab2)]
    await Promise.all([tab1.goto(`${site.url}/tab-1`), tab2.goto(`${site.url}/tab-2`)])
    const rows = await waitForEvents(fl0, puid, 5, 1500) // 3 page views and the 2 events
    const leftOffline = rows.filter((r) => r.event == 'Left Offline')
    expect(leftOffline.map((r) => r.properties.n).sort()).toEqual([1, 2])
    expect(rows.length).toBe(5)
    // Every event sent was stored once, however many times it was sent.
    const sentIds = sent.flat().flatMap((b) => b.body.batch.map((e: any) => e.messageId))
    expect(new Set(sentIds)).toEqual(new Set(rows.filter((r) => !(r.type == 'page' && r.page_path == '/closing')).map((r) => r.message_id)))
    console.info(`stored events sent by the two tabs: ${sentIds.length} sends of ${new Set(sentIds).size} events`)
    await context.close()
  })

  it('retries after a 503 and a 429 with Retry-After, with the same message ids, and stores them once', async () => {
    await newVisitor()
    // fl0 answers 503 when its bus is down and a proxy may answer 429; the
    // browser is made to see those answers for the first two sends, then the
    // third goes through to the real fl0.
    const attempts: Array<{ at: number; ids: string[] }> = []
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' }
    await page.route(`${fl0.url}/v1/batch`, async (route) => {
      attempts.push({ at: Date.now(), ids: JSON.parse(route.request().postData()!).batch.map((e: any) => e.messageId) })
      if (attempts.length == 1) return route.fulfill({ status: 503, headers: cors, body: '{"success":false}' })
      if (attempts.length == 2) return route.fulfill({ status: 429, headers: { ...cors, 'Retry-After': '2' }, body: '{}' })
      return route.continue()
    })
    await page.goto(`${site.url}/retry`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    const rows = await waitForEvents(fl0, puid, 1, 1500)
    expect(rows.length).toBe(1)
    expect(attempts.length).toBe(3)
    expect(attempts[1].ids).toEqual(attempts[0].ids)
    expect(attempts[2].ids).toEqual(attempts[0].ids)
    expect(rows[0].message_id).toBe(attempts[0].ids[0])
    // Backoff after the 503; Retry-After (2 s) after the 429.
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(900)
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(1900)
    await context.close()
  })

  it('hands waiting events to sendBeacon when the page goes away', async () => {
    await newVisitor()
    site.options = { flushInterval: 60_000 }
    // Batches sent by fetch, seen while the page lives; beacons, written down by the page itself
    // (Playwright does not report requests made as a page unloads) in its origin's localStorage.
    const fetched: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/batch') && r.resourceType() !== 'ping') {
        fetched.push(...(JSON.parse(r.postData() ?? '{}').batch ?? []).map((e: { event?: string; type: string }) => e.event || e.type))
      }
    })
    await context.addInitScript(() => {
      const send = navigator.sendBeacon.bind(navigator)
      navigator.sendBeacon = (url, data) => {
        const log = JSON.parse(localStorage.getItem('test_beacons') || '[]')
        localStorage.setItem('test_beacons', JSON.stringify(log.concat(String(data))))
        return send(url, data)
      }
    })
    await page.goto(`${site.url}/leaving`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    // The calls queued before the library loaded (the page view) go out at once; this one
    // waits: the interval is a minute and the count is not reached.
    await page.evaluate(() => (window as any).analytics.track('Clicked Away'))
    await page.goto('about:blank')
    const rows = await waitForEvents(fl0, puid, 2)
    expect(rows.map((r) => r.event || r.type).sort()).toEqual(['Clicked Away', 'page'])
    expect(fetched).not.toContain('Clicked Away')
    await page.goto(`${site.url}/back`)
    const beacons: string[] = await page.evaluate(() => JSON.parse(localStorage.getItem('test_beacons') || '[]'))
    const beaconed = beacons.flatMap((b) => JSON.parse(b).batch.map((e: { event?: string; type: string }) => e.event || e.type))
    expect(beaconed).toContain('Clicked Away')
    await context.close()
  })

  it('works through a first-party proxy: library and events from a path on the site itself', async () => {
    await newVisitor()
    site.options = { apiHost: '/fl0' }
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    await page.goto(`${site.url}/proxied`)
    await libraryLoaded(page)
    await page.evaluate(() => (window as any).analytics.track('Through The Proxy'))
    const rows = await waitForEvents(fl0, await puidOf(page), 2)
    expect(rows.map((r) => r.event || r.type)).toEqual(['page', 'Through The Proxy'])
    // Nothing went to fl0's own host; the visitor's address came through X-Forwarded-For.
    expect(requests.filter((u) => u.startsWith(fl0.url))).toEqual([])
    expect(requests).toContain(`${site.url}/fl0/fl0.js`)
    expect(requests).toContain(`${site.url}/fl0/v1/batch`)
    for (const row of rows) expect(row.context.ip).toBe(PROXIED_VISITOR_IP)
    await context.close()
  })

  it('sends events where the library came from when only cdnHost is given', async () => {
    await newVisitor()
    site.options = { apiHost: undefined, cdnHost: `${site.url}/fl0` }
    const batches = recordBatches(page)
    await page.goto(`${site.url}/cdn-only`)
    await libraryLoaded(page)
    await waitForEvents(fl0, await puidOf(page), 1)
    expect(batches.map((b) => b.request.url())).toEqual([`${site.url}/fl0/v1/batch`])
    await context.close()
  })

  it('never throws into the page, whatever it is called with, and goes on working without storage', async () => {
    await newVisitor()
    // A full or forbidden localStorage: every write throws.
    await page.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('full', 'QuotaExceededError')
      }
    })
    const errors: unknown[] = []
    page.removeAllListeners('pageerror')
    page.on('pageerror', (e) => errors.push(e))
    await page.goto(`${site.url}/odd`)
    await libraryLoaded(page)
    const results = await page.evaluate(() => {
      const analytics = (window as any).analytics
      const circular: any = { a: 1 }
      circular.self = circular
      const outcomes: unknown[] = []
      const calls: Array<() => unknown> = [
        () => analytics.track(),
        () => analytics.track('Circular', circular),
        () => analytics.identify(() => {}),
        () => analytics.page(null, null, null, null),
        () => analytics.group(),
        () => analytics.alias(),
        () => analytics.screen({ deep: [1, { x: 2 }] }),
        () => analytics.on('track', () => {}),
        () => analytics.trackLink(document.body, 'Clicked'),
        () => analytics.debug(true),
        () => analytics.track('Survivor', { ok: true }, {}, () => { throw new Error('from the callback') }),
      ]
      for (const call of calls) {
        try {
          outcomes.push(call() === analytics)
        } catch (e) {
          outcomes.push(String(e))
        }
      }
      return outcomes
    })
    expect(results).toEqual(Array(results.length).fill(true))
    const puid = await puidOf(page)
    const rows = await waitForEvents(fl0, puid, 3)
    expect(rows.map((r) => r.event || r.type).sort()).toContain('Survivor')
    expect(rows.find((r) => r.event == 'Circular')).toBeUndefined()
    await page.waitForTimeout(400) // the callback's turn
    expect(errors).toEqual([])
    await context.close()
  })
})
