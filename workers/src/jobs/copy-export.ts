import type { EventStore, Sql } from '@fl0/stores'
import { orgParams, resolutionCtes } from '@fl0/query'
import { fmt, type Progress } from './progress.ts'

/**
 * "Copy people and pages to supabase": the organisation's people (resolved
 * as the admin people table shows them) and its pages (as the last "refresh
 * pages and activities" built them) upserted into an external PostgreSQL
 * database (EXPORT_DATABASE_URL; Supabase is PostgreSQL), into fl0_people and
 * fl0_pages, which it creates if missing. Rows are keyed (organisation and
 * person, organisation and page view's event) and an upsert changes a row
 * only when a value differs (IS DISTINCT FROM), so a second run adds and
 * changes nothing. Written through the project's Sql interface: PostgreSQL
 * in production, PGlite in tests.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS fl0_people (
  org_id text NOT NULL,
  person_key text NOT NULL,
  name text, email text, role text, up_id text,
  company_name text, company_domain text, person_via text, company_via text, linkedin_url text,
  visits integer NOT NULL, first_seen timestamptz NOT NULL, last_seen timestamptz NOT NULL,
  PRIMARY KEY (org_id, person_key)
);
CREATE TABLE IF NOT EXISTS fl0_pages (
  org_id text NOT NULL,
  message_id text NOT NULL,
  viewed_at timestamptz NOT NULL,
  visitor_id text NOT NULL,
  visit_started_at timestamptz NOT NULL,
  url text, path text, title text, referrer text,
  time_on_page integer,
  PRIMARY KEY (org_id, message_id)
)`

interface Table {
  name: string
  key: string[]
  columns: Array<[name: string, type: string]>
}

const PEOPLE: Table = {
  name: 'fl0_people',
  key: ['org_id', 'person_key'],
  columns: [
    ['org_id', 'text'], ['person_key', 'text'], ['name', 'text'], ['email', 'text'], ['role', 'text'], ['up_id', 'text'], ['company_name', 'text'],
    ['company_domain', 'text'], ['person_via', 'text'], ['company_via', 'text'], ['linkedin_url', 'text'], ['visits', 'integer'],
    ['first_seen', 'timestamptz'], ['last_seen', 'timestamptz'],
  ],
}
const PAGES: Table = {
  name: 'fl0_pages',
  key: ['org_id', 'message_id'],
  columns: [
    ['org_id', 'text'], ['message_id', 'text'], ['viewed_at', 'timestamptz'], ['visitor_id', 'text'], ['visit_started_at', 'timestamptz'],
    ['url', 'text'], ['path', 'text'], ['title', 'text'], ['referrer', 'text'], ['time_on_page', 'integer'],
  ],
}

const BATCH = 1_000
const iso = (t: unknown) => (typeof t === 'string' && t ? `${t.replace(' ', 'T')}Z` : null)
const text = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v))

export async function copyToExportDatabase(store: EventStore, target: Sql, orgIds: string[] | undefined, progress: Progress): Promise<string> {
  for (const name of ['people', 'peopleWritten', 'pages', 'pagesWritten']) progress.add(name, 0)
  await target.exec(SCHEMA)
  const orgs = orgIds ?? (await (await store.client.query({ query: 'SELECT DISTINCT org_id FROM identified_visits ORDER BY org_id', format: 'JSONEachRow' })).json<{ org_id: string }>()).map((r) => r.org_id)
  for (const org of orgs) {
    await copy(store, target, PEOPLE, progress, 'people', {
      query: `WITH ${resolutionCtes()}
        SELECT p.org_id AS org_id, p.person AS person_key, p.person_name AS name, p.email AS email, p.role AS role, p.up_id AS up_id,
          p.company_name AS company_name, p.company_domain AS company_domain, p.person_via AS person_via, p.company_via AS company_via,
          p.linkedin_url AS linkedin_url, g.visits AS visits, g.first_seen AS first_seen, g.last_seen AS last_seen
        FROM persons AS p INNER JOIN (
          SELECT v.org_id AS org_id, v.person AS person, count() AS visits, min(v.started_at) AS first_seen, max(v.ended_at) AS last_seen
          FROM visit_networks AS v GROUP BY v.org_id, v.person
        ) AS g ON g.org_id = p.org_id AND g.person = p.person
        ORDER BY p.person`,
      params: orgParams(org),
      row: (r) => [r.org_id, r.person_key, text(r.name), text(r.email), text(r.role), text(r.up_id), text(r.company_name), text(r.company_domain),
        text(r.person_via), text(r.company_via), text(r.linkedin_url), Number(r.visits), iso(r.first_seen), iso(r.last_seen)],
    })
    await copy(store, target, PAGES, progress, 'pages', {
      query: `SELECT org_id, message_id, viewed_at, visitor_id, visit_started_at, url, path, title, referrer, time_on_page
              FROM pages FINAL WHERE org_id = {org:String} ORDER BY message_id`,
      params: { org },
      row: (r) => [r.org_id, r.message_id, iso(r.viewed_at), r.visitor_id, iso(r.visit_started_at), text(r.url), text(r.path), text(r.title),
        text(r.referrer), r.time_on_page === null ? null : Number(r.time_on_page)],
    })
  }
  const c = progress.counts
  return `Copied ${fmt(c.people!)} people and ${fmt(c.pages!)} pages (${fmt(c.peopleWritten!)} people and ${fmt(c.pagesWritten!)} pages added or changed)`
}

async function copy(
  store: EventStore,
  target: Sql,
  table: Table,
  progress: Progress,
  counter: string,
  source: { query: string; params: Record<string, unknown>; row: (r: Record<string, unknown>) => unknown[] },
): Promise<void> {
  let batch: unknown[][] = []
  const flush = async () => {
    if (batch.length === 0) return
    progress.add(`${counter}Written`, await upsert(target, table, batch))
    batch = []
  }
  for await (const rows of store.streamRows<Record<string, unknown>>(source.query, source.params, 'JSONEachRow')) {
    for (const row of rows) {
      batch.push(source.row(row))
      progress.add(counter)
      if (batch.length >= BATCH) await flush()
    }
  }
  await flush()
}

/** Upserts rows (values in `table.columns` order); answers how many were added or changed. */
async function upsert(target: Sql, table: Table, rows: unknown[][]): Promise<number> {
  const names = table.columns.map(([n]) => n)
  const rest = names.filter((n) => !table.key.includes(n))
  const params = table.columns.map((_, i) => rows.map((r) => r[i]))
  const written = await target.query(
    `INSERT INTO ${table.name} (${names.join(', ')})
     SELECT * FROM unnest(${table.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
     ON CONFLICT (${table.key.join(', ')}) DO UPDATE SET ${rest.map((n) => `${n} = EXCLUDED.${n}`).join(', ')}
     WHERE (${rest.map((n) => `${table.name}.${n}`).join(', ')}) IS DISTINCT FROM (${rest.map((n) => `EXCLUDED.${n}`).join(', ')})
     RETURNING 1`,
    params,
  )
  return written.length
}
