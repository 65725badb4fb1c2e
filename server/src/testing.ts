import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOrganisation, createSource, type Organisation, type Source } from '@fl0/stores'
import { loadConfig } from './config.ts'
import { Writable } from 'node:stream'
import { pino } from 'pino'
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
  /**
   * The last link fl0 logged for `email` (no SMTP server: links are written to
   * the log, as whoever runs fl0 reads them): `kind` 'verify-email',
   * 'reset-password' or 'account-exists', or 'invitation'. Waits for it.
   */
  mailedLink(email: string, kind: string, timeoutMs?: number): Promise<string>
  /** A local account made through the API: signed up, its address confirmed by the logged link, signed in. Returns its session cookie. */
  signUp(name: string, email: string, password?: string): Promise<string>
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
  // No floor of free disk unless a test sets one (disk-full.integration.test.ts takes gigabytes of the disk meanwhile).
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', FL0_DATA_DIR: dataDir, LOG_LEVEL: 'silent', FL0_MIN_FREE_DISK_MB: '0', ...env })
  // Logged at LOG_LEVEL to stdout as usual, and at info into memory too: the links fl0 logs when no SMTP server is set are kept for mailedLink.
  const links: Array<{ email: string; kind: string; link: string }> = []
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line.includes('"link"')) continue
        const obj = JSON.parse(line) as { email?: string; kind?: string; link?: string }
        if (obj.email && obj.link) links.push({ email: obj.email, kind: obj.kind ?? '', link: obj.link })
      }
      done()
    },
  })
  const streams: pino.StreamEntry[] = [{ level: 'info', stream: capture }]
  if (config.LOG_LEVEL !== 'silent') streams.push({ level: config.LOG_LEVEL, stream: process.stdout })
  const level = config.LOG_LEVEL === 'silent' || pino.levels.values[config.LOG_LEVEL]! > pino.levels.values.info! ? 'info' : config.LOG_LEVEL
  const fl0 = await startFl0(config, pino({ level, base: { service: 'fl0' } }, pino.multistream(streams)))
  const query = async <T>(sql: string, params: Record<string, unknown> = {}) => {
    const result = await fl0.stores.events!.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })
    return result.json<T>()
  }
  const mailedLink = async (email: string, kind: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = links.findLast((l) => l.email === email.toLowerCase() && l.kind === kind)
      if (found) return found.link
      if (Date.now() > deadline) throw new Error(`no ${kind} link logged for ${email}`)
      await new Promise((r) => setTimeout(r, 50))
    }
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
    mailedLink,
    async signUp(name, email, password = 'correct horse battery') {
      const post = (path: string, body: unknown) => fetch(`${fl0.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const up = await post('/api/auth/local/sign-up', { name, email, password })
      if (up.status !== 202) throw new Error(`sign-up failed: ${up.status} ${await up.text()}`)
      const token = new URL(await mailedLink(email, 'verify-email')).searchParams.get('token')
      const confirmed = await post('/api/auth/local/verify-email', { token, password })
      if (confirmed.status !== 201) throw new Error(`confirming ${email} failed: ${confirmed.status} ${await confirmed.text()}`)
      const signIn = await post('/api/sign-in', await confirmed.json())
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`)
      return signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    },
    async stop() {
      await fl0.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
