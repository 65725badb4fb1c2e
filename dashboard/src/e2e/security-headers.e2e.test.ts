import { generateKeyPairSync } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startDemoFl0, type DemoFl0 } from './demoFl0.ts'
import { fillSignUp, followConfirmation, launchChromium, openPage, runBrowserTests, screenshot, watchPolicyViolations } from './harness.ts'
import { startParagonStandIn, type ParagonStandIn } from './paragonStandIn.ts'

/**
 * The dashboard under its Content-Security-Policy, in Chromium, against a
 * real fl0 filled with demo data, with its third parties configured: a logo
 * service (FL0_LOGO_URL) and Paragon (its stand-in, paragonStandIn.ts). Every
 * screen opened here must load without one violation of the policy
 * (watchPolicyViolations; oidc.e2e.test.ts checks sign-in through an external
 * provider the same way). Then a page of another origin (another port of the
 * same host: same site) tries to frame fl0, and is refused.
 */
const PROJECT = '0b5a8c1e-7d3f-4e2a-9c61-5f0e3d2a1b47'
const projectKeys = generateKeyPairSync('rsa', { modulusLength: 2048 })
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="12" fill="#0f766e"/></svg>'

/** A small HTTP server on 127.0.0.1 answering `route`, for the logo service and the framing page. */
async function startServer(route: (path: string) => { type: string; body: string } | undefined): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? '')
    const answer = route(req.url ?? '/')
    if (!answer) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    res.writeHead(200, { 'content-type': answer.type }).end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

