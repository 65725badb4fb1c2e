/**
 * What storing events costs once many are stored (issue 19): a steady rate of
 * inserts into `events`, as the event writer makes them (two a second, through
 * EventStore.background.insertLines), into a copy of a data directory that
 * already holds millions of events. Reports the CPU of every thread of this
 * process by name (chDB's inserts, merges and RocksDB's compactions run on
 * threads of their own) while inserting and for a while after, and what
 * RocksDB rewrote for the duplicate check's key table (clickhouse/0008, 0015).
 *
 *   npx tsx bench/src/insert-at-scale.ts --data /tmp/fl0-bench-dashboard     # a directory dashboard-under-load.ts prepared
 *   npx tsx bench/src/insert-at-scale.ts --data DIR --keys bulk               # event_keys as before 0015, beside it
 *
 * The copy is migrated as the server migrates it, then removed. The events are
 * made before the clock starts (bench/src/events.ts through the ingest's
 * normalizeCall), each insert a copy with new message ids, so that little but
 * storing them is measured.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { eventRecordText } from '@fl0/contracts'
import { normalizeCall } from '@fl0/ingest'
import { migrateEvents, openEventStore } from '@fl0/stores'
import { insertEventLines } from '@fl0/workers'
import { batchBody } from './events.ts'

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(tmpdir(), 'fl0-bench-dashboard') },
    rate: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '30' },
    /** Seconds measured after the last insert: the merges and compactions it left. */
    settle: { type: 'string', default: '20' },
    /** memtable: event_keys as the migrations leave it; bulk: as before 0015 (EmbeddedRocksDB's default). */
    keys: { type: 'string', default: 'memtable' },
  },
})
const rate = Number(values.rate)
const duration = Number(values.duration)
const settle = Number(values.settle)
const loadLine = () => loadavg().map((l) => l.toFixed(2)).join(' ')

/** CPU ticks (1/100 s: Linux's USER_HZ) of each thread of this process by thread id, with its name at the time. */
function threadTicks(): Map<string, { name: string; ticks: number }> {
  const threads = new Map<string, { name: string; ticks: number }>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      // pid (name) state ...: the name may hold spaces and parentheses, so it ends at the last ')'.
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      threads.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]) })
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads
}

/**
 * Cores used per thread name between two readings, the busiest first. A thread
 * is counted under its name at the second reading (chDB's pool threads take
 * the name of the work in hand); one that ended in between is not counted.
 */
function coresByName(before: ReturnType<typeof threadTicks>, after: ReturnType<typeof threadTicks>, seconds: number): Array<[string, number]> {
  const byName = new Map<string, number>()
  for (const [tid, { name, ticks }] of after) byName.set(name, (byName.get(name) ?? 0) + ticks - (before.get(tid)?.ticks ?? 0))
  return [...byName].map(([name, t]): [string, number] => [name, t / 100 / seconds]).filter(([, c]) => c >= 0.005).sort((a, b) => b[1] - a[1])
}

