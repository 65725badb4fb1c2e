/**
 * The lexicon's delay (issue 7: an event is visible in the lexicon within 2 s
 * of its ingest): a real embedded fl0 in its own process; events with names
 * never seen before go in through /v1/track one at a time, and the lexicon API
 * (GET /api/orgs/bench/lexicon/events, as the dashboard calls it) is polled
 * until each name appears. The delay is counted from the ingest's 2xx answer
 * (the event is durable then) to the first answer that lists the name.
 *
 *   npx tsx bench/src/lexicon-delay.ts                # idle server, 100 events
 *   npx tsx bench/src/lexicon-delay.ts --load 4       # the same under a /v1/batch load of 4 connections
 *
 * Options: --events n, --poll ms (how often the API is asked; the figures are
 * this coarse), --load connections (0: none).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { startBenchServer } from './spawn.ts'
import { batchBody } from './events.ts'

const { values } = parseArgs({ options: { events: { type: 'string', default: '100' }, poll: { type: 'string', default: '10' }, load: { type: 'string', default: '0' } } })
const count = Number(values.events)
const pollMs = Number(values.poll)
const loadConnections = Number(values.load)

const server = await startBenchServer(mkdtempSync(join(tmpdir(), 'fl0-bench-lexicon-')))
const auth = `Basic ${Buffer.from(`${server.writeKey}:`).toString('base64')}`

try {
  const cookie = await server.signIn()

  /** How long each call to the lexicon API took: part of every delay measured, and so reported beside it. */
  const apiTimes: number[] = []
  const listed = async (): Promise<Set<string>> => {
    const started = performance.now()
    const res = await fetch(`${server.url}/api/orgs/bench/lexicon/events`, { headers: { cookie } })
    if (res.status !== 200) throw new Error(`lexicon answered ${res.status}: ${await res.text()}`)
    const names = new Set(((await res.json()) as { events: Array<{ name: string }> }).events.map((e) => e.name))
    apiTimes.push(performance.now() - started)
    return names
  }

  // The background load, if any: autocannon's callback form, so that it can be stopped at the end.
  let stopLoad = () => {}
  const load = loadConnections
    ? new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${server.url}/v1/batch`,
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: batchBody(100),
            connections: loadConnections,
            duration: 3600,
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        )
        stopLoad = () => instance.stop()
      })
    : undefined
  if (load) await new Promise((r) => setTimeout(r, 3000)) // let the load settle first

  const run = Date.now().toString(36)
  const delays: number[] = []
  for (let i = 0; i < count; i++) {
    const name = `Lexicon Probe ${run} ${i}`
    const res = await fetch(`${server.url}/v1/track`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: `probe-${i}`, event: name, properties: { probe: i, run } }),
    })
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}`)
    const acknowledged = performance.now()
    for (;;) {
      if ((await listed()).has(name)) break
      if (performance.now() - acknowledged > 30_000) throw new Error(`${name} not listed after 30 s`)
      await new Promise((r) => setTimeout(r, pollMs))
    }
    delays.push(performance.now() - acknowledged)
  }

  let loadSummary = ''
  if (load) {
    stopLoad()
    const result = await load
    loadSummary = `, under a /v1/batch load of ${loadConnections} connections: ${Math.round((result['2xx'] * 100) / result.duration).toLocaleString('en-US')} events/s`
  }
  const ms = (v: number) => `${Math.round(v)} ms`
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
    return `p50 ${ms(at(0.5))}, p95 ${ms(at(0.95))}, max ${ms(sorted[sorted.length - 1]!)}`
  }
  console.log(`lexicon delay, ${count} new event names one at a time${loadSummary}; the API polled every ${pollMs} ms`)
  console.log(`  from the ingest's 2xx to the first answer listing the name: ${summary(delays)} (goal: 2,000 ms)`)
  console.log(`  one call of GET .../lexicon/events (${apiTimes.length} calls): ${summary(apiTimes)}`)
  console.log(`  server peak RSS ${Math.round(server.peakRssMb())} MB`)
} finally {
  await server.stop()
}
