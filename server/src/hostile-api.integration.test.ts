import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Socket } from 'node:net'
import { BODY_LIMITS, THROTTLES } from '@fl0/api'
import { startEmptyFl0, type EmptyTestFl0 } from './testing.ts'

/**
 * The API of a running fl0 (embedded: one process holds everything) against
 * what an attacker sends over a real socket (issue 17): bodies far past any
 * call's size, a password guesser, a replayed sign-in token.
 */
const UPLOAD_MAX = 1024 * 1024
/** Short here, so that the slowloris test is quick; 60 s by default. The idle timeout stays at its 30 s. */
const BODY_TIMEOUT_S = 2
let fl0: EmptyTestFl0
let staff: string
beforeAll(async () => {
  fl0 = await startEmptyFl0({ FL0_UPLOAD_MAX_BYTES: String(UPLOAD_MAX), FL0_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_S) })
  staff = await fl0.signUp('Ada', 'ada@example.com') // the first account: staff
})
afterAll(async () => {
  await fl0?.stop()
})

interface RawAnswer {
  status: number
  head: string
  /** Body bytes the client had written when the answer came. */
  sentBeforeAnswer: number
  closed: Promise<void>
}

/**
 * Sends a request's head, then body chunks for as long as the server keeps
 * reading (at most `total` bytes), and resolves with the status line as soon
 * as an answer arrives, whatever is left unsent.
 */
function rawPost(path: string, headers: Record<string, string>, total: number, chunk = 64 * 1024): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(fl0.port, '127.0.0.1')
    const closed = new Promise<void>((r) => socket.once('close', () => r()))
    let sent = 0
    let answered = false
    let received = ''
    const piece = Buffer.alloc(chunk, 'a')
    const chunked = headers['transfer-encoding'] === 'chunked'
    const pump = () => {
      while (!answered && sent < total) {
        const n = Math.min(chunk, total - sent)
        const data = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n)
        sent += n
        if (!socket.write(data)) return void socket.once('drain', pump)
      }
    }
    socket.on('error', (e) => (answered ? undefined : reject(e)))
    socket.on('data', (d) => {
      received += d.toString('latin1')
      if (!answered && received.includes('\r\n\r\n')) {
        answered = true
        resolve({ status: Number(received.split(' ')[1]), head: received.split('\r\n\r\n')[0]!, sentBeforeAnswer: sent, closed })
      }
    })
    socket.on('connect', () => {
      const lines = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${fl0.port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', '']
      socket.write(lines.join('\r\n'))
      pump()
    })
  })
}

const HUNDRED_MB = 100 * 1024 * 1024

