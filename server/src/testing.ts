import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOrganisation, createSource, type Organisation, type Source } from '@fl0/stores'
import { loadConfig } from './config.ts'
import { createLogger } from './logger.ts'
import { startFl0, type RunningFl0 } from './fl0.ts'

/**
 * A real fl0, embedded, on a fresh data directory and a free port: as after
 * `npm install && npm start` on a new machine (startEmptyFl0), or with one
 * organisation and a snippet and a Segment source already made (startTestFl0).
 * For integration and browser tests; chDB allows one per process, so start one
 * per test file.
 */
export interface EmptyTestFl0 extends RunningFl0 {
  dataDir: string
  /** Runs a ClickHouse query on the event store and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>): Promise<T[]>
  /** Waits until `sql` returns a row whose `n` reaches `count`, or throws after `timeoutMs`. */
  waitForCount(sql: string, params: Record<string, unknown>, count: number, timeoutMs?: number): Promise<number>
}

/**
 * The organisation has no member: the first account that signs up adopts it
 * (stores/src/metadata/users.ts). Browser tests of sign-up and organisation
 * creation, which need a fresh install, use startEmptyFl0.
 */
export interface TestFl0 extends EmptyTestFl0 {
  org: Organisation
  snippet: Source
  segment: Source
}

export async function startTestFl0(env: Record<string, string> = {}): Promise<TestFl0> {
  const fl0 = await startEmptyFl0(env)
  const metadata = fl0.stores.metadata!
  const org = await createOrganisation(metadata, 'Test Org')
  const snippet = await createSource(metadata, { orgId: org.id, type: 'snippet', name: 'js-snippet', url: 'example.com' })
  const segment = await createSource(metadata, { orgId: org.id, type: 'segment', name: 'segment' })
  return { ...fl0, org, snippet, segment }
}

export async function startEmptyFl0(env: Record<string, string> = {}): Promise<EmptyTestFl0> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fl0-test-'))
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', FL0_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env })
  const fl0 = await startFl0(config, createLogger(config.LOG_LEVEL))
  const query = async <T>(sql: string, params: Record<string, unknown> = {}) => {
    const result = await fl0.stores.events!.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })
    return result.json<T>()
  }
  return {
    ...fl0,
    dataDir,
    query,
    async waitForCount(sql, params, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      let n = 0
      while (Date.now() < deadline) {
        n = Number((await query<{ n: number | string }>(sql, params))[0]?.n ?? 0)
        if (n >= count) return n
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`timed out waiting for ${count} rows (have ${n}): ${sql}`)
    },
    async stop() {
      await fl0.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
