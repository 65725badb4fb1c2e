import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadConfig } from '../server/src/config.ts'

/**
 * docker-compose.yml, checked without a Docker engine (none runs on the
 * project's machines). A Compose implementation validates the file
 * (`config --quiet`) and prints it normalised, interpolated with the defaults;
 * the checks below then read that: the services, their health checks and
 * volumes, and the environment each fl0 role gets, run through fl0's own
 * configuration schema.
 *
 * The implementation is Docker's compose plugin (`docker compose`) when
 * installed, else the standalone `docker-compose` (Debian's package, which
 * .ci/run installs: Debian has no compose plugin). Without either, the file is
 * parsed here with the yaml package; in CI (CI set) that is a failure.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const composeFile = join(root, 'docker-compose.yml')

/** Variables the file reads: unset, so that its defaults are what is checked. */
const SETTINGS = ['FL0_PORT', 'FL0_PUBLIC_URL', 'POSTGRES_PASSWORD', 'CLICKHOUSE_PASSWORD', 'KAFKA_PARTITIONS', 'KAFKA_HEAP', 'LOG_LEVEL']
const composeEnv = (() => {
  const env = { ...process.env }
  for (const name of [...SETTINGS, 'COMPOSE_FILE', 'COMPOSE_PROJECT_NAME', 'COMPOSE_PROFILES']) delete env[name]
  return env
})()

interface ComposeCli {
  name: string
  run(args: string[], file?: string): ReturnType<typeof spawnSync>
}

function findCompose(): ComposeCli | undefined {
  const candidates: Array<[string, string, string[]]> = [
    ['docker compose', 'docker', ['compose']],
    ['docker-compose', 'docker-compose', []],
  ]
  for (const [name, cmd, prefix] of candidates) {
    const probe = spawnSync(cmd, [...prefix, 'version'], { encoding: 'utf8' })
    if (probe.status !== 0) continue
    return {
      name,
      run: (args, file = composeFile) =>
        spawnSync(cmd, [...prefix, '-f', file, '--project-directory', root, ...args], { encoding: 'utf8', env: composeEnv, cwd: root }),
    }
  }
  return undefined
}

const compose = findCompose()

type Env = Record<string, string>
interface Service {
  image?: string
  build?: string | { context?: string; dockerfile?: string }
  command?: string | string[]
  environment?: Record<string, unknown> | string[]
  healthcheck?: { test?: string | string[]; disable?: boolean }
  depends_on?: string[] | Record<string, { condition?: string }>
  volumes?: Array<string | { type?: string; source?: string; target?: string }>
  ports?: Array<string | number | { target?: number | string; published?: number | string }>
}
interface Model {
  services: Record<string, Service>
  volumes?: Record<string, unknown>
}

/** `${VAR:-default}` with every VAR unset, and `$$`: what Compose does with composeEnv. */
function interpolateDefaults(text: string): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (m, _name, fallback) => (m === '$$' ? '$' : (fallback ?? '')))
}

/** The file as a Compose implementation reads it. */
function loadModel(): Model {
  if (compose?.name === 'docker compose') {
    const out = compose.run(['config', '--format', 'json'])
    if (out.status !== 0) throw new Error(`docker compose config failed:\n${out.stderr}`)
    return JSON.parse(String(out.stdout)) as Model
  }
  if (compose) {
    const out = compose.run(['config'])
    if (out.status !== 0) throw new Error(`docker-compose config failed:\n${out.stderr}`)
    return parse(String(out.stdout)) as Model
  }
  return parse(interpolateDefaults(readFileSync(composeFile, 'utf8')), { merge: true }) as Model
}

const envOf = (s: Service): Env => {
  if (Array.isArray(s.environment)) {
    return Object.fromEntries(s.environment.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))
  }
  return Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v == null ? '' : String(v)]))
}
const dependsOn = (s: Service): Record<string, string | undefined> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((name) => [name, undefined]))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([name, d]) => [name, d?.condition]))
const mounts = (s: Service): Array<{ source: string; target: string }> =>
  (s.volumes ?? []).map((v) => {
    if (typeof v === 'string') {
      const [source, target] = v.split(':')
      return { source, target }
    }
    return { source: v.source ?? '', target: v.target ?? '' }
  })
const publishedPorts = (s: Service): Array<{ published: string; target: string }> =>
  (s.ports ?? []).map((p) => {
    if (typeof p === 'object') return { published: String(p.published ?? ''), target: String(p.target ?? '') }
    const parts = String(p).replace(/\/(tcp|udp)$/, '').split(':')
    return { published: parts.length > 1 ? parts[parts.length - 2] : '', target: parts[parts.length - 1] }
  })
const healthTest = (s: Service): string => {
  const h = s.healthcheck
  if (!h || h.disable || !h.test) return ''
  const test = Array.isArray(h.test) ? h.test : ['CMD-SHELL', h.test]
  return test[0] === 'NONE' ? '' : test.join(' ')
}
const buildContext = (s: Service): string | undefined =>
  s.build === undefined ? undefined : resolve(root, typeof s.build === 'string' ? s.build : (s.build.context ?? '.'))

