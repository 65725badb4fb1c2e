import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core'

/**
 * What the dashboard's browser tests share: Debian's Chromium, screenshots,
 * and the steps every test takes (opening a page, signing up, creating an
 * organisation, reading the page's state).
 */
export const CHROMIUM = '/usr/bin/chromium'

/** Skipped where Chromium is missing, unless FL0_E2E=required (CI), where that fails them. */
export const runBrowserTests = existsSync(CHROMIUM) || process.env.FL0_E2E === 'required'

/** Where screenshots go (git-ignored): dashboard/test-results/. */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/', import.meta.url))

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true })
}

/** The two sizes every screen is checked at (issue 22). */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const

/** A screenshot at each of SIZES (`{name}-{width}x{height}`), then the page back at `restore` when given. */
export async function shotAtSizes(page: Page, name: string, restore?: { width: number; height: number }) {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await screenshot(page, `${name}-${size.width}x${size.height}`)
  }
  if (restore) await page.setViewportSize(restore)
}

/** Fails the test on any uncaught error in the page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

export interface OpenedPage {
  context: BrowserContext
  page: Page
  /** The page's uncaught errors, for a test to expect none. */
  errors: string[]
}

/**
 * Collects the page's Content-Security-Policy violations (server/src/csp.ts),
 * in every frame: Chromium's console message for each ('Refused to …') and
 * the securitypolicyviolation event, reported by a listener added before any
 * script of the page runs. A test expects none.
 */
export async function watchPolicyViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI || "'inline'"}`))
  })
  page.on('console', (m) => {
    if (/Refused to|Content Security Policy|securitypolicyviolation/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`)
  })
  return violations
}

/** A page in a context of its own (cookies, storage), its uncaught errors collected. */
export async function openPage(browser: Browser, options: BrowserContextOptions): Promise<OpenedPage> {
  const context = await browser.newContext(options)
  const page = await context.newPage()
  return { context, page, errors: watchErrors(page) }
}

export const PASSWORD = 'correct horse battery'

/** A running fl0 as the browser tests reach it: its address, and the links it logs when no mail server is set (server/src/testing.ts). */
export interface Fl0Site {
  url: string
  mailedLink(email: string, kind: string): Promise<string>
}

/**
 * Signs up through the built-in provider's screen, from a page already on
 * /account/sign-up, and waits for the screen that asks to follow the e-mailed link.
 */
export async function fillSignUp(page: Page, name: string, email: string) {
  await page.getByLabel('Name').fill(name)
  const emailField = page.getByLabel('Email')
  if (!(await emailField.inputValue())) await emailField.fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await page.getByRole('heading', { name: 'Check your email' }).waitFor()
}

/**
 * Follows a confirmation link, as its owner would from the e-mail, and
 * confirms it with the password chosen at sign-up, in this page (so that
 * where to go after signing in, kept in the tab, is kept). `link` is the
 * e-mailed address; it is opened on `fl0Url` (the tests reach fl0 at
 * 127.0.0.1, its links name localhost).
 */
export async function followConfirmation(page: Page, fl0Url: string, link: string) {
  const { pathname, search } = new URL(link)
  await page.goto(fl0Url + pathname + search)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Confirm and sign in' }).click()
}

/** Opens fl0's /account/sign-up, signs up there, and follows the confirmation link fl0 logged. */
export async function signUp(page: Page, fl0: Fl0Site, name: string, email: string) {
  await page.goto(fl0.url + '/account/sign-up')
  await fillSignUp(page, name, email)
  await followConfirmation(page, fl0.url, await fl0.mailedLink(email, 'verify-email'))
}

/**
 * Creates an organisation through the form an account without one is shown;
 * it lands on the organisation's home (screens/home); returns its url code
 * once its People page, where the tests start, is open.
 */
export async function createOrganisation(page: Page, name: string): Promise<string> {
  await page.getByLabel('Organization name').fill(name)
  await page.getByRole('button', { name: 'Create organization' }).click()
  await page.waitForURL(/\/organizations\/[^/]+$/)
  const code = new URL(page.url()).pathname.split('/')[2]!
  await page.getByRole('heading', { name: 'This week', level: 1 }).waitFor()
  await page.goto(new URL(`/organizations/${code}/people`, page.url()).href)
  await page.getByRole('heading', { name: 'People', level: 1 }).waitFor()
  return code
}

export const menu = (page: Page) => page.getByRole('complementary', { name: 'Main menu' })

/** Whether two boxes (Playwright's boundingBox) share any area. */
export function overlaps(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}