const prepared = JSON.parse(readFileSync(join(values.data!, 'prepared.json'), 'utf8')) as { events: number }
const copy = mkdtempSync(join(tmpdir(), 'fl0-insert-at-scale-'))
process.once('SIGINT', () => {
  rmSync(copy, { recursive: true, force: true })
  process.exit(130)
})
let store: Awaited<ReturnType<typeof openEventStore>> | undefined
try {
  cpSync(join(values.data!, 'clickhouse'), join(copy, 'clickhouse'), { recursive: true })
  const opened = await openEventStore({ kind: 'chdb', path: join(copy, 'clickhouse'), database: 'fl0' })
  store = opened
  await migrateEvents(opened)
  if (values.keys === 'bulk') await opened.client.command({ query: 'ALTER TABLE event_keys MODIFY SETTING optimize_for_bulk_insert = 1' })
  const query = async <T>(sql: string) => (await (await opened.client.query({ query: sql, format: 'JSONEachRow' })).json()) as T[]
  const stored = (await query<{ n: string }>('SELECT count() AS n FROM events'))[0]!.n

  // Two inserts a second, as the event writer makes them while keeping up; into an organisation of their own.
  const perInsert = Math.round(rate / 2)
  const inserts = duration * 2
  const receivedAt = new Date()
  // One batch made ahead, each insert's copy of it with message ids of its own (a string replace, about 1 µs an
  // event of this process's CPU): the keys are new, as a site's are, without holding every event in memory.
  const template = (JSON.parse(batchBody(perInsert)) as { batch: unknown[] }).batch.map((item) => {
    const r = normalizeCall('track', item, { orgId: 'insert-at-scale', sourceId: 'src', receivedAt, ip: '81.2.3.4' })
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    return eventRecordText(r.event)
  })
  // Each a row, as the ingest puts it on the bus (event-row.ts): the organisation first, then the message id.
  const idAt = '["insert-at-scale","'
  if (!template.every((line) => line.startsWith(idAt))) throw new Error('a record that is not a row')
  const batchOf = (i: number) => template.map((line) => `${idAt}${i}-${line.slice(idAt.length)}`)
  const rocks = async () =>
    Object.fromEntries((await query<{ name: string; value: string }>("SELECT name, value FROM system.rocksdb WHERE table = 'event_keys' AND name IN ('compact.write.bytes', 'flush.write.bytes')")).map((r) => [r.name, Number(r.value)]))

  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}; Node ${process.version}`)
  console.log(`data: ${Number(stored).toLocaleString('en')} events stored (${prepared.events.toLocaleString('en')} prepared) in a copy of ${values.data}; event_keys: ${values.keys}`)
  console.log(`load average at start ${loadLine()}; ${rate.toLocaleString('en')} events/s for ${duration} s, ${perInsert.toLocaleString('en')} an insert`)

  const rocksBefore = await rocks()
  const t0 = threadTicks()
  const cpu0 = process.cpuUsage()
  const start = performance.now()
  let insertMs = 0
  let late = 0
  for (let i = 0; i < inserts; i++) {
    const began = performance.now()
    await insertEventLines(opened.background, batchOf(i), 'row')
    insertMs += performance.now() - began
    const wait = start + (i + 1) * 500 - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    else late++
  }
  const t1 = threadTicks()
  const cpu1 = process.cpuUsage(cpu0)
  const inserted = performance.now()
  await new Promise((r) => setTimeout(r, settle * 1000))
  const t2 = threadTicks()
  const cpu2 = process.cpuUsage(cpu0)
  const rocksAfter = await rocks()

  const events = perInsert * inserts
  const seconds = (inserted - start) / 1000
  console.log(
    `while inserting (${seconds.toFixed(1)} s): ${((cpu1.user + cpu1.system) / events).toFixed(1)} µs of CPU an event, every thread; ` +
      `inserts in hand ${((insertMs / (inserted - start)) * 100).toFixed(0)} % of the time${late > 0 ? `, ${late} of ${inserts} late` : ''}`,
  )
  for (const [name, cores] of coresByName(t0, t1, seconds)) console.log(`  ${name.padEnd(18)} ${cores.toFixed(3)} cores`)
  console.log(`with the ${settle} s after: ${((cpu2.user + cpu2.system) / events).toFixed(1)} µs of CPU an event`)
  for (const [name, cores] of coresByName(t1, t2, settle)) console.log(`  after: ${name.padEnd(11)} ${cores.toFixed(3)} cores`)
  const mb = (key: string) => (((rocksAfter[key] ?? 0) - (rocksBefore[key] ?? 0)) / 1e6).toFixed(1)
  console.log(`event_keys (RocksDB): ${mb('compact.write.bytes')} MB written by compactions, ${mb('flush.write.bytes')} MB by flushes`)
  console.log(`load average at the end ${loadLine()}`)
} finally {
  await store?.close()
  rmSync(copy, { recursive: true, force: true })
}
