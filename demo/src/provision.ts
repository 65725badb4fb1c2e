import { createOrganisation, createSource, findOrganisationByUrlCode, listSources, type Organisation, type Source, type Sql } from '@fl0/stores'
import { SITE_HOST } from './generator/index.ts'

/**
 * The demo organisation (url_code 'demo') with its two sources: the website's
 * snippet ('js-snippet', for demo.fl0.dev) and a Segment source ('segment').
 * Found again on later runs, so write keys stay the same; what is missing is
 * made (a source deleted since is made anew, with a new key).
 */
export const DEMO_URL_CODE = 'demo'
export const DEMO_ORG_NAME = 'Demo'
export const SNIPPET_SOURCE = { type: 'snippet', name: 'js-snippet', url: SITE_HOST } as const
export const SEGMENT_SOURCE = { type: 'segment', name: 'segment' } as const

export interface DemoOrganisation {
  org: Organisation
  snippet: Source
  segment: Source
  /** What this call made, for the log: 'organisation', 'js-snippet', 'segment'. */
  created: string[]
}

export async function ensureDemoOrganisation(sql: Sql): Promise<DemoOrganisation> {
  const created: string[] = []
  let org = await findOrganisationByUrlCode(sql, DEMO_URL_CODE)
  if (!org) {
    org = await createOrganisation(sql, DEMO_ORG_NAME)
    created.push('organisation')
    if (org.url_code !== DEMO_URL_CODE) throw new Error(`the demo organisation got url_code ${org.url_code}, expected ${DEMO_URL_CODE}`)
  }
  const sources = await listSources(sql, org.id)
  const find = (type: string, name: string) => sources.find((s) => s.type === type && s.name === name)
  let snippet = find(SNIPPET_SOURCE.type, SNIPPET_SOURCE.name)
  if (!snippet) {
    snippet = await createSource(sql, { orgId: org.id, ...SNIPPET_SOURCE })
    created.push(SNIPPET_SOURCE.name)
  }
  let segment = find(SEGMENT_SOURCE.type, SEGMENT_SOURCE.name)
  if (!segment) {
    segment = await createSource(sql, { orgId: org.id, ...SEGMENT_SOURCE })
    created.push(SEGMENT_SOURCE.name)
  }
  // Staff (the first account, and whoever it promoted) can open the demo from the dashboard.
  await sql.query(
    `INSERT INTO memberships (org_id, user_id, role) SELECT $1, id, 'admin' FROM users WHERE is_staff
     ON CONFLICT (org_id, user_id) DO NOTHING`,
    [org.id],
  )
  return { org, snippet, segment, created }
}
