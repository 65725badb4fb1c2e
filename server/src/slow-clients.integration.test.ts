import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { cutOffIdleClients, httpServerOptions } from './slow-clients.ts'
import { startTestFl0, type TestFl0 } from './testing.ts'

/**
 * Slow clients on raw TCP sockets, as a slowloris sends them (issue 17): fl0
 * with its timeouts made short through configuration, then the idle rule on a
 * bare Node server, to show that the time fl0 itself takes (a slow answer, an
 * upload read slower than it arrives) is never held against the client.
 * Every wait is on the socket's 'close' or the answer, not on a fixed sleep.
 */
const HEADERS_S = 1
const IDLE_S = 2

interface Ended {
  /** Everything the server sent before the connection closed. */
  received: string
  ms: number
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })
}

/** Resolves when the server (or the test) closes the connection, with what it sent. */
function whenClosed(socket: Socket): Promise<Ended> {
  const started = Date.now()
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => (received += chunk))
  socket.on('error', () => {})
  return new Promise((resolve) => socket.once('close', () => resolve({ received, ms: Date.now() - started })))
}

/** Writes the pieces one by one, `everyMs` apart, until they run out or the socket closes. */
function trickle(socket: Socket, pieces: string[], everyMs: number): void {
  const timer = setInterval(() => {
    const piece = pieces.shift()
    if (piece === undefined || socket.destroyed) return clearInterval(timer)
    socket.write(piece)
  }, everyMs)
  socket.once('close', () => clearInterval(timer))
}

/** Cuts a string into `n` pieces of about the same length. */
const pieces = (s: string, n: number) => Array.from({ length: n }, (_, i) => s.slice(Math.floor((i * s.length) / n), Math.floor(((i + 1) * s.length) / n)))

describe('slow clients, against a running fl0', () => {
  let fl0: TestFl0
  beforeAll(async () => {
    fl0 = await startTestFl0({ FL0_HEADERS_TIMEOUT_SECONDS: String(HEADERS_S), FL0_IDLE_TIMEOUT_SECONDS: String(IDLE_S) })
  })
  afterAll(async () => {
    await fl0?.stop()
  })

  const basic = () => `Basic ${Buffer.from(`${fl0.segment.write_key}:`).toString('base64')}`

  it('answers 408 and closes a connection whose headers keep coming but never end', async () => {
    const socket = await open(fl0.port)
    const ended = whenClosed(socket)
    socket.write('POST /v1/batch HTTP/1.1\r\nHost: fl0\r\n')
    // One header line every 200 ms: the connection is never idle, the header block never ends.
    trickle(socket, Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: ${'x'.repeat(10)}\r\n`), 200)
    const { received, ms } = await ended
    expect(received).toMatch(/^HTTP\/1\.1 408 /)
    expect(ms).toBeGreaterThanOrEqual(HEADERS_S * 1000 - 100)
  })

  it('closes a connection whose body stops coming', async () => {
    const socket = await open(fl0.port)
    const ended = whenClosed(socket)
    socket.write(`POST /v1/batch HTTP/1.1\r\nHost: fl0\r\nAuthorization: ${basic()}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"batch":[`)
    const { received, ms } = await ended
    // No answer: the request never came whole. Cut off once idle, not before.
    expect(received).toBe('')
    expect(ms).toBeGreaterThanOrEqual(IDLE_S * 1000 - 100)
  })

  it('takes a body that trickles in for longer than the idle time, a piece at a time, and stores it', async () => {
    const messageId = randomUUID()
    const body = JSON.stringify({ batch: [{ type: 'track', userId: 'slow-but-steady', event: 'Trickled', messageId, properties: { note: 'x'.repeat(200) } }] })
    const socket = await open(fl0.port)
    const ended = whenClosed(socket)
    socket.write(
      `POST /v1/batch HTTP/1.1\r\nHost: fl0\r\nAuthorization: ${basic()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    )
    // 16 pieces 250 ms apart: 4 s in all, twice the idle time, with no gap near it.
    trickle(socket, pieces(body, 16), 250)
    const { received, ms } = await ended
    expect(received).toMatch(/^HTTP\/1\.1 200 /)
    expect(received).toContain('"success":true')
    expect(ms).toBeGreaterThan(IDLE_S * 1000)
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE message_id = {id:String}', { id: messageId }, 1)
  })
})

/**
 * The idle rule alone, on a bare Node server with the same options, where the
 * handler can be made slow on purpose: waiting on fl0 is not idling.
 */
describe('the idle rule, on a bare server', () => {
  const IDLE_MS = 1000
  let server: Server
  let handle: (req: IncomingMessage, res: ServerResponse) => void
  let port: number

  beforeAll(async () => {
    server = createServer(httpServerOptions({ headersMs: 1000, idleMs: IDLE_MS, requestMs: 0 }), (req, res) => handle(req, res))
    cutOffIdleClients(server, IDLE_MS)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterEach(() => server.closeAllConnections())
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  async function readAll(req: IncomingMessage): Promise<number> {
    let n = 0
    for await (const chunk of req) n += (chunk as Buffer).length
    return n
  }

  it('does not cut off a client while the answer takes longer than two idle periods to work out', async () => {
    handle = (req, res) => void readAll(req).then(() => setTimeout(() => res.end('done'), 2.5 * IDLE_MS))
    const socket = await open(port)
    const ended = whenClosed(socket)
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const { received, ms } = await ended
    expect(received).toMatch(/^HTTP\/1\.1 200 [\s\S]*done$/)
    expect(ms).toBeGreaterThanOrEqual(2.5 * IDLE_MS - 50)
  })

  it('does not cut off an upload that the server reads slower than it arrives', async () => {
    const size = 8 * 1024 * 1024
    // The handler reads nothing for two and a half idle periods: Node fills the request's buffer, then stops reading the socket.
    handle = (req, res) => setTimeout(() => void readAll(req).then((n) => res.end(String(n))), 2.5 * IDLE_MS)
    const socket = await open(port)
    const ended = whenClosed(socket)
    socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`)
    socket.write(Buffer.alloc(size, 97))
    const { received } = await ended
    expect(received).toMatch(new RegExp(`^HTTP/1\\.1 200 [\\s\\S]*\\r\\n\\r\\n${size}$`))
  })

  it('closes a connection whose client does not take the answer', async () => {
    const size = 64 * 1024 * 1024
    let serverClosed!: () => void
    const cutOff = new Promise<void>((resolve) => (serverClosed = resolve))
    handle = (req, res) => {
      res.once('close', () => serverClosed())
      // Far more than the socket buffers hold: most of it waits on a client that reads nothing.
      res.end(Buffer.alloc(size, 98))
    }
    const socket = await open(port)
    socket.pause()
    const started = Date.now()
    socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n')
    await cutOff
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 50)
    // Reading now, the client finds the answer cut short.
    let received = 0
    socket.on('data', (chunk: Buffer) => (received += chunk.length))
    socket.on('error', () => {})
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.resume()
    await closed
    expect(received).toBeLessThan(size)
  })
})
