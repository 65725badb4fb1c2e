import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'

/**
 * A minimal SMTP receiver on 127.0.0.1 for the browser tests: fl0 sends its
 * invitation e-mails here (SMTP_URL), as it would to a real mail server, and
 * the test reads the link the invitee would click. It speaks just enough of
 * RFC 5321 (no extensions, no TLS) for nodemailer.
 */
export interface Mail {
  from: string
  to: string[]
  data: string
}

export interface SmtpSink {
  url: string
  mails: Mail[]
  /** Resolves with the first mail to `to` (waiting for it if need be). */
  waitFor(to: string, timeoutMs?: number): Promise<Mail>
  close(): Promise<void>
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: Mail[] = []
  const waiters: Array<() => void> = []
  const server: Server = createServer((socket) => {
    let buffer = ''
    let inData = false
    let mail: Mail = { from: '', to: [], data: '' }
    const reply = (line: string) => socket.write(line + '\r\n')
    reply('220 fl0-test ESMTP')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          mail.data = buffer.slice(0, end).replace(/^\.\./gm, '.')
          buffer = buffer.slice(end + 5)
          inData = false
          mails.push(mail)
          mail = { from: '', to: [], data: '' }
          for (const w of waiters.splice(0)) w()
          reply('250 OK: queued')
          continue
        }
        const nl = buffer.indexOf('\r\n')
        if (nl < 0) return
        const line = buffer.slice(0, nl)
        buffer = buffer.slice(nl + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fl0-test')
        else if (verb === 'MAIL') (mail.from = line.replace(/^MAIL FROM:\s*/i, '')), reply('250 OK')
        else if (verb === 'RCPT') mail.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1')), reply('250 OK')
        else if (verb === 'DATA') (inData = true), reply('354 End data with <CR><LF>.<CR><LF>')
        else if (verb === 'QUIT') reply('221 Bye'), socket.end()
        else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK')
        else reply('502 Command not implemented')
      }
    })
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = mails.find((m) => m.to.includes(to))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (have ${mails.length})`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The mail's text with quoted-printable soft breaks and escapes undone. */
export function decodeQuotedPrintable(data: string): string {
  return data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}
