import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'

/**
 * What the dashboard's browser tests share: Debian's Chromium, screenshots,
 * and the steps every test takes (signing up, reading the page's state).
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

/** Fails the test on any uncaught error in the page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return errors
}

export const PASSWORD = 'correct horse battery'

/** Signs up through the built-in provider's screen, from a page already on /account/sign-up. */
export async function fillSignUp(page: Page, name: string, email: string) {
  await page.getByLabel('Name').fill(name)
  const emailField = page.getByLabel('Email')
  if (!(await emailField.inputValue())) await emailField.fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign up' }).click()
}

export const menu = (page: Page) => page.getByRole('complementary', { name: 'Main menu' })
