import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { CHROMIUM } from '@fl0/snippet/e2e/harness'

/**
 * What the analytics.js 2.0 browser test needs: Debian's Chromium that can
 * reach nothing but this machine, Segment's npm package bundled for a page,
 * a site on another origin than fl0, and a record of every request the page
 * made with fl0's answer (CORS preflights included).
 */
/** Where Chromium is, when browser tests run, and the test that fails by name without it: the snippet's. */
export { CHROMIUM, requireChromiumWhenAsked, runBrowserTests } from '@fl0/snippet/e2e/harness'

/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url))

/** The hosts the page may reach: the test site and fl0. */
export const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost'])

/**
 * No request interception here: with any page.route or context.route,
 * Playwright answers every CORS preflight itself (204, allowing whatever was
 * asked), which would hide fl0's own CORS answers. Names other than
 * localhost resolve to nothing instead, and every request is recorded
 * (recordTraffic), so that a request to Segment's CDN or API fails in the
 * browser and fails the test.
 */
export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  })
}

/** @segment/analytics-next from node_modules as one script that sets window.AnalyticsBrowser. */
export async function bundleAnalyticsNext(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  })
  return result.outputFiles[0].text
}

export interface Site {
  /** http://localhost:port: another origin than fl0's http://127.0.0.1:port */
  url: string
  /** Script run on the next pages, after analytics.js: where each test calls AnalyticsBrowser.load. */
  inline: string
  close(): Promise<void>
}

/**
 * A tiny site: /analytics-next.js is the bundle, and every other path a page
 * titled by its `title` query parameter that loads it and then runs
 * `site.inline`, with a visible log for screenshots.
 */
export async function startSite(bundle: string): Promise<Site> {
  const site = { inline: '' } as Site
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname == '/favicon.ico') return res.writeHead(204).end()
    if (url.pathname == '/analytics-next.js') return res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(bundle)
    const title = url.searchParams.get('title') ?? url.pathname
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><head><meta charset="utf-8"><title>${escape(title)}</title>
<script src="/analytics-next.js"></script>
<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#1b1f24}code{background:#eef;padding:0 .3em}li{margin:.3em 0}pre{background:#f6f8fa;padding:.6em;white-space:pre-wrap}</style>
</head><body><h1>analytics.js 2.0 on ${escape(url.host)}: ${escape(title)}</h1>
<p>Segment's <code>@segment/analytics-next</code> from npm, bundled with esbuild; fl0 is on another origin.</p>
<pre id="load"></pre>
<ul id="log"></ul>
<script>
window.logLine = function (text) { var li = document.createElement('li'); li.textContent = text; document.getElementById('log').appendChild(li) }
${site.inline}
document.getElementById('load').textContent = ${JSON.stringify(site.inline.trim())}
</script>
</body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site.url = `http://localhost:${(server.address() as AddressInfo).port}`
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return site
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

/** One request the page made and how it ended. */
export interface Exchange {
  method: string
  url: string
  path: string
  host: string
  /** What Chromium sent, header names in lower case. */
  headers: Record<string, string>
  body: any
  /** The answer: status, headers (lower case) and text; or why there was none. */
  status?: number
  responseHeaders?: Record<string, string>
  responseText?: string
  failure?: string
  done: boolean
}

/** A CORS preflight as Chromium sent it and fl0 answered it (seen through CDP: Playwright does not report preflights). */
export interface Preflight {
  url: string
  path: string
  requestHeaders: Record<string, string>
  status?: number
  responseHeaders?: Record<string, string>
  failure?: string
}

export interface Traffic {
  exchanges: Exchange[]
  preflights: Preflight[]
  /** Console errors and uncaught page errors. */
  errors: string[]
  /** Requests to the ingest's /v1 paths that have an answer. */
  answered(): Exchange[]
  /** Resolves once every request made so far has an answer or a failure. */
  settled(): Promise<void>
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))