const ROLES = ['ingest', 'workers', 'api'] as const
const STORES = {
  postgres: { image: 'postgres:', data: '/var/lib/postgresql/data' },
  kafka: { image: 'apache/kafka:', data: '/var/lib/kafka/data' },
  clickhouse: { image: 'clickhouse/clickhouse-server:', data: '/var/lib/clickhouse' },
} as const
/** What each role opens (server/src/stores.ts), so the variables it cannot run without. */
const NEEDS: Record<(typeof ROLES)[number], string[]> = {
  ingest: ['DATABASE_URL', 'KAFKA_BROKERS'],
  workers: ['KAFKA_BROKERS', 'CLICKHOUSE_URL', 'CLICKHOUSE_USER', 'CLICKHOUSE_PASSWORD'],
  api: ['DATABASE_URL', 'CLICKHOUSE_URL', 'CLICKHOUSE_USER', 'CLICKHOUSE_PASSWORD'],
}
const HTTP_ROLES = ['ingest', 'api'] as const

/** Everything wrong with a compose model, as sentences; empty when it is right. */
function problems(model: Model): string[] {
  const out: string[] = []
  const services = model.services ?? {}
  const declaredVolumes = Object.keys(model.volumes ?? {})

  for (const name of ['proxy', ...ROLES, ...Object.keys(STORES)]) if (!services[name]) out.push(`no service ${name}`)
  if (out.length) return out

  // The stores: the expected images, a health check, data on a named volume.
  for (const [name, store] of Object.entries(STORES)) {
    const s = services[name]
    if (!s.image?.startsWith(store.image)) out.push(`${name}: image ${s.image}, expected ${store.image}*`)
    if (!healthTest(s)) out.push(`${name}: no health check`)
    const mount = mounts(s).find((m) => m.target === store.data)
    if (!mount) out.push(`${name}: nothing mounted at ${store.data}`)
    else if (!declaredVolumes.includes(mount.source)) out.push(`${name}: ${store.data} is not on a named volume (${mount.source})`)
  }
  const pg = envOf(services.postgres)
  const kafka = envOf(services.kafka)
  const ch = envOf(services.clickhouse)
  if (!/\bbroker\b/.test(kafka.KAFKA_PROCESS_ROLES ?? '') || !/\bcontroller\b/.test(kafka.KAFKA_PROCESS_ROLES ?? '')) {
    out.push('kafka: not a combined broker+controller (KRaft)')
  }
  if (!(kafka.KAFKA_CONTROLLER_QUORUM_VOTERS ?? '').includes('@kafka:9093')) out.push('kafka: controller quorum is not this broker')
  if (Object.keys(kafka).some((k) => k.includes('ZOOKEEPER'))) out.push('kafka: ZooKeeper settings in a KRaft broker')

  for (const role of ROLES) {
    const s = services[role]
    const env = envOf(s)
    if (env.FL0_ROLES !== role) out.push(`${role}: FL0_ROLES is ${env.FL0_ROLES}`)
    for (const v of NEEDS[role]) if (!env[v]) out.push(`${role}: no ${v}`)
    // fl0's own schema accepts the role's environment.
    try {
      const config = loadConfig(env)
      if (config.FL0_ROLES.join(',') !== role) out.push(`${role}: runs ${config.FL0_ROLES.join(',')}`)
    } catch (error) {
      out.push(`${role}: ${(error as Error).message}`)
    }
    // The addresses are the stores' in this file, with their credentials.
    if (env.DATABASE_URL) {
      const url = new URL(env.DATABASE_URL)
      if (url.hostname !== 'postgres' || url.username !== pg.POSTGRES_USER || decodeURIComponent(url.password) !== pg.POSTGRES_PASSWORD || url.pathname !== `/${pg.POSTGRES_DB}`) {
        out.push(`${role}: DATABASE_URL does not match the postgres service`)
      }
    }
    if (env.KAFKA_BROKERS && !(kafka.KAFKA_ADVERTISED_LISTENERS ?? '').includes(env.KAFKA_BROKERS)) {
      out.push(`${role}: KAFKA_BROKERS ${env.KAFKA_BROKERS} is not what kafka advertises`)
    }
    if (env.CLICKHOUSE_URL) {
      const url = new URL(env.CLICKHOUSE_URL)
      if (url.hostname !== 'clickhouse' || url.port !== '8123') out.push(`${role}: CLICKHOUSE_URL is not the clickhouse service's HTTP port`)
      if (env.CLICKHOUSE_USER !== ch.CLICKHOUSE_USER || env.CLICKHOUSE_PASSWORD !== ch.CLICKHOUSE_PASSWORD) {
        out.push(`${role}: ClickHouse credentials do not match the clickhouse service`)
      }
    }
    // Every role waits for healthy stores, and is built from this repository.
    const deps = dependsOn(s)
    for (const store of Object.keys(STORES)) {
      if (deps[store] !== 'service_healthy') out.push(`${role}: does not wait for ${store} to be healthy`)
    }
    if (buildContext(s) !== resolve(root)) out.push(`${role}: not built from the repository root`)
    if (s.ports?.length) out.push(`${role}: publishes a port (it is reached through the proxy; scaling needs it unpublished)`)
  }

  // Health: /healthz on the HTTP roles; the workers serve no HTTP.
  for (const role of HTTP_ROLES) {
    const env = envOf(services[role])
    const test = healthTest(services[role])
    if (!test.includes(`:${env.PORT}/healthz`)) out.push(`${role}: health check does not ask /healthz on PORT ${env.PORT}`)
    if (!env.FL0_PUBLIC_URL) out.push(`${role}: no FL0_PUBLIC_URL`)
  }
  if (healthTest(services.workers).includes('/healthz')) out.push('workers: health check asks /healthz, which the workers role does not serve')

  // The proxy: one public port, /v1/* and /i/* to ingest, the rest to api.
  const proxy = services.proxy
  const command = Array.isArray(proxy.command) ? proxy.command.join(' ') : (proxy.command ?? '')
  if (!publishedPorts(proxy).some((p) => p.published === '8080' && p.target === '8080')) out.push('proxy: does not publish 8080')
  if (!/path \/v1\/\* \/i\/\*/.test(command) || !/dynamic a ingest 8080/.test(command)) out.push('proxy: /v1/* and /i/* do not go to ingest')
  if (!/dynamic a api 8080/.test(command)) out.push('proxy: nothing goes to api')
  for (const role of HTTP_ROLES) {
    if (dependsOn(proxy)[role] !== 'service_healthy') out.push(`proxy: does not wait for ${role} to be healthy`)
  }
  const publicUrl = envOf(services.api).FL0_PUBLIC_URL
  if (publicUrl && new URL(publicUrl).port !== '8080') out.push(`api: FL0_PUBLIC_URL ${publicUrl} is not the proxy's port`)
  return out
}

