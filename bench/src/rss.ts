/**
 * Resident memory of the embedded process (issue 19): fl0 started on a data
 * directory (the demo's, say), its RSS once started and after a minute idle,
 * and the CPU it used in that idle minute (its pollers and background work).
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
// The CPU of the idle minute's last 30 s: by then the work of starting (the free IP data's load) is done.
const idle = Number(values.idle)
await new Promise((r) => setTimeout(r, Math.max(0, idle - 30) * 1000))
const cpuBefore = server.cpuSeconds()
await new Promise((r) => setTimeout(r, Math.min(30, idle) * 1000))
const idleCpu = (server.cpuSeconds() - cpuBefore) / Math.min(30, idle)
console.log(`after ${idle} s idle: RSS ${server.rssMb().toFixed(0)} MB, peak ${server.peakRssMb().toFixed(0)} MB; CPU in its last 30 s ${(idleCpu * 100).toFixed(1)} % of a core`)
await server.stop()
