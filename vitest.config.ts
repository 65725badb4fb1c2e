import { defineConfig } from 'vitest/config'

/**
 * One `npm test` for the whole repository. Each test file runs in its own
 * process (forks), because chDB holds one data directory per process.
 * *.cluster.test.ts need Kafka and PostgreSQL and run under `npm run test:cluster`.
 */
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.cluster.test.ts', 'dashboard/**'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
