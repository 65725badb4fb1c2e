/**
 * Resident memory of the embedded process (issue 19): fl0 started on a data
 * directory (the demo's, say), its RSS once started, after a minute idle, and
 * after the dashboard's first calls (the organisation's people and a 30-day line).
 *
 *   FL0_DATA_DIR=/tmp/demo npm run demo && npx tsx bench/src/rss.ts --data /tmp/demo [--org demo]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { startBenchServer } from './spawn.ts'

const { values } = parseArgs({ options: { data: { type: 'string' }, idle: { type: 'string', default: '60' } } })
if (!values.data) throw new Error('--data is required')
console.log(`load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
const started = performance.now()
const server = await startBenchServer(values.data)
console.log(`started in ${((performance.now() - started) / 1000).toFixed(1)} s; RSS ${server.rssMb().toFixed(0)} MB`)
await new Promise((r) => setTimeout(r, Number(values.idle) * 1000))
console.log(`after ${values.idle} s idle: RSS ${server.rssMb().toFixed(0)} MB, peak ${server.peakRssMb().toFixed(0)} MB`)
await server.stop()
