/**
 * Crash safety: send batches with known messageIds, kill -9 the server under
 * load, restart it on the same data directory, let the bus drain, and compare
 * the ids that were answered 2xx with the ids in `events`.
 * Goal: none lost (every acknowledged id stored), none counted twice (rows = unique ids).
 *
 *   npx tsx bench/src/crash.ts [--seconds 10] [--rounds 3]
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startBenchServer, reportOn } from './spawn.ts'
import { batchBody } from './events.ts'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '8' } } })
const dataDir = mkdtempSync(join(tmpdir(), 'fl0-crash-'))
const acked: string[] = []
let sent = 0
let failed = 0
let seq = 0

for (let round = 1; round <= Number(values.rounds); round++) {
  const server = await startBenchServer(dataDir)
  const auth = `Basic ${Buffer.from(`${server.writeKey}:`).toString('base64')}`
  let running = true
  const killAt = Date.now() + Number(values.seconds) * 1000
  async function worker() {
    while (running) {
      const ids = Array.from({ length: 100 }, () => `crash-${round}-${seq++}`)
      sent += ids.length
      try {
        const res = await fetch(`${server.url}/v1/batch`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: batchBody(100, seq, ids) })
        if (res.ok) acked.push(...ids)
        else failed += ids.length
      } catch {
        failed += ids.length // connection cut by the kill: not acknowledged, may or may not be stored
      }
    }
  }
  const workers = Array.from({ length: Number(values.concurrency) }, worker)
  await new Promise((r) => setTimeout(r, killAt - Date.now()))
  await server.kill9()
  running = false
  await Promise.all(workers)
  console.error(`round ${round}: killed with -9; ${acked.length} ids acknowledged so far`)
}

const idsFile = join(dataDir, 'acked.txt')
writeFileSync(idsFile, acked.join('\n'))
const report = await reportOn(dataDir, idsFile)
const summary = {
  rounds: Number(values.rounds),
  sent,
  acknowledged: acked.length,
  unacknowledged: failed,
  storedRows: report.rows,
  storedUniqueIds: report.uniqueIds,
  lost: report.missing,
  countedTwice: report.rows - report.uniqueIds,
  verdict: report.missing === 0 && report.rows === report.uniqueIds ? 'none lost, none counted twice' : 'FAILED',
}
console.log(JSON.stringify(summary, null, 2))
mkdirSync(new URL('../results/', import.meta.url), { recursive: true })
writeFileSync(new URL('../results/crash.json', import.meta.url), JSON.stringify(summary, null, 2))
if (summary.verdict === 'FAILED') process.exit(1)
