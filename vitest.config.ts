import { defineConfig } from 'vitest/config'

/**
 * One `npm test` for the whole repository, as three projects of one run: the
 * server-side packages; the dashboard's component tests (jsdom); and its
 * browser tests. Each server-side test file runs in its own process (forks),
 * because chDB holds one data directory per process.
 * *.cluster.test.ts need Kafka and PostgreSQL and run under `npm run test:cluster`.
 */
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'fl0',
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.cluster.test.ts', 'dashboard/**'],
          pool: 'forks',
          globalSetup: ['scripts/test-tmpdir.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      'dashboard/vitest.config.ts',
      'dashboard/vitest.e2e.config.ts',
    ],
  },
})
