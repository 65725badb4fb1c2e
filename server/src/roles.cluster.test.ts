import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Analytics } from '@segment/analytics-node'
import { Kafka, logLevel } from 'kafkajs'
import { createOrganisation, createSource, migrateMetadata, openEventStore, openPostgres, type EventStore, type Source } from '@fl0/stores'
import { startChdbHttp, type ChdbHttpServer } from '@fl0/stores/events/chdb-http'

/**
 * The cluster path end to end, each role its own process as in production:
 * one `ingest`, two `workers` and one `api`, beside a real Kafka broker and a real
 * PostgreSQL (started by scripts/cluster/test.sh), sharing one ClickHouse
 * engine (chDB, served over ClickHouse's HTTP interface, since no ClickHouse
 * server can run here). Events go in through @segment/analytics-node; one
 * worker is killed (SIGKILL, no goodbye to the group) mid-stream and started
 * again; every event must end up stored exactly once, and the api role,
 * signed in to over HTTP, must count them all from the shared stores.
 */
const KAFKA_BROKERS = process.env.KAFKA_BROKERS
const DATABASE_URL = process.env.DATABASE_URL
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/esm/index.mjs', import.meta.url))

const TOTAL = 12_000
const USERS = 400

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value) return value
    } catch (error) {
      lastError = error
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`)
}

describe.runIf(KAFKA_BROKERS && DATABASE_URL)('the roles apart: ingest and two workers on Kafka, PostgreSQL and one ClickHouse', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'fl0-roles-'))
  const children = new Set<ChildProcess>()
  let clickhouse: ChdbHttpServer
  let store: EventStore
  let source: Source
  let orgId: string
  let ingestUrl: string
  let apiUrl: string
  let urlCode: string
  let env: Record<string, string>
  let workerA: ChildProcess

  /** Starts `npm start`'s entry point with these roles; its log goes to a file in runDir. */
  function startRole(name: string, roles: string, extra: Record<string, string> = {}): ChildProcess {
    const log = createWriteStream(join(runDir, `${name}.log`), { flags: 'a' })
    const child = spawn(process.execPath, ['--import', TSX, MAIN], {
      env: { ...process.env, ...env, FL0_ROLES: roles, FL0_DATA_DIR: join(runDir, name), ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout!.pipe(log)
    child.stderr!.pipe(log)
    children.add(child)
    child.once('exit', () => children.delete(child))
    return child
  }

  function kill9(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  }

  async function stored(): Promise<{ rows: number; unique: number }> {
    const result = await store.client.query({
      query: 'SELECT count() AS rows, uniqExact(message_id) AS unique FROM events WHERE org_id = {org:String}',
      query_params: { org: orgId },
      format: 'JSONEachRow',
    })
    const [row] = await result.json<{ rows: string | number; unique: string | number }>()
    return { rows: Number(row!.rows), unique: Number(row!.unique) }
  }

  beforeAll(async () => {
    // A database of its own on the shared PostgreSQL, and one on the shared engine.
    const database = `roles_${process.pid}_${Date.now()}`
    const admin = await openPostgres(DATABASE_URL!)
    await admin.query(`CREATE DATABASE ${database}`)
    await admin.close()
    const url = new URL(DATABASE_URL!)
    url.pathname = `/${database}`
    const metadata = await openPostgres(url.toString())
    await migrateMetadata(metadata)
    const org = await createOrganisation(metadata, 'Roles Apart')
    orgId = org.id
    urlCode = org.url_code
    source = await createSource(metadata, { orgId, type: 'segment', name: 'segment' })
    await metadata.close()

    clickhouse = await startChdbHttp({ path: join(runDir, 'clickhouse') })
    store = await openEventStore({ kind: 'http', url: clickhouse.url, database })

    const port = await freePort()
    const apiPort = await freePort()
    ingestUrl = `http://127.0.0.1:${port}`
    apiUrl = `http://127.0.0.1:${apiPort}`
    env = {
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: KAFKA_BROKERS!,
      // The broker's minimum: a killed worker's partitions move to the other after 6 s.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CLICKHOUSE_URL: clickhouse.url,
      CLICKHOUSE_DATABASE: database,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
    }
    startRole('ingest', 'ingest', { PORT: String(port) })
    startRole('api', 'api', { PORT: String(apiPort), FL0_PUBLIC_URL: apiUrl })
    workerA = startRole('worker-a', 'workers')
    startRole('worker-b', 'workers')
    await waitFor('the ingest role to answer', async () => (await fetch(`${ingestUrl}/healthz`)).ok, 60_000)
    await waitFor('the api role to answer', async () => (await fetch(`${apiUrl}/healthz`)).ok, 60_000)
  })

  afterAll(async () => {
    await Promise.all([...children].map(kill9))
    await store?.close()
    await clickhouse?.close()
    rmSync(runDir, { recursive: true, force: true })
  })

  it('stores every event once, though a worker is killed mid-stream and restarted', async () => {
    // On failure, the roles' own logs say why.
    onTestFailed(() => {
      for (const file of readdirSync(runDir).filter((f) => f.endsWith('.log'))) {
        const lines = readFileSync(join(runDir, file), 'utf8').trim().split('\n')
        console.error(`--- ${file} (last 30 lines)\n${lines.slice(-30).join('\n')}`)
      }
    })
    const analytics = new Analytics({ writeKey: source.write_key, host: ingestUrl, path: '/v1/batch', flushAt: 200, flushInterval: 50, maxRetries: 10 })
    const errors: unknown[] = []
    analytics.on('error', (e) => errors.push(e))

    // Both workers must be in the group, with partitions, before one is killed.
    const kafka = new Kafka({ brokers: KAFKA_BROKERS!.split(','), logLevel: logLevel.NOTHING })
    const admin = kafka.admin()
    await admin.connect()
    const send = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        analytics.track({ userId: `user-${i % USERS}`, event: 'Roles Apart', properties: { i }, messageId: `roles-${i}` })
      }
    }

    send(0, TOTAL / 3)
    await waitFor(
      'both workers to hold partitions of the events topic',
      async () => {
        const { groups } = await admin.describeGroups(['event-writer'])
        const members = groups[0]?.members ?? []
        return groups[0]?.state === 'Stable' && members.length === 2
      },
      60_000,
    )
    await waitFor('the first third to be stored', async () => (await stored()).unique >= TOTAL / 3, 60_000)

    // Mid-stream: while the second third is being written, worker A dies without leaving the group.
    send(TOTAL / 3, (2 * TOTAL) / 3)
    await waitFor('the second third to be flowing', async () => (await stored()).unique >= TOTAL / 3 + 500, 60_000)
    await kill9(workerA)
    send((2 * TOTAL) / 3, TOTAL)
    await analytics.closeAndFlush()
    expect(errors).toEqual([])

    // Worker B takes over A's partitions once A's session expires, from A's last committed offsets.
    const done = await waitFor(
      `all ${TOTAL} events stored by the surviving worker`,
      async () => {
        const s = await stored()
        return s.unique >= TOTAL ? s : undefined
      },
      120_000,
    )

    // A comes back and rejoins the group.
    startRole('worker-a', 'workers')
    await waitFor(
      'the restarted worker to rejoin the group',
      async () => {
        const { groups } = await admin.describeGroups(['event-writer'])
        return groups[0]?.state === 'Stable' && groups[0].members.length === 2
      },
      60_000,
    )
    // Let the group settle (the restarted worker joins, partitions move back) and
    // look again: a redelivered batch must not have added a second copy.
    await waitFor(
      'the event writer group to have committed every offset',
      async () => {
        const [topicOffsets, groupOffsets] = await Promise.all([admin.fetchTopicOffsets('events'), admin.fetchOffsets({ groupId: 'event-writer', topics: ['events'] })])
        const ends = new Map(topicOffsets.map((p) => [p.partition, Number(p.high)]))
        return groupOffsets[0]!.partitions.every((p) => Number(p.offset) >= (ends.get(p.partition) ?? 0))
      },
      60_000,
    )
    await admin.disconnect()
    const after = await stored()
    expect(done.unique).toBe(TOTAL)
    expect(after).toEqual({ rows: TOTAL, unique: TOTAL })
  })

  it('the api role, apart, reads the same stores: the source counts every event', async () => {
    // The first account to sign up adopts the organisation, which has no member yet.
    const signUp = await fetch(`${apiUrl}/api/auth/local/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Operator', email: 'operator@example.com', password: 'correct horse battery' }),
    })
    expect(signUp.status).toBe(202)
    // No SMTP server: the api process writes the confirmation link to its log.
    const link = await waitFor('the confirmation link in the api log', async () => /"link":"([^"]+verify-email[^"]+)"/.exec(readFileSync(join(runDir, 'api.log'), 'utf8'))?.[1], 20_000)
    const confirmed = await fetch(`${apiUrl}/api/auth/local/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(link).searchParams.get('token'), password: 'correct horse battery' }),
    })
    expect(confirmed.status).toBe(201)
    const signIn = await fetch(`${apiUrl}/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await confirmed.text() })
    expect(signIn.status).toBe(200)
    const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith('fl0_session='))!.split(';')[0]!
    const res = await fetch(`${apiUrl}/api/orgs/${urlCode}/sources/${source.id}/metrics`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const metrics = (await res.json()) as { total: number; unique_users: number; total_30d: Array<{ date: string; value: number }> }
    expect(metrics.total).toBe(TOTAL)
    expect(metrics.unique_users).toBe(USERS)
    expect(metrics.total_30d.reduce((sum, d) => sum + d.value, 0)).toBe(TOTAL)
  })
})
