import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

/**
 * Component tests: React in jsdom with Testing Library. Browser tests
 * (*.e2e.test.ts) have their own config, vitest.e2e.config.ts. The root
 * `npm test` runs both as projects of one run.
 */
export default defineConfig({
  plugins: [react()],
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'dashboard',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.e2e.test.ts', '*.build.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 20_000,
  },
})
