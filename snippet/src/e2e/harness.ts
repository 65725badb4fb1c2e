import { existsSync, mkdirSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page, type Request } from 'playwright-core'
import { expect, it } from 'vitest'
import type { TestFl0 } from '@fl0/server/testing'
import { snippetCode, type LoadOptions } from '../snippet-code.ts'

/**
 * What the browser tests share: Debian's Chromium, a site on localhost whose
 * pages embed the loader, and reading what fl0 stored.
 */
export const CHROMIUM = '/usr/bin/chromium'

/**
 * Browser tests run where Chromium is installed; elsewhere they are skipped,
 * unless FL0_E2E=required (CI), where a missing Chromium fails them.
 */
export const runBrowserTests = existsSync(CHROMIUM) || process.env.FL0_E2E === 'required'

/** Under FL0_E2E=required, a test of its own that fails by name when Chromium is missing. */
export function requireChromiumWhenAsked() {
  it.runIf(process.env.FL0_E2E === 'required')(`finds Chromium at ${CHROMIUM} (FL0_E2E=required)`, () => {
    expect(existsSync(CHROMIUM)).toBe(true)
  })
}

/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url))

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  })
}

export interface Site {
  /** http://localhost:port */
  url: string
  port: number
  /** Load options of the pages served from now on (apiHost is always the test fl0). */
  options: Partial<LoadOptions>
  /** Script run on each page right after the loader, before fl0.js can have loaded. */
  inline: string
  close(): Promise<void>
}

/**
 * A tiny site: every path answers a page titled by its `title` query
 * parameter (or its path), with the loader in <head> and a visible log of
 * what the page did, for screenshots. Under /fl0/ it is a first-party proxy
 * to fl0, as snippet/README.md sets one up with nginx.
 */
export async function startSite(fl0: TestFl0): Promise<Site> {
  const site = { options: {} as Partial<LoadOptions>, inline: '' } as Site
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname == '/favicon.ico') return res.writeHead(404).end()
    if (url.pathname.startsWith('/fl0/')) return proxy(req, res, fl0.url + url.pathname.slice('/fl0'.length) + url.search)
    const title = url.searchParams.get('title') ?? url.pathname
    const snippet = snippetCode(fl0.snippet.write_key, { apiHost: fl0.url, flushInterval: 200, ...site.options } as LoadOptions)
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><head><meta charset="utf-8"><title>${escape(title)}</title>
${snippet}
<script>${site.inline}</script>
<style>body{font:16px system-ui,sans-serif;margin:2rem;color:#1b1f24}code{background:#eef;padding:0 .3em}li{margin:.3em 0}</style>
</head><body><h1>fl0 test site: ${escape(title)}</h1>
<p>Loader from <code>snippetCode()</code>, library from <code>${escape(site.options.cdnHost ?? site.options.apiHost ?? fl0.url)}/fl0.js</code>.</p>
<ul id="log"></ul>
<script>
analytics.ready(function () {
  var log = document.getElementById('log')
  function line(text) { var li = document.createElement('li'); li.textContent = text; log.appendChild(li) }
  line('fl0.js loaded: analytics.initialized = ' + analytics.initialized)
  line('anonymous id: ' + analytics.user().anonymousId())
  line('user id: ' + analytics.user().id())
  line('events not yet acknowledged (localStorage): ' + (JSON.parse(localStorage.getItem('fl0_queue')) || []).length)
})
</script>
</body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site.port = (server.address() as AddressInfo).port
  site.url = `http://localhost:${site.port}`
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return site
}

/** Forwards a request to fl0 with the visitor's address in X-Forwarded-For (a fixed one: every visitor here is 127.0.0.1). */
async function proxy(req: IncomingMessage, res: ServerResponse, target: string) {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const answer = await fetch(target, {
    method: req.method,
    headers: { 'Content-Type': req.headers['content-type'] ?? 'text/plain', 'User-Agent': req.headers['user-agent'] ?? '', 'X-Forwarded-For': PROXIED_VISITOR_IP },
    body: req.method == 'GET' || req.method == 'HEAD' ? undefined : Buffer.concat(chunks),
  })
  const headers: Record<string, string> = {}
  for (const name of ['content-type', 'cache-control', 'retry-after']) if (answer.headers.has(name)) headers[name] = answer.headers.get(name)!
  res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()))
}

