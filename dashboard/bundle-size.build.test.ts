import { describe, expect, it } from 'vitest'
import { dashboardDist } from './build.ts'
import { FIRST_LOAD_BUDGET, firstLoadSize } from './bundle-size.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Runs after the global setup's build (vitest.e2e.config.ts). */
describe('the production build', () => {
  it('keeps the first load within 200 KB gzipped, with screens in lazily loaded chunks', () => {
    const size = firstLoadSize(dashboardDist)
    expect(size.gzip).toBeLessThanOrEqual(FIRST_LOAD_BUDGET)
    expect(size.lazy).toBeGreaterThanOrEqual(5)
    // Screens are not in the first load.
    expect(size.files.map((f) => f.file).join(' ')).not.toMatch(/SettingsPage|SignIn|AcceptInvitation|AdminLayout/)
  })

  it("is React's production build", () => {
    const size = firstLoadSize(dashboardDist)
    const js = size.files.filter((f) => f.file.endsWith('.js')).map((f) => readFileSync(join(dashboardDist, f.file), 'utf8')).join('\n')
    expect(js.includes('jsxDEV'), 'jsxDEV in the first load').toBe(false)
  })
})