/** Records every request of the page (and its CORS preflights) with its answer. */
export async function recordTraffic(context: BrowserContext, page: Page): Promise<Traffic> {
  const traffic: Traffic = {
    exchanges: [],
    preflights: [],
    errors: [],
    answered: () => traffic.exchanges.filter((e) => e.path.startsWith('/v1/') && e.status !== undefined),
    async settled() {
      await expect.poll(() => traffic.exchanges.filter((e) => !e.done).map((e) => `${e.method} ${e.url}`), { timeout: 30_000 }).toEqual([])
    },
  }
  const pending = new Map<object, Exchange>()
  context.on('request', (request) => {
    const url = new URL(request.url())
    const text = request.postData()
    let body: any = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {}
    const exchange: Exchange = { method: request.method(), url: request.url(), path: url.pathname, host: url.hostname, headers: lower(request.headers()), body, done: false }
    traffic.exchanges.push(exchange)
    pending.set(request, exchange)
    // allHeaders has what Chromium added after the page (e.g. Origin).
    request.allHeaders().then((h) => (exchange.headers = lower(h)), () => {})
  })
  context.on('requestfinished', async (request) => {
    const exchange = pending.get(request)
    if (!exchange) return
    // Nobody awaits a listener: a request that finishes as the test closes the browser (the library's telemetry,
    // sent late) must not end the run with an unhandled rejection. It is recorded as failed instead.
    try {
      const response = await request.response()
      exchange.status = response?.status()
      exchange.responseHeaders = response ? lower(await response.allHeaders()) : undefined
      exchange.responseText = await response?.text().catch(() => undefined)
      exchange.headers = lower(await request.allHeaders())
    } catch (error) {
      exchange.failure = `read after the browser closed: ${(error as Error).message}`
    }
    exchange.done = true
  })
  context.on('requestfailed', (request) => {
    const exchange = pending.get(request)
    if (!exchange) return
    exchange.failure = request.failure()?.errorText ?? 'failed'
    exchange.done = true
  })
  page.on('console', (message) => {
    if (message.type() == 'error') traffic.errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => traffic.errors.push(`pageerror: ${error.message}`))
  await watchPreflights(await context.newCDPSession(page), traffic.preflights)
  return traffic
}

async function watchPreflights(cdp: CDPSession, preflights: Preflight[]) {
  const byId = new Map<string, Preflight>()
  cdp.on('Network.requestWillBeSent', (event: any) => {
    if (event.request.method != 'OPTIONS' && event.type != 'Preflight' && event.initiator?.type != 'preflight') return
    const preflight: Preflight = { url: event.request.url, path: new URL(event.request.url).pathname, requestHeaders: lower(event.request.headers) }
    byId.set(event.requestId, preflight)
    preflights.push(preflight)
  })
  cdp.on('Network.requestWillBeSentExtraInfo', (event: any) => {
    const preflight = byId.get(event.requestId)
    if (preflight) preflight.requestHeaders = { ...preflight.requestHeaders, ...lower(event.headers) }
  })
  cdp.on('Network.responseReceived', (event: any) => {
    const preflight = byId.get(event.requestId)
    if (!preflight) return
    preflight.status = event.response.status
    preflight.responseHeaders = lower(event.response.headers)
  })
  cdp.on('Network.loadingFailed', (event: any) => {
    const preflight = byId.get(event.requestId)
    if (preflight) preflight.failure = `${event.errorText}${event.corsErrorStatus ? ` (${event.corsErrorStatus.corsError})` : ''}`
  })
  await cdp.send('Network.enable')
}

/** Fails with every request that left this machine, if any did. */
export function expectOnlyLocalRequests(traffic: Traffic) {
  expect(traffic.exchanges.filter((e) => !LOCAL_HOSTS.has(e.host)).map((e) => `${e.method} ${e.url}`)).toEqual([])
}

/** Fails with every request or preflight that got no answer, and every CORS error in the console. */
export function expectNoFailures(traffic: Traffic) {
  expect(traffic.exchanges.filter((e) => e.failure).map((e) => `${e.method} ${e.url}: ${e.failure}`)).toEqual([])
  expect(traffic.preflights.filter((p) => p.failure).map((p) => `OPTIONS ${p.url}: ${p.failure}`)).toEqual([])
  expect(traffic.errors.filter((e) => /CORS|Access-Control/i.test(e))).toEqual([])
}

/** Writes what the page sent and fl0 answered to test-results/{name}.json, to read after a run. */
export function saveTraffic(name: string, traffic: Traffic) {
  const { exchanges, preflights, errors } = traffic
  writeFileSync(`${SCREENSHOTS}${name}.json`, JSON.stringify({ exchanges, preflights, errors }, null, 2))
}
