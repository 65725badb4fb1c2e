import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * How long fl0 waits on a client (issue 17: 250 slow bodies held for 110 s).
 * A slowloris holds connections open by sending a request a byte at a time,
 * or not at all; a real client sends its headers at once and its body as
 * fast as its link allows, and an admin's upload of gigabytes takes hours.
 * So there are two rules, and a total cap only if asked for:
 *
 * - headers: the whole header block within `headersMs` (Node's
 *   headersTimeout; a 408 and the connection closed);
 * - idle: while fl0 waits on the client, to send the rest of a body or to
 *   take the answer, a connection on which no byte moves for `idleMs` is
 *   closed. Time spent waiting on fl0 itself (a slow query, an import that
 *   stores rows slower than they arrive) does not count, so an upload that
 *   keeps sending is never cut off, however long it runs;
 * - request: Node's requestTimeout, a cap on a whole request's arrival.
 *   Node has one per server, not per route, and any cap that let the largest
 *   import through (bench/README.md: about 14,000 rows a second) would be
 *   hours long and stop nothing, so it is off (0) unless configured.
 */
export interface ClientTimeouts {
  headersMs: number
  idleMs: number
  /** 0: no cap. */
  requestMs: number
}

export function clientTimeouts(config: { FL0_HEADERS_TIMEOUT_SECONDS: number; FL0_IDLE_TIMEOUT_SECONDS: number; FL0_REQUEST_TIMEOUT_SECONDS: number }): ClientTimeouts {
  return {
    headersMs: Math.round(config.FL0_HEADERS_TIMEOUT_SECONDS * 1000),
    idleMs: Math.round(config.FL0_IDLE_TIMEOUT_SECONDS * 1000),
    requestMs: Math.round(config.FL0_REQUEST_TIMEOUT_SECONDS * 1000),
  }
}

/** For http.createServer (through @hono/node-server's serverOptions). */
export function httpServerOptions(t: ClientTimeouts): ServerOptions {
  // Node refuses a headers timeout longer than a request cap that is set: the cap then bounds the headers too.
  const headersTimeout = t.requestMs > 0 ? Math.min(t.headersMs, t.requestMs) : t.headersMs
  return {
    headersTimeout,
    requestTimeout: t.requestMs,
    // Node looks for expired headers and requests on this period; its default of 30 s would let
    // a 20 s headers timeout run to 50 s. A quarter of it keeps the overshoot small, for one
    // pass over the open connections every few seconds.
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.round(headersTimeout / 4))),
  }
}

interface InFlight {
  req: IncomingMessage
  res: ServerResponse
}

/**
 * Installs the idle rule on a server: Node's per-socket inactivity timer
 * (server.timeout, refreshed by every byte read or written), with a listener
 * that decides, when it fires, whether the client or fl0 is the one stalling.
 * With a listener, Node leaves the decision to it instead of closing.
 */
export function cutOffIdleClients(server: Server, idleMs: number): void {
  const inFlight = new WeakMap<Socket, InFlight>()
  server.on('request', function trackRequest(req: IncomingMessage, res: ServerResponse) {
    const socket = req.socket
    inFlight.set(socket, { req, res })
    res.once('finish', () => {
      if (inFlight.get(socket)?.req === req) inFlight.delete(socket)
    })
  })
  server.on('connection', function idleClockFromResume(socket: Socket) {
    // While fl0 holds a socket paused (backpressure), nothing is read and the idle clock is not
    // refreshed: a body's idle time counts again from the moment fl0 resumes reading it.
    socket.on('resume', () => {
      const current = inFlight.get(socket)
      if (current && !current.req.complete && !socket.destroyed) socket.setTimeout(idleMs)
    })
  })
  server.setTimeout(idleMs, function onIdleSocket(socket: Socket) {
    if (waitingOnClient(socket, inFlight.get(socket))) socket.destroy()
    // fl0 is the one working: look again after another idle period.
    else socket.setTimeout(idleMs)
  })
}

/**
 * - No request in flight: its headers have not all come, or the connection is
 *   kept alive between requests: the client's turn.
 * - A body still arriving: the client's turn, unless fl0 stopped reading it
 *   (Node pauses the socket when the request's buffer is full: backpressure
 *   from a reader slower than the upload).
 * - The body is in, the answer not yet taken: the client's turn only when
 *   written bytes wait in the socket (a client that does not read); an answer
 *   still being worked out (a query, an import's progress stream) is fl0's.
 */
function waitingOnClient(socket: Socket, current: InFlight | undefined): boolean {
  if (!current) return true
  if (!current.req.complete) return !socket.isPaused()
  return socket.writableLength > 0
}
