/**
 * The universal table import at scale (issue 9): N generated rows (default
 * 1,000,000) streamed through the same code as POST
 * /api-v2/admin/universal-table/import (csv-parse on a stream, batches of
 * 5,000 checked and inserted), into chDB, twice: the second run must import
 * nothing. Reports time, rows/s and the process's peak RSS (getrusage
 * maxrss), sampled RSS and heap along the way, and the CSV's size: memory
 * that stays flat while the input grows is the point.
 *
 *   npx tsx bench/src/universal-import.ts [--rows 1000000]
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { parseArgs } from 'node:util'
import { migrateEvents, openEventStore } from '@fl0/stores'
import { importUniversalTable, Progress } from '@fl0/workers'

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } })
const total = Number(values.rows)
const HEADER = 'up_id,first_name,last_name,job_title,company_name,company_domain,linkedin_url,business_email,personal_email,employees,revenue,city,region,country\n'

/** The CSV, generated as it is read: the input itself is never in memory whole. */
function csvStream(rows: number): { stream: Readable; bytes: () => number } {
  let bytes = 0
  let i = 0
  const stream = new Readable({
    read() {
      let chunk = i === 0 ? HEADER : ''
      for (let n = 0; n < 2_000 && i < rows; n++, i++) {
        const id = `5x5-${String(i + 1).padStart(32, '0')}`
        // Every 100,000th row is bad: reported with its line number and skipped.
        chunk += i % 100_000 === 99_999 ? `5x5-bad-${i},,,,,,,,,,,,,\n` : `${id},First${i},Last${i},Engineer,Company ${i % 5000},company${i % 5000}.example,https://www.linkedin.com/in/p${i},p${i}@company${i % 5000}.example,,${50 + (i % 900)},${1_000_000 + i},City ${i % 300},,US\n`
      }
      bytes += Buffer.byteLength(chunk)
      this.push(chunk || null)
      if (i >= rows && chunk) this.push(null)
    },
  })
  return { stream, bytes: () => bytes }
}

const store = await openEventStore({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'fl0-universal-')), database: 'fl0' })
await migrateEvents(store)
const samples: Array<{ rows: number; rssMb: number; heapMb: number }> = []
for (const run of [1, 2]) {
  const progress = new Progress()
  const input = csvStream(total)
  const mb = (n: number) => Math.round(n / 1024 / 1024)
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    samples.push({ rows: progress.counts.read ?? 0, rssMb: mb(m.rss), heapMb: mb(m.heapUsed) })
  }, 1_000)
  const t = Date.now()
  const message = await importUniversalTable(store.client, input.stream, `generated-${total}.csv`, progress, new Date())
  clearInterval(timer)
  const seconds = (Date.now() - t) / 1000
  process.stderr.write(`run ${run}: ${message}\n`)
  process.stdout.write(
    `${JSON.stringify({
      run,
      rows: total,
      csvMb: mb(input.bytes()),
      seconds,
      rowsPerSecond: Math.round(total / seconds),
      counts: progress.counts,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      rssMbAlongTheWay: samples.filter((_, k) => k % Math.max(1, Math.floor(samples.length / 8)) === 0).map((s) => `${s.rows}:${s.rssMb}/${s.heapMb}`),
    })}\n`,
  )
  samples.length = 0
}
await store.close()
