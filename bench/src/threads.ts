/**
 * Where a running process's CPU goes, thread by thread: each thread's user and
 * system time from /proc/PID/task over a window (Linux only). For the embedded
 * server under load (issue 19): the main thread, V8's helper threads (the
 * garbage collector), libuv's pool (chDB's calls and the fsyncs) and chDB's
 * own pools, as fractions of a core.
 *
 *   npx tsx bench/src/threads.ts --match bench/src/server.ts --delay 12 --window 20 &
 *   npx tsx bench/src/ingest.ts batch --rate 15000 --duration 40 --no-baseline
 *
 * It waits for a process whose command line holds --match, waits --delay
 * seconds (the load's warm-up), then measures for --window seconds.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { match: { type: 'string', default: 'bench/src/server.ts' }, delay: { type: 'string', default: '10' }, window: { type: 'string', default: '20' } } })
const windowSeconds = Number(values.window)

function findPid(): string | undefined {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || pid === String(process.pid)) continue
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (cmd.startsWith(process.execPath) && cmd.includes(values.match!) && !cmd.includes('threads.ts')) return pid
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}

/** Each thread's name and its user and system clock ticks so far. */
function snapshot(pid: string): Map<string, { name: string; user: number; system: number }> {
  const threads = new Map<string, { name: string; user: number; system: number }>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const name = tid === pid ? 'main thread' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      threads.set(tid, { name, user: Number(fields[11]), system: Number(fields[12]) })
    } catch {
      // ended meanwhile
    }
  }
  return threads
}

let pid: string | undefined
while (!(pid = findPid())) await sleep(500)
await sleep(Number(values.delay) * 1000)
const before = snapshot(pid)
await sleep(windowSeconds * 1000)
const after = snapshot(pid)
// Clock ticks are 1/100 s on Linux.
const rows = [...after].map(([tid, t]) => {
  const b = before.get(tid) ?? { user: 0, system: 0 }
  return { tid, name: t.name, user: (t.user - b.user) / 100 / windowSeconds, system: (t.system - b.system) / 100 / windowSeconds }
})
const busy = rows.filter((r) => r.user + r.system > 0).sort((a, b) => b.user + b.system - (a.user + a.system))
const total = busy.reduce((n, r) => n + r.user + r.system, 0)
console.log(`process ${pid}, ${windowSeconds} s: ${total.toFixed(2)} cores in all`)
for (const r of busy) console.log(`${r.tid.padStart(8)}  ${r.name.padEnd(16)} user ${r.user.toFixed(3)}  system ${r.system.toFixed(3)} of a core`)