describe('request bodies', () => {
  it('a 100 MB sign-in is refused by its Content-Length before its body is read, and the connection closed', async () => {
    const answer = await rawPost('/api/auth/local/sign-in', { 'content-type': 'application/json', 'content-length': String(HUNDRED_MB) }, HUNDRED_MB)
    expect(answer.status).toBe(413)
    expect(answer.head.toLowerCase()).toContain('connection: close')
    await answer.closed
    // The server answered without waiting for the body: most of it was never sent (the socket's buffers hold a few MB at most).
    expect(answer.sentBeforeAnswer).toBeLessThan(HUNDRED_MB / 4)
  })

  it('a chunked 100 MB sign-in (no Content-Length) is cut off just past its limit, four at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => rawPost('/api/auth/local/sign-in', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, HUNDRED_MB)),
    )
    for (const answer of answers) {
      expect(answer.status).toBe(413)
      expect(answer.sentBeforeAnswer).toBeLessThan(HUNDRED_MB / 4)
      await answer.closed
    }
  })

  it('a body trickled a byte at a time, each well within the idle timeout, is cut off at the body deadline', async () => {
    const socket = connect(fl0.port, '127.0.0.1')
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())))
    let answer = ''
    socket.on('data', (d) => (answer += d.toString('latin1')))
    socket.on('error', () => undefined)
    await new Promise<void>((r) => socket.once('connect', () => r()))
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) })
    socket.write(`POST /api/auth/local/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`)
    const started = Date.now()
    let sent = 0
    // A byte every 200 ms: 50 s for the whole body, each byte far inside the 30 s idle timeout.
    const trickle = setInterval(() => (sent < body.length && !socket.destroyed ? socket.write(body[sent++]!) : clearInterval(trickle)), 200)
    const at = await closed
    clearInterval(trickle)
    expect(sent).toBeLessThan(body.length)
    expect(at - started).toBeGreaterThanOrEqual(BODY_TIMEOUT_S * 1000 - 100)
    expect(answer).toBe('') // cut, not answered
    // A call sent at once is answered as usual.
    const fine = await fetch(`${fl0.url}/api/auth/local/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(fine.status).toBe(401)
  })

  it('every other call has its own limit, named in the answer', async () => {
    const res = await fetch(`${fl0.url}/api/orgs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: staff },
      body: JSON.stringify({ name: 'x'.repeat(BODY_LIMITS.json + 1), variant: 'modal' }),
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({
      success: false,
      message: 'The request body is larger than 1 MB, the most this call takes',
      errors: [{ name: 'body', message: 'The request body is larger than 1 MB, the most this call takes' }],
    })
    // Under the limit, the same call is answered as usual.
    const fine = await fetch(`${fl0.url}/api/orgs`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: staff }, body: JSON.stringify({ name: 'Acme', variant: 'modal' }) })
    expect(fine.status).toBe(201)
  })

  it('an upload past FL0_UPLOAD_MAX_BYTES is refused by its Content-Length, or, sent without one, fails at the limit', async () => {
    const declared = await rawPost('/api-v2/admin/import-ip-to-company', { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(UPLOAD_MAX * 4), cookie: staff }, UPLOAD_MAX * 4)
    expect(declared.status).toBe(413)

    const boundary = 'fl0boundary'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ranges.csv"\r\nContent-Type: text/csv\r\n\r\nnetwork,company_name,domain\r\n`
    const rows = Array.from({ length: 40_000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.0/24,Company ${i},c${i}.example\r\n`).join('')
    const body = `${head}${rows}--${boundary}--\r\n`
    expect(body.length).toBeGreaterThan(UPLOAD_MAX)
    const streamed = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body))
        controller.close()
      },
    })
    const res = await fetch(`${fl0.url}/api-v2/admin/import-ip-to-company`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: staff },
      body: streamed,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(422)
    const answer = (await res.json()) as { message: string; job: { status: string; message: string } }
    expect(answer.job.status).toBe('failed')
    expect(answer.job.message).toContain('The request body is larger than 1 MB')
    expect(res.headers.get('connection')).toBe('close')
    // Read as it arrived, it was stored in batches up to the limit, as when a client goes away mid-upload: never past it.
    const [row] = await fl0.query<{ n: number }>('SELECT count() AS n FROM ip_to_company')
    const shortestRow = Math.min(...rows.split('\r\n').filter(Boolean).map((r) => r.length + 2))
    expect(Number(row!.n)).toBeLessThanOrEqual(Math.ceil(UPLOAD_MAX / shortestRow))
  })
})

describe('sign-in', () => {
  it('a built-in ID token opens one session: replayed after sign-out, it is refused', async () => {
    await fl0.signUp('Bob', 'bob@example.com')
    const local = await fetch(`${fl0.url}/api/auth/local/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com', password: 'correct horse battery' }),
    })
    const { token } = (await local.json()) as { token: string }
    const signIn = () => fetch(`${fl0.url}/api/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })
    const first = await signIn()
    expect(first.status).toBe(200)
    const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!
    expect((await fetch(`${fl0.url}/api/sign-out`, { method: 'POST', headers: { cookie } })).status).toBe(204)
    expect((await signIn()).status).toBe(401)
  })

  // Last: it leaves this address (127.0.0.1) over its limit of wrong passwords.
  it('a guesser gets 10 wrong passwords for an account, then 429s with Retry-After, even for the right one', async () => {
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${fl0.url}/api/auth/local/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: i === 99 ? 'correct horse battery' : `guess ${i}` }),
      })
      statuses.push(res.status)
      if (res.status === 429) retryAfter = res.headers.get('retry-after')
    }
    expect(statuses.slice(0, THROTTLES.signInAccountAddress.points)).toEqual(Array(THROTTLES.signInAccountAddress.points).fill(401))
    expect(statuses.slice(THROTTLES.signInAccountAddress.points)).toEqual(Array(100 - THROTTLES.signInAccountAddress.points).fill(429))
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })
})
