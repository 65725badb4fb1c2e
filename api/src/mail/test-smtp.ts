import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A minimal SMTP server for tests (RFC 5321's EHLO, MAIL, RCPT, DATA, QUIT; no
 * TLS, no auth): enough for nodemailer to deliver to, so the SMTP path is tested
 * through the real client. `refuseRecipients` answers 550 to RCPT.
 */
export interface ReceivedMail {
  from: string
  to: string[]
  data: string
}

export interface TestSmtp {
  url: string
  received: ReceivedMail[]
  refuseRecipients: boolean
  /** Resolves with the first mail to `to`, waiting for it if need be (browser tests). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const sockets = new Set<Socket>()
  const state: TestSmtp = {
    url: '',
    received: [],
    refuseRecipients: false,
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = state.received.find((m) => m.to.includes(to))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (have ${state.received.length})`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    close: async () => {},
  }
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    let buffer = ''
    let inData = false
    let mail: ReceivedMail = { from: '', to: [], data: '' }
    const reply = (line: string) => socket.write(`${line}\r\n`)
    reply('220 test-smtp ESMTP')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          mail.data = buffer.slice(0, end).replace(/^\.\./gm, '.')
          buffer = buffer.slice(end + 5)
          inData = false
          state.received.push(mail)
          mail = { from: '', to: [], data: '' }
          reply('250 2.0.0 queued')
          continue
        }
        const eol = buffer.indexOf('\r\n')
        if (eol < 0) return
        const line = buffer.slice(0, eol)
        buffer = buffer.slice(eol + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') reply('250 test-smtp')
        else if (verb === 'MAIL') {
          mail.from = /<([^>]*)>/.exec(line)?.[1] ?? ''
          reply('250 2.1.0 ok')
        } else if (verb === 'RCPT') {
          if (state.refuseRecipients) reply('550 5.1.1 no such user')
          else {
            mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '')
            reply('250 2.1.5 ok')
          }
        } else if (verb === 'DATA') {
          inData = true
          reply('354 end with <CRLF>.<CRLF>')
        } else if (verb === 'RSET') {
          mail = { from: '', to: [], data: '' }
          reply('250 ok')
        } else if (verb === 'QUIT') {
          reply('221 bye')
          socket.end()
        } else reply('502 5.5.2 not implemented')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
  return state
}

/** A mail's text with quoted-printable soft breaks and escapes undone. */
export function decodeQuotedPrintable(data: string): string {
  return data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}