describe('docker-compose.yml', () => {
  it('is valid for a Compose implementation (config --quiet)', (ctx) => {
    if (!compose) {
      if (process.env.CI) expect.fail('neither `docker compose` nor `docker-compose` is installed (.ci/run installs Debian\'s docker-compose)')
      ctx.skip()
      return
    }
    const out = compose.run(['config', '--quiet'])
    expect(out.stderr, `${compose.name} config --quiet`).not.toMatch(/error/i)
    expect(out.status, String(out.stderr)).toBe(0)
  })

  it('the same check rejects a broken file', (ctx) => {
    if (!compose) return ctx.skip()
    const dir = mkdtempSync(join(tmpdir(), 'fl0-compose-'))
    try {
      const broken = join(dir, 'docker-compose.yml')
      writeFileSync(broken, 'services:\n  api:\n    image: fl0\n    healthcheck:\n      test: 42\n      intervall: 10s\n')
      expect(compose.run(['config', '--quiet'], broken).status).not.toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('runs the stores and the three roles, each role with the environment it needs', () => {
    const model = loadModel()
    expect(problems(model)).toEqual([])
    expect(Object.keys(model.services).sort()).toEqual(['api', 'clickhouse', 'ingest', 'kafka', 'postgres', 'proxy', 'workers'])
  })

  it('the checks catch a role without DATABASE_URL, a store without health check, a store on no volume', () => {
    const broken = structuredClone(loadModel())
    const env = broken.services.api.environment
    if (Array.isArray(env)) broken.services.api.environment = env.filter((kv) => !kv.startsWith('DATABASE_URL='))
    else delete env!.DATABASE_URL
    delete broken.services.kafka.healthcheck
    broken.services.clickhouse.volumes = []
    const found = problems(broken)
    expect(found).toContain('api: no DATABASE_URL')
    expect(found).toContain('kafka: no health check')
    expect(found).toContain('clickhouse: nothing mounted at /var/lib/clickhouse')
  })
})

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[]; scripts: Record<string, string> }

  it('copies every workspace manifest before npm ci, builds the dashboard, starts with npm start', () => {
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'))
    expect(beforeInstall.length).toBeGreaterThan(0)
    for (const ws of pkg.workspaces) expect(beforeInstall, ws).toContain(`COPY ${ws}/package.json ${ws}/`)
    expect(dockerfile).toMatch(/^RUN npm run build\b/m)
    expect(dockerfile).toMatch(/^CMD \["npm", "start"\]$/m)
    expect(pkg.scripts.start).toBeTruthy()
    expect(pkg.scripts.prestart).toContain('dashboard/build.ts')
    // npm ci under NODE_ENV=production would leave out tsx and Vite.
    expect(dockerfile.indexOf('NODE_ENV=production')).toBeGreaterThan(dockerfile.indexOf('RUN npm ci'))
    expect(existsSync(join(root, '.dockerignore'))).toBe(true)
  })
})
