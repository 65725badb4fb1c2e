import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * ClickHouse's HTTP interface, served by chDB: for tests in which several
 * processes (an ingest and workers started apart) share one events store, as
 * they share a ClickHouse server in a cluster. No ClickHouse server can be
 * installed on the machines fl0 is tested on; chDB is the same engine, but it
 * lives inside one process, so this process lends it to the others.
 *
 * It answers the subset of the protocol that @clickhouse/client speaks (the
 * cluster code path of stores/src/events/client.ts, unchanged):
 *   GET /ping                        → "Ok.\n"
 *   POST /?query_id&database&param_* with the SQL as the body, or
 *   POST /?query=<statement>&…       with the statement's data as the body (inserts)
 * Query parameters arrive in ClickHouse's escaped text form (param_<name>) and
 * are bound by the engine, as a server binds them; errors answer 500 with
 * ClickHouse's "Code: N. DB::Exception: …" text and X-ClickHouse-Exception-Code.
 */
export interface ChdbHttpServer {
  url: string
  close(): Promise<void>
}

type ChdbSession = {
  queryAsync(sql: string, opts?: { format?: string }): Promise<{ bytes(): Uint8Array }>
  queryBindAsync(sql: string, params: object, opts?: { format?: string }): Promise<{ bytes(): Uint8Array }>
  cleanup?(): void
  close?(): void
}

/** ClickHouse's escaped text form (what param_* values are in), back to the text it stands for. */
function unescapeParam(text: string): string {
  return text.replace(/\\(.)/gs, (_m, c: string) => ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' })[c] ?? c)
}

/**
 * An array parameter's text (clickhouse-js sends ['a\\'1', 'b'] for ["a'1", "b"]) as
 * the values it stands for, so chDB's binder can format them again. Strings in
 * quotes with backslash escapes, numbers, NULL, nested arrays.
 */
function parseArrayParam(text: string): unknown {
  let i = 0
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++
  }
  const value = (): unknown => {
    skip()
    const c = text[i]
    if (c === '[') {
      i++
      const items: unknown[] = []
      skip()
      if (text[i] === ']') return i++, items
      for (;;) {
        items.push(value())
        skip()
        if (text[i] === ',') i++
        else if (text[i] === ']') return i++, items
        else throw new Error(`bad array parameter: ${text}`)
      }
    }
    if (c === "'") {
      let out = ''
      for (i++; i < text.length && text[i] !== "'"; i++) out += text[i] === '\\' ? unescapeParam(text.slice(i, ++i + 1)) : text[i]
      i++
      return out
    }
    const token = /^[^,\]\s]+/.exec(text.slice(i))?.[0] ?? ''
    i += token.length
    return token === 'NULL' ? null : Number(token)
  }
  return value()
}

/** The declared type of each {name:Type} placeholder in the SQL. */
function placeholderTypes(sql: string): Map<string, string> {
  const types = new Map<string, string>()
  for (const m of sql.matchAll(/\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^}]+)\}/g)) types.set(m[1]!, m[2]!.trim())
  return types
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startChdbHttp(options: { path: string; port?: number; host?: string }): Promise<ChdbHttpServer> {
  const { Session } = (await import('chdb')) as unknown as { Session: new (path: string) => ChdbSession }
  // One session per database, all on one data directory (chDB allows one directory per process).
  const sessions = new Map<string, Promise<ChdbSession>>()
  const sessionFor = (database: string) => {
    let session = sessions.get(database)
    if (!session) {
      session = (async () => {
        const s = new Session(options.path)
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new Error(`Code: 81. DB::Exception: Database ${database} does not exist.`)
        if (database !== 'default') await s.queryAsync(`USE ${database}`)
        return s
      })()
      sessions.set(database, session)
    }
    return session
  }

  // Parameters travel in the URL: a server takes URIs up to 1 MiB (http_max_uri_size), Node only 16 KB by default.
  const server: Server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://chdb')
      if (url.pathname === '/ping') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('Ok.\n')
        return
      }
      const body = await bodyOf(req)
      const statement = url.searchParams.get('query')
      const sql = statement ? `${statement}\n${body}` : body
      // A server reads a parameter in its declared type's escaped text form: scalars
      // with backslash escapes, arrays as literals. chDB's binder takes JS values.
      const types = placeholderTypes(sql)
      const params: Record<string, unknown> = {}
      for (const [key, value] of url.searchParams) {
        if (!key.startsWith('param_')) continue
        const name = key.slice('param_'.length)
        params[name] = /^Array\(/.test(types.get(name) ?? '') ? parseArrayParam(value) : unescapeParam(value)
      }
      const session = await sessionFor(url.searchParams.get('database') ?? 'default')
      const opts = { format: 'TabSeparated' }
      const result = Object.keys(params).length ? await session.queryBindAsync(sql, params, opts) : await session.queryAsync(sql, opts)
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8', 'x-clickhouse-query-id': url.searchParams.get('query_id') ?? '' })
      res.end(Buffer.from(result.bytes()))
    })().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error)
      const code = /Code: (\d+)/.exec(message)?.[1] ?? '1000'
      const text = message.includes('DB::Exception') ? message : `Code: ${code}. DB::Exception: ${message}`
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain', 'x-clickhouse-exception-code': code })
      res.end(text)
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of sessions.values()) {
        const session = await s.catch(() => undefined)
        session?.close?.()
      }
    },
  }
}
