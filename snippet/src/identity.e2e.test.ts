import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'
import { launchChromium, libraryLoaded, requireChromiumWhenAsked, puidOf, recordBatches, runBrowserTests, SCREENSHOTS, showStored, startSite, waitForEvents, type Site } from './e2e/harness.ts'

/**
 * fl0.js in Chromium against a real embedded fl0: who the visitor is (ids,
 * cookies, traits, groups) and page views of single-page apps.
 */
const YEAR_S = 365 * 24 * 3600

requireChromiumWhenAsked()

describe.skipIf(!runBrowserTests)('fl0.js identity and navigation, in Chromium', () => {
  let fl0: TestFl0
  let site: Site
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    // *.fl0.test resolves to this machine, so that cookie domains can be seen.
    ;[fl0, browser] = await Promise.all([startTestFl0(), launchChromium(['--host-resolver-rules=MAP *.fl0.test 127.0.0.1'])])
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
  }
  const call = (script: string) => page.evaluate(script)

  it('keeps the anonymous id and the puid across a reload, in first-party cookies for a year', async () => {
    await newVisitor()
    await page.goto(`${site.url}/first`)
    await libraryLoaded(page)
    const anonymousId = await page.evaluate(() => (window as any).analytics.user().anonymousId())
    await page.reload()
    await libraryLoaded(page)
    await call(`analytics.track('After Reload')`)
    const puid = await puidOf(page)
    const rows = await waitForEvents(fl0, puid, 3)
    expect(rows.map((r) => r.event || r.type)).toEqual(['page', 'page', 'After Reload'])
    expect(new Set(rows.map((r) => r.anonymous_id))).toEqual(new Set([anonymousId]))
    expect(await page.evaluate(() => (window as any).analytics.anonymousId())).toBe(anonymousId)

    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]))
    for (const name of ['ajs_anonymous_id', 'fl0_puid']) {
      expect(cookies[name]).toMatchObject({ sameSite: 'Lax', path: '/', httpOnly: false })
      expect(cookies[name].expires - Date.now() / 1000).toBeGreaterThan(YEAR_S - 120)
      expect(cookies[name].expires - Date.now() / 1000).toBeLessThanOrEqual(YEAR_S + 5)
    }
    expect(cookies.ajs_anonymous_id.value).toBe(anonymousId)
    expect(cookies.fl0_puid.value).toBe(puid)
    expect(cookies.fl0_tld).toBeUndefined() // the domain probe cleans up
    await context.close()
  })

  it('sets its cookies on the widest domain that takes them, so that subdomains share the visitor', async () => {
    await newVisitor()
    await page.goto(`http://www.shop.fl0.test:${site.port}/`)
    await libraryLoaded(page)
    const anonymousId = await page.evaluate(() => (window as any).analytics.user().anonymousId())
    const cookies = await context.cookies()
    // fl0.test is the registrable domain ("test" is a public suffix to the browser).
    expect(cookies.find((c) => c.name == 'ajs_anonymous_id')).toMatchObject({ domain: '.fl0.test', value: anonymousId })
    await page.goto(`http://app.fl0.test:${site.port}/dashboard`)
    await libraryLoaded(page)
    expect(await page.evaluate(() => (window as any).analytics.user().anonymousId())).toBe(anonymousId)
    const rows = await waitForEvents(fl0, await puidOf(page), 2)
    expect(rows.map((r) => [r.anonymous_id, new URL(r.page_url).hostname])).toEqual([
      [anonymousId, 'www.shop.fl0.test'],
      [anonymousId, 'app.fl0.test'],
    ])
    await context.close()
  })

  it('sends the user id on every call after identify, the group id after group, and forgets both on reset', async () => {
    await newVisitor()
    await page.goto(`${site.url}/account`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    const anonymousId = await page.evaluate(() => (window as any).analytics.user().anonymousId())
    await call(`
      analytics.track('Anonymous Click')
      analytics.identify('user-42', { email: 'ada@example.com', plan: 'free' })
      analytics.identify({ plan: 'pro' })
      analytics.track('Upgraded', { seats: 5 })
      analytics.group('acme', { name: 'Acme Ltd' })
      analytics.track('Invited Teammate')`)
    expect(await page.evaluate(() => (window as any).analytics.user().id())).toBe('user-42')
    // Traits accumulate in localStorage as analytics.js keeps them.
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('ajs_user_traits')!))).toEqual({ email: 'ada@example.com', plan: 'pro' })
    await page.reload()
    await libraryLoaded(page)
    await call(`analytics.track('Came Back')`)
    await call(`analytics.reset(); analytics.track('Logged Out')`)
    const rows = await waitForEvents(fl0, puid, 10)
    const row = (name: string) => rows.find((r) => (r.event || r.type) == name)!
    const events = rows.map((r) => r.event || r.type)
    expect(events).toEqual(['page', 'Anonymous Click', 'identify', 'identify', 'Upgraded', 'group', 'Invited Teammate', 'page', 'Came Back', 'Logged Out'])

    expect(row('Anonymous Click').user_id).toBe('')
    const identified = rows.slice(2, 9)
    for (const r of identified) expect(r.user_id).toBe('user-42')
    for (const r of rows.slice(0, 9)) expect(r.anonymous_id).toBe(anonymousId)
    expect(rows[3].traits).toEqual({ email: 'ada@example.com', plan: 'pro' })
    expect(row('group')).toMatchObject({ group_id: 'acme', traits: { name: 'Acme Ltd' } })
    // After group, events carry the group in their context (stored group_id is for group calls).
    for (const name of ['Invited Teammate', 'Came Back']) expect(row(name).context.groupId).toBe('acme')
    expect(row('Upgraded').context.groupId).toBeUndefined()
    // reset(): a new anonymous id, no user, no group; the puid stays.
    const out = row('Logged Out')
    expect(out.user_id).toBe('')
    expect(out.anonymous_id).not.toBe(anonymousId)
    expect(out.context.groupId).toBeUndefined()
    expect(out.context.puid).toBe(puid)
    expect(await page.evaluate(() => localStorage.getItem('ajs_user_traits'))).toBe('null')
    await context.close()
  })

  it('reads the calls in analytics.js shapes: page names and properties, screen, alias, options, callbacks', async () => {
    await newVisitor()
    await page.goto(`${site.url}/shapes?title=Shapes`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    const called = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const analytics = (window as any).analytics
          analytics.page('Docs', 'Install', { step: 2 })
          analytics.page('Pricing', { plan: 'team' }, { context: { ip: '203.0.113.9' } })
          analytics.screen('Settings')
          analytics.track('Dated', { n: 1 }, { timestamp: '2026-01-02T03:04:05.000Z' })
          analytics.alias('user-new', 'user-old')
          analytics.setAnonymousId('site-chosen-id')
          analytics.track('Called Back', {}, {}, () => resolve(true))
        }),
    )
    expect(called).toBe(true)
    const rows = await waitForEvents(fl0, puid, 7)
    const byName = (type: string, name?: string) => rows.find((r) => r.type == type && (name == null || r.name == name || r.event == name))!
    expect(byName('page', 'Install').properties).toMatchObject({ category: 'Docs', name: 'Install', step: 2, path: '/shapes', title: 'Shapes' })
    // Options' context is merged into the event's context (an IP given there is kept, as Segment does).
    expect(byName('page', 'Pricing')).toMatchObject({ name: 'Pricing', properties: { plan: 'team', name: 'Pricing' }, context: { ip: '203.0.113.9' } })
    expect(byName('screen', 'Settings').name).toBe('Settings')
    expect(byName('track', 'Dated').timestamp.startsWith('2026-01-02 03:04:05')).toBe(true)
    expect(byName('alias')).toMatchObject({ user_id: 'user-new', previous_id: 'user-old' })
    expect(rows.length).toBe(7)
    expect(byName('track', 'Called Back').anonymous_id).toBe('site-chosen-id')
    await context.close()
  })

  it('applies setAnonymousId made before the library loads to the first page view too', async () => {
    await newVisitor()
    site.inline = `analytics.setAnonymousId('server-issued-7')`
    await page.goto(`${site.url}/early-id`)
    await libraryLoaded(page)
    const rows = await waitForEvents(fl0, await puidOf(page), 1)
    expect(rows.map((r) => [r.type, r.anonymous_id])).toEqual([['page', 'server-issued-7']])
    await context.close()
  })

  it('sends a page view on pushState, replaceState to a new address and popstate, and none for hashes or the same address', async () => {
    await newVisitor()
    const batches = recordBatches(page)
    await page.goto(`${site.url}/app?title=App`)
    await libraryLoaded(page)
    const puid = await puidOf(page)
    await call(`history.pushState({}, '', '/app/projects'); document.title = 'Projects'`)
    await call(`history.replaceState({ scroll: 10 }, '')`) // same address: not a page
    await call(`location.hash = 'details'`) // a hash: not a page
    await call(`history.pushState({}, '', '/app/projects/7?tab=files'); document.title = 'Project 7'`)
    await call(`history.replaceState({}, '', '/app/projects/7?tab=members'); document.title = 'Members'`)
    await page.goBack() // popstate to /app/projects#details
    const rows = await waitForEvents(fl0, puid, 5, 1000)
    const pages = rows.filter((r) => r.type == 'page').map((r) => [r.page_path + r.page_search, r.page_title, r.page_referrer.replace(site.url, '')])
    expect(pages).toEqual([
      ['/app?title=App', 'App', ''],
      ['/app/projects', 'Projects', '/app?title=App'],
      ['/app/projects/7?tab=files', 'Project 7', '/app/projects'],
      ['/app/projects/7?tab=members', 'Members', '/app/projects/7?tab=files'],
      ['/app/projects', 'Members', '/app/projects/7?tab=members'],
    ])
    expect(rows.length).toBe(5)
    expect(batches.flatMap((b) => b.body.batch).length).toBe(5)
    await showStored(page, rows)
    await page.screenshot({ path: `${SCREENSHOTS}snippet-navigation.png` })
    await context.close()
  })

  it('sends no page views on navigation when history is off', async () => {
    await newVisitor()
    site.options = { history: false }
    await page.goto(`${site.url}/quiet`)
    await libraryLoaded(page)
    await call(`history.pushState({}, '', '/quiet/2'); analytics.track('Marker')`)
    const rows = await waitForEvents(fl0, await puidOf(page), 2, 800)
    expect(rows.map((r) => r.event || r.type)).toEqual(['page', 'Marker'])
    await context.close()
  })
})
