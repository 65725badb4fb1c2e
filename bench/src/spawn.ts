import { spawn, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url))
const BASELINE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url))

/** The bench server's account (server.ts), the bench organisation's admin: the first account, so it adopts the organisation. */
export const BENCH_USER = { email: 'bench@example.com', password: 'correct horse battery' }

export interface BenchServer {
  url: string
  writeKey: string
  /** The bench organisation's id (its url code is `bench`). */
  orgId: string
  /** A source of a second organisation (fl0 only), for load that leaves the bench organisation's data as it is. */
  otherWriteKey?: string
  pid: number
  child: ChildProcess
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number
  /** Resident set size now (VmRSS), in MB. */
  rssMb(): number
  /** How many events each consumer group had still to handle, last reported (fl0 only; every 250 ms). */
  lag(): Record<string, number>
  /** The highest lag of any group reported since the last call. */
  takeMaxLag(): number
  /** CPU time the server process has used so far, every thread included, in seconds. */
  cpuSeconds(): number
  /** Signs in as BENCH_USER; the session cookie (`fl0_session=…`) for the API's calls. */
  signIn(): Promise<string>
  /** kill -9 of the server process itself (tsx runs it as its own child), resolved once it is gone. */
  kill9(): Promise<void>
  stop(): Promise<void>
}

export function startBenchServer(dataDir: string): Promise<BenchServer> {
  return startServer(SERVER, dataDir)
}

/** The bare Node floor (baseline-server.ts), started and measured as fl0 is. */
export function startBaselineServer(dataDir: string): Promise<BenchServer> {
  return startServer(BASELINE, dataDir)
}

async function startServer(script: string, dataDir: string): Promise<BenchServer> {
  // FL0_BENCH_CPU_PROF=DIR: the server writes a V8 CPU profile there when it stops (node --cpu-prof), for where its time goes.
  // FL0_BENCH_NODE_FLAGS='--trace-gc …': Node flags for the server; what they print that is not the server's own JSON goes to stderr.
  const profile = process.env.FL0_BENCH_CPU_PROF
  const flags = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...(process.env.FL0_BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [])]
  const child = flags.length > 0
    ? spawn(process.execPath, [...flags, '--import', 'tsx', script, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(TSX, [script, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const all = createInterface({ input: child.stdout! })
  const lines = new EventEmitter()
  // A flag's own output (V8 writes it through buffered stdio) can end mid-line and glue the server's next line to it: that line is taken from its '{"'.
  all.on('line', (l) => {
    const at = l.indexOf('{"')
    if (at > 0) process.stderr.write(`${l.slice(0, at)}\n`)
    if (at >= 0) lines.emit('line', l.slice(at))
    else process.stderr.write(`${l}\n`)
  })
  const line = await firstLine(child, lines)
  const info = JSON.parse(line) as { url: string; writeKey: string; orgId: string; otherWriteKey?: string; pid: number }
  let lag: Record<string, number> = {}
  let maxLag = 0
  lines.on('line', (l) => {
    lag = (JSON.parse(l) as { lag: Record<string, number> }).lag
    maxLag = Math.max(maxLag, ...Object.values(lag))
  })
  const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${info.pid}/status`, 'utf8'))![1]) / 1024
  return {
    ...info,
    child,
    peakRssMb: () => status('VmHWM'),
    cpuSeconds() {
      // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux): every thread, chDB's included.
      const stat = readFileSync(`/proc/${info.pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return (Number(fields[11]) + Number(fields[12])) / 100
    },
    rssMb: () => status('VmRSS'),
    async signIn() {
      const local = await fetch(`${info.url}/api/auth/local/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_USER) })
      const { token } = (await local.json()) as { token: string }
      const session = await fetch(`${info.url}/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
      return session.headers.getSetCookie().find((c) => c.startsWith('fl0_session='))!.split(';')[0]!
    },
    lag: () => lag,
    takeMaxLag() {
      const m = maxLag
      maxLag = Math.max(0, ...Object.values(lag))
      return m
    },
    async kill9() {
      process.kill(info.pid, 'SIGKILL')
      while (existsSync(`/proc/${info.pid}`) && !readFileSync(`/proc/${info.pid}/status`, 'utf8').includes('State:\tZ')) {
        await new Promise((r) => setTimeout(r, 20))
      }
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))
    },
    stop() {
      return new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
    },
  }
}

/** Runs the report mode on a data directory and returns what it printed. */
export async function reportOn(dataDir: string, ackedIdsFile: string) {
  const child = spawn(TSX, [SERVER, '--data-dir', dataDir, '--report', ackedIdsFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  return JSON.parse(await firstLine(child)) as { rows: number; uniqueIds: number; acknowledged: number; missing: number; missingSample: string[] }
}

function firstLine(child: ChildProcess, rl: EventEmitter = createInterface({ input: child.stdout! })): Promise<string> {
  return new Promise((resolve, reject) => {
    rl.once('line', (l) => resolve(l))
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code} before it was ready`)))
  })
}
