import { defineConfig } from 'vitest/config'
import { fileURLToPath } from 'node:url'

/**
 * Browser tests: Debian's Chromium (playwright-core) against a real fl0 from
 * startTestFl0(), one per file. Each file runs in its own process, because
 * chDB holds one data directory per process. The global setup builds the
 * dashboard when dist/ is missing or older than its sources.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'dashboard-e2e',
    environment: 'node',
    include: ['src/**/*.e2e.test.ts', '*.build.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['../scripts/test-tmpdir.ts', 'src/e2e/globalSetup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
