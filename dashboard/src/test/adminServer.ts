import type { AdminRow } from '../api/admin.ts'
import type { CurrentUser } from '../api/types.ts'
import { fakeServer, type FakeServer } from './fakeServer.ts'
import { USER } from './render.tsx'

export const STAFF: CurrentUser = { ...USER, isStaff: true }

export const ORGS = [
  { value: 'org-acme', text: 'Acme' },
  { value: 'org-globex', text: 'Globex' },
]

/** Rows of a raw table: `n` of them, numbered, each with a nested value for the detail modal. */
export function tableRows(n: number, prefix = 'row'): AdminRow[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i + 1}`, org_id: i % 2 ? 'org-globex' : 'org-acme', n: i + 1, meta: { index: i, tags: ['a', 'b'] } }))
}

/**
 * The admin calls for component tests: the organisation list, and each grid
 * answering 20 rows a page of the rows given, with the total; the browser
 * test runs the real server. FormData bodies (which the fake server does not
 * read) are kept in `uploads`.
 */
export function adminServer(tables: Record<string, AdminRow[]> = {}) {
  const server = fakeServer()
  const uploads: Array<{ path: string; form: FormData }> = []
  server.on('GET', '/api-v2/admin/orgs', { body: ORGS })
  server.on('GET', /^\/api-v2\/admin\/[a-z-]+-table$/, (call) => {
    const rows = tables[call.path.split('/').pop()!] ?? []
    const page = Number(call.query.get('page') ?? 1)
    return { body: { data: rows.slice((page - 1) * 20, page * 20), total: rows.length } }
  })
  const fetch: typeof globalThis.fetch = (input, init) => {
    if (init?.body instanceof FormData) uploads.push({ path: new URL(String(input), 'http://localhost').pathname, form: init.body })
    return server.fetch(input, init)
  }
  const wrapped: FakeServer = { ...server, fetch }
  return Object.assign(wrapped, { uploads })
}

/** The query a grid call sent, as a plain object. */
export const queryOf = (call: { query: URLSearchParams }) => Object.fromEntries(call.query)