describe.skipIf(!runBrowserTests)('security headers, in Chromium', () => {
  let fl0: DemoFl0
  let paragon: ParagonStandIn
  let logos: Awaited<ReturnType<typeof startServer>>
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let errors: string[]
  /** Each violation, with the address of the page it happened on. */
  let violations: string[]
  const org = (path = '') => `${fl0.url}/organizations/demo${path}`

  beforeAll(async () => {
    paragon = await startParagonStandIn(projectKeys.publicKey)
    logos = await startServer((path) => (path.startsWith('/logo/') ? { type: 'image/svg+xml', body: LOGO_SVG } : undefined))
    const env = {
      FL0_LOGO_URL: `${logos.url}/logo/{domain}`,
      PARAGON_PROJECT_ID: PROJECT,
      PARAGON_SIGNING_KEY: projectKeys.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
      PARAGON_SDK_URL: paragon.sdkUrl,
    }
    ;[fl0, browser] = await Promise.all([startDemoFl0(undefined, env), launchChromium()])
    ;({ context, page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } }))
    violations = await watchPolicyViolations(page)
  })
  afterAll(async () => {
    await browser?.close()
    await fl0?.stop()
    await paragon?.close()
    await new Promise((resolve) => logos?.server.close(resolve))
  })

  /** Opens a screen by its address, waits for its heading and for its requests to settle. */
  async function open(url: string, heading?: string | RegExp) {
    await page.goto(url)
    await page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) }).first().waitFor()
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})
  }

  it('serves an index.html with no inline script, under a policy that needs no unsafe-inline', async () => {
    const res = await fetch(fl0.url + '/')
    const html = await res.text()
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/)
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
    expect(html).not.toMatch(/\sstyle=/)
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain(`script-src 'self' ${paragon.sdkUrl}`)
    expect(csp).toContain(`img-src 'self' data: ${logos.url} ${paragon.url}`)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })

  it("sends the API's headers, and leaves the ingest and the snippet theirs", async () => {
    const api = await fetch(fl0.url + '/api/users/me')
    expect(api.status).toBe(401)
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
    const snippet = await fetch(fl0.url + '/fl0.js')
    const pixel = await fetch(fl0.url + '/i/callback?puid=p1&hem=h1')
    const batch = await fetch(fl0.url + '/v1/batch', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    expect(snippet.headers.get('access-control-allow-origin')).toBe('*')
    expect(batch.headers.get('access-control-allow-origin')).toBe('*')
    expect(pixel.headers.get('content-type')).toBe('image/gif')
    for (const res of [snippet, pixel, batch]) {
      expect(res.headers.get('content-security-policy'), res.url).toBeNull()
      expect(res.headers.get('x-frame-options'), res.url).toBeNull()
    }
  })

  it('signs up, confirms the address, and opens the people, a company with its logo and charts, and the other screens, without a violation', async () => {
    await open(fl0.url + '/account/sign-up', 'Create your account')
    await fillSignUp(page, 'Ada Lovelace', 'ada@example.com')
    await followConfirmation(page, fl0.url, await fl0.mailedLink('ada@example.com', 'verify-email'))
    // The organisation's home (screens/home), then the people.
    await page.waitForURL(/\/organizations\/demo$/)
    await page.getByRole('region', { name: 'Top pages' }).waitFor()
    await open(org('/people'), 'People')
    await page.getByRole('table').first().waitFor()
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})

    // A company of the demo that fl0 knows (some event names it), on its page: the logo and the chart.
    let company = ''
    for (const c of fl0.demo.world.companies) {
      if ((await page.request.get(`${fl0.url}/api-v2/orgs/demo/companies/${c.domain}`)).ok()) {
        company = c.domain
        break
      }
    }
    expect(company).not.toBe('')
    await open(org(`/companies/${company}`))
    const logo = page.getByRole('img', { name: / logo$/ })
    await logo.waitFor()
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
    expect(logos.hits).toContain(`/logo/${company}`)
    await page.locator('.uplot canvas').first().waitFor()
    await open(org(`/companies/${company}/analytics`))
    await page.locator('.uplot canvas').first().waitFor()
    await screenshot(page, 'security-headers-01-company')

    for (const path of ['/people/audiences', '/data-sources', '/metrics', '/reports', '/features', '/connections', '/lexicon', '/scoring', '/settings']) {
      await open(org(path))
    }
    await open(fl0.url + '/admin')
    await open(fl0.url + '/admin/summary')
    expect(violations).toEqual([])
  })

  it("opens the integrations with Paragon's SDK and a Connect Portal, without a violation", async () => {
    await open(org('/integrations'), 'Integrations')
    const list = page.getByRole('list', { name: 'Integrations' })
    await list.waitFor()
    await expect.poll(() => list.getByRole('img').evaluateAll((imgs: HTMLImageElement[]) => imgs.every((i) => i.complete && i.naturalWidth > 0))).toBe(true)
    await list.getByRole('button', { name: /Salesforce/ }).click()
    await page.getByRole('dialog', { name: 'Connect Portal' }).waitFor()
    await screenshot(page, 'security-headers-02-integrations')
    expect(paragon.hits).toContain('GET /sdk/index.js')
    expect(violations).toEqual([])
    expect(errors).toEqual([])
  })

  it('cannot be framed by a page of another origin, the sign-in callback included', async () => {
    const framing = await startServer((path) => {
      if (path === '/own') return { type: 'text/html', body: '<p id="own">a frame of its own</p>' }
      if (path !== '/') return undefined
      const frames = ['/organizations/demo/people', '/account/sign-in', '/account/callback', '/api/users/me']
      return {
        type: 'text/html',
        body: `<!doctype html><iframe id="own" src="/own"></iframe>${frames.map((p, i) => `<iframe id="fl0-${i}" src="${fl0.url}${p}"></iframe>`).join('')}`,
      }
    })
    try {
      const refused: string[] = []
      const other = await context.newPage()
      // Chromium: "Framing '<the framing page>' violates the following Content Security Policy directive: "frame-ancestors 'none'". …"
      other.on('console', (m) => /violates the following Content Security Policy directive: "frame-ancestors/.test(m.text()) && refused.push(m.text()))
      await other.goto(framing.url + '/')
      await other.waitForLoadState('load')
      // The control: the page's own frame loads.
      expect(await other.frameLocator('#own').locator('#own').textContent()).toBe('a frame of its own')
      for (let i = 0; i < 4; i++) {
        const frame = await (await other.$(`#fl0-${i}`))!.contentFrame()
        // Chromium puts its error page in place of a refused frame: nothing of fl0 is in it.
        expect(frame?.url(), `frame ${i}`).not.toContain(fl0.url)
        expect(await frame?.locator('#root').count(), `frame ${i}`).toBe(0)
      }
      await expect.poll(() => refused.length).toBe(4)
      expect(refused.join('\n')).toContain("frame-ancestors 'none'")
      expect(refused.join('\n')).toContain("frame-ancestors 'self'")
      await other.close()
    } finally {
      await new Promise((resolve) => framing.server.close(resolve))
    }
  })
})