/** The address the test proxy reports for its visitors. */
export const PROXIED_VISITOR_IP = '198.51.100.7'

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

/** Waits until fl0.js has taken over the stub. */
export const libraryLoaded = (page: Page) => page.waitForFunction(() => (window as any).analytics.initialized === true, null, { timeout: 10_000 })

/** Each batch the page sends to /v1/batch (fetch or beacon), in order, parsed. */
export function recordBatches(page: Page): Array<{ request: Request; body: any }> {
  const batches: Array<{ request: Request; body: any }> = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/v1/batch')) batches.push({ request, body: JSON.parse(request.postData() ?? '{}') })
  })
  return batches
}

export interface StoredEvent {
  type: string
  event: string
  name: string
  user_id: string
  anonymous_id: string
  group_id: string
  previous_id: string
  message_id: string
  page_url: string
  page_path: string
  page_referrer: string
  page_title: string
  page_search: string
  user_agent: string
  timestamp: string
  properties: Record<string, any>
  traits: Record<string, any>
  context: Record<string, any>
}

const COLUMNS = `type, event, name, user_id, anonymous_id, group_id, previous_id, message_id, page_url, page_path, page_referrer,
  page_title, page_search, user_agent, toString(timestamp) AS timestamp, properties, traits, context`

/** The events fl0 stored for one visitor (by puid, which survives reset), in time order. */
export async function storedEvents(fl0: TestFl0, puid: string): Promise<StoredEvent[]> {
  const rows = await fl0.query<Omit<StoredEvent, 'context'> & { context: string }>(
    `SELECT ${COLUMNS} FROM events WHERE org_id = {org:String} AND JSONExtractString(context, 'puid') = {puid:String} ORDER BY timestamp`,
    { org: fl0.org.id, puid },
  )
  // The context is stored as JSON text (clickhouse/0012_context_text.sql).
  return rows.map((r) => ({ ...r, context: JSON.parse(r.context) as Record<string, any> }))
}

/** Waits until fl0 has stored `count` events of this visitor, then gives fl0 a moment to store any extra (duplicates). */
export async function waitForEvents(fl0: TestFl0, puid: string, count: number, settleMs = 700): Promise<StoredEvent[]> {
  await fl0.waitForCount(
    `SELECT count() AS n FROM events WHERE org_id = {org:String} AND JSONExtractString(context, 'puid') = {puid:String}`,
    { org: fl0.org.id, puid },
    count,
  )
  await new Promise((r) => setTimeout(r, settleMs))
  return storedEvents(fl0, puid)
}

/**
 * Shows rows fl0 stored on the page itself, so that a screenshot shows
 * what the server received next to the page that sent it.
 */
export function showStored(page: Page, rows: StoredEvent[]) {
  const lines = rows.map((r) => [r.type, r.event || r.name, r.page_path + r.page_search, r.page_title, r.user_id || '-', r.message_id.slice(0, 8)])
  return page.evaluate((lines) => {
    const table = document.createElement('table')
    table.style.cssText = 'border-collapse:collapse;margin-top:1rem;font-size:14px'
    table.innerHTML =
      '<caption style="text-align:left;font-weight:600;padding:.4em 0">Stored by fl0 (events table)</caption>' +
      '<tr><th>type</th><th>event / name</th><th>page</th><th>title</th><th>user</th><th>message</th></tr>' +
      lines.map((l) => '<tr>' + l.map((c) => '<td></td>').join('') + '</tr>').join('')
    lines.forEach((l, i) => l.forEach((c, j) => (table.rows[i + 1].cells[j].textContent = c)))
    for (const cell of table.querySelectorAll('td,th')) (cell as HTMLElement).style.cssText = 'border:1px solid #ccd;padding:.25em .6em;text-align:left'
    document.body.appendChild(table)
  }, lines)
}

/** The visitor's puid, read from the page. */
export const puidOf = (page: Page) => page.evaluate(() => document.cookie.match(/fl0_puid=([^;]+)/)![1])
