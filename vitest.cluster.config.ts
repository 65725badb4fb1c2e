import { defineConfig } from 'vitest/config'

/**
 * `npm run test:cluster`: the tests that need real Kafka and PostgreSQL
 * (*.cluster.test.ts). scripts/cluster/test.sh starts both engines, exports
 * KAFKA_BROKERS and DATABASE_URL, and runs this config.
 *
 * Timeouts are generous because a Kafka consumer group takes seconds to form,
 * and a test that kills a consumer waits for its session to expire. Two files
 * at a time, not more: the broker, the server and the tests share two cores.
 */
export default defineConfig({
  test: {
    include: ['**/*.cluster.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'dashboard/**'],
    pool: 'forks',
    globalSetup: ['scripts/test-tmpdir.ts'],
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
