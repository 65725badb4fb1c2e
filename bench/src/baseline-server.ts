/**
 * The floor every ingest figure is measured against: a bare Node HTTP server
 * doing the least an ingest with durable acknowledgement can do, on the same
 * machine, under the same load. Each call's body is read and parsed, each
 * event stamped (a message id when it has none, the time received, the
 * source), appended as a JSON line to a log file, and the file fdatasync'ed
 * before the 200: calls that arrive while a sync runs are written and synced
 * together after it (group commit), as fl0's disk bus does. No validation,
 * no identity, no consumers: what fl0 does beyond this is its cost.
 *
 *   tsx bench/src/baseline-server.ts --data-dir DIR   prints {"url","writeKey","pid"} once ready
 */
import { randomUUID } from 'node:crypto'
import { openSync, writevSync, fdatasyncSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } })
if (!values['data-dir']) throw new Error('--data-dir is required')

const WRITE_KEY = 'baseline-write-key'
const AUTH = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`
const fd = openSync(join(values['data-dir'], 'events.log'), 'a')

let pending: Array<{ data: Buffer; done: () => void }> = []
let syncing = false

/** Writes and syncs everything queued, then again for what arrived meanwhile. */
function flush() {
  if (syncing || pending.length === 0) return
  syncing = true
  const batch = pending
  pending = []
  writevSync(fd, batch.map((p) => p.data))
  fdatasyncSync(fd)
  syncing = false
  for (const p of batch) p.done()
  setImmediate(flush)
}

function append(lines: string): Promise<void> {
  return new Promise((resolve) => {
    pending.push({ data: Buffer.from(lines), done: resolve })
    setImmediate(flush)
  })
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function stamp(event: Record<string, unknown>, receivedAt: string): string {
  return JSON.stringify({ ...event, messageId: event.messageId ?? randomUUID(), receivedAt, sourceId: 'baseline' })
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST' || (req.url !== '/v1/batch' && req.url !== '/v1/track')) return res.writeHead(404).end()
  if (req.headers.authorization !== AUTH) return res.writeHead(401).end()
  let body: { batch?: Array<Record<string, unknown>> } & Record<string, unknown>
  try {
    body = JSON.parse(await readBody(req))
  } catch {
    return res.writeHead(400).end()
  }
  const receivedAt = new Date().toISOString()
  const events = req.url === '/v1/batch' ? (body.batch ?? []) : [body]
  await append(events.map((e) => stamp(e, receivedAt)).join('\n') + '\n')
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}')
}

const server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()))
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}`, writeKey: WRITE_KEY, orgId: 'baseline', pid: process.pid }) + '\n')
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
