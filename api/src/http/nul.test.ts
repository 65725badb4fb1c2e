import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VALUE_MESSAGES } from '@fl0/contracts'
import { createTestApi, TEST_PUBLIC_URL, type TestApi } from '../testing.ts'
import { createErrorHandler, NUL_NOT_STORED } from './errors.ts'

/**
 * The NUL character (\u0000) in any field of any call that writes or looks up
 * metadata: PostgreSQL refuses it in every text value, so it must be turned
 * away at the edge (http/nul.ts) with a 400 naming the field, before a route
 * runs: nothing written, nothing changed. Each case below sends NUL in one
 * field of one call and compares the whole metadata store before and after.
 */
const NUL = '\u0000'
const RULE = VALUE_MESSAGES.nul
const Z = encodeURIComponent(NUL) // %00, as a client puts it in a path or a query

let t: TestApi
let cookie: string
let userId: string
// Placeholders name the cases' paths until beforeAll has made the things they point at.
const ids = Object.fromEntries(['feature', 'metric', 'report', 'audience', 'source', 'analysis', 'invitation', 'invitationId'].map((k) => [k, `{${k}}`])) as Record<
  'feature' | 'metric' | 'report' | 'audience' | 'source' | 'analysis' | 'invitation' | 'invitationId',
  string
>

beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie, user: { id: userId } } = await t.signUpWithOrg('Ada', 'Acme')) // the first account: staff too
  const ok = async (method: string, path: string, body: unknown, status = 201) => {
    const res = await t.call(method, path, { cookie, body })
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(status)
    return (await res.json()) as Record<string, string>
  }
  ids.feature = (await ok('POST', '/api-v2/orgs/acme/features', { name: 'Checkout', events: ['Cart Viewed', 'Order Completed'] })).id!
  ids.metric = (await ok('POST', '/api/orgs/acme/metrics', { name: 'Signups', description: 'New accounts', category: 'Growth', definition: { events: [{ name: 'Signed Up' }] } })).metricId!
  ids.report = (await ok('POST', '/api/orgs/acme/reports', { name: 'Weekly', description: 'Monday', metric_ids: [ids.metric] })).report_id!
  ids.audience = (await ok('POST', '/api/orgs/acme/audiences', { name: 'Pro users', description: 'Paying' })).audience_id!
  ids.source = (await ok('POST', '/api/orgs/acme/sources', { type: 'segment', name: 'Backend' })).id!
  ids.analysis = (await ok('POST', '/api-v2/orgs/acme/scoring/scoring-models/create-new-model', { name: 'Upgrades', metricId: ids.metric })).analysisId!
  ids.invitationId = (await ok('POST', '/api/orgs/acme/users', { invitee_email: 'grace@example.com' })).id!
  ids.invitation = t.invitationLinkFor('grace@example.com').split('/').pop()!
  await ok('POST', '/api-v2/orgs/acme/settings/save-settings', { timezone: 'Europe/Paris', companyPaths: ['/company'] }, 200)
  await ok('POST', '/api-v2/orgs/acme/lexicon/mapping', { featureSelections: { excludedEvents: ['Old Event'], includedProperties: [] } }, 200)
  await ok('POST', '/api/orgs/acme/profile_traits/user', { name: 'plan', hidden: true }, 200)
})
afterAll(() => t?.close())

/** Every row of every table of the metadata store, as text: what "nothing changed" is checked against. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await t.sql.query<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  )
  const out: Record<string, string[]> = {}
  for (const { name } of tables) {
    const rows = await t.sql.query<{ row: string }>(`SELECT row_to_json(x)::text AS row FROM ${name} x`)
    out[name] = rows.map((r) => r.row).sort()
  }
  return out
}

interface Case {
  /** The field the 400 must name: a dotted path in the body, or the path or query parameter's name. */
  field: string
  method: string
  path: () => string
  body?: () => unknown
  /** Sent without the session cookie (the public calls). */
  anonymous?: boolean
}

const body = (method: string, path: () => string, field: string, make: () => unknown, anonymous = false): Case => ({ field, method, path, body: make, anonymous })
const param = (method: string, field: string, path: () => string, make?: () => unknown, anonymous = false): Case => ({ field, method, path, body: make, anonymous })

const features = '/api-v2/orgs/acme/features'
const metrics = '/api/orgs/acme/metrics'
const reports = '/api/orgs/acme/reports'
const audiences = '/api/orgs/acme/audiences'
const sources = '/api/orgs/acme/sources'
const scoring = '/api-v2/orgs/acme/scoring'
const filters = (matches: unknown[]) => ({ match_aggregation: 'and', matches, action_aggregation: 'and', actions: [] })

const CASES: Case[] = [
  // Sign-up, sign-in (public)
  body('POST', () => '/api/auth/local/sign-up', 'name', () => ({ name: `Gr${NUL}ace`, email: 'grace@example.com', password: 'correct horse battery' }), true),
  body('POST', () => '/api/auth/local/sign-up', 'email', () => ({ name: 'Grace', email: `gr${NUL}ace@example.com`, password: 'correct horse battery' }), true),
  body('POST', () => '/api/auth/local/sign-up', 'password', () => ({ name: 'Grace', email: 'grace@example.com', password: `correct horse${NUL}battery` }), true),
  body('POST', () => '/api/auth/local/sign-in', 'email', () => ({ email: `ada@example.com${NUL}`, password: 'correct horse battery' }), true),
  body('POST', () => '/api/auth/local/sign-in', 'password', () => ({ email: 'ada@example.com', password: `correct horse battery${NUL}` }), true),
  body('POST', () => '/api/sign-in', 'token', () => ({ token: `eyJ${NUL}` }), true),
  // Invitations
  param('GET', 'token', () => `/api/invitations/${ids.invitation}${Z}`, undefined, true),
  param('POST', 'token', () => `/api/invitations/${Z}${ids.invitation}/accept`),
  // Organisations, the user's preferences, the team
  body('POST', () => '/api/orgs', 'name', () => ({ name: `Ini${NUL}tech`, variant: 'modal' })),
  body('POST', () => '/api/orgs', 'variant', () => ({ name: 'Initech', variant: `modal${NUL}` })),
  body('PATCH', () => '/api/users/me/preferences', 'defaultOrgUrlCode', () => ({ defaultOrgUrlCode: `acme${NUL}` })),
  param('GET', 'organization', () => `/api/orgs/ac${Z}me/metrics/category`),
  param('GET', 'organization', () => `/api-v2/orgs/${Z}/features`),
  body('POST', () => '/api/orgs/acme/users', 'invitee_email', () => ({ invitee_email: `grace@example.com${NUL}` })),
  param('DELETE', 'userId', () => `/api/orgs/acme/users/${ids.invitationId}${Z}`),
  // Settings, data sources, sources
  body('POST', () => '/api-v2/orgs/acme/settings/save-settings', 'timezone', () => ({ timezone: `UTC${NUL}`, companyPaths: [] })),
  body('POST', () => '/api-v2/orgs/acme/settings/save-settings', 'companyPaths.1', () => ({ timezone: 'UTC', companyPaths: ['/a', `/b${NUL}`] })),
  body('POST', () => '/api-v2/orgs/acme/data-sources/save-data-sources', 'domain', () => ({ domain: `acme${NUL}.com` })),
  body('POST', () => sources, 'name', () => ({ type: 'segment', name: `Web${NUL}` })),
  body('POST', () => sources, 'id', () => ({ type: 'segment', id: `src${NUL}`, name: 'Web' })),
  body('POST', () => sources, 'apiKey', () => ({ type: 'segment', name: 'Web', apiKey: `k${NUL}` })),
  body('PATCH', () => `${sources}/${ids.source}`, 'name', () => ({ name: `Renamed${NUL}` })),
  param('GET', 'sourceId', () => `${sources}/${ids.source}${Z}`),
  param('DELETE', 'sourceId', () => `${sources}/${Z}${ids.source}`),
  // Features
  body('POST', () => features, 'name', () => ({ name: `Sign${NUL}up`, events: [] })),
  body('POST', () => features, 'events.0', () => ({ name: 'Signup', events: [`Signed${NUL}Up`] })),
  body('PATCH', () => `${features}/${ids.feature}`, 'name', () => ({ name: `Check${NUL}out 2` })),
  body('PATCH', () => `${features}/${ids.feature}`, 'events.1', () => ({ events: ['Cart Viewed', `Paid${NUL}`] })),
  param('GET', 'featureId', () => `${features}/${ids.feature}${Z}`),
  param('DELETE', 'featureId', () => `${features}/${Z}${ids.feature}`),
  param('POST', 'featureId', () => `${features}/${ids.feature}${Z}/data/query`, () => ({})),
  // Metrics
  body('POST', () => metrics, 'name', () => ({ name: `Orders${NUL}`, definition: {} })),
  body('POST', () => metrics, 'category', () => ({ name: 'Orders', category: `Re${NUL}venue`, definition: {} })),
  body('POST', () => metrics, 'definition.events.0.name', () => ({ name: 'Orders', definition: { events: [{ name: `Order${NUL}` }] } })),
  body('POST', () => `${metrics}/${ids.metric}`, 'description', () => ({ name: 'Signups 2', description: `All${NUL}`, definition: {} })),
  param('POST', 'metricId', () => `${metrics}/${ids.metric}${Z}`, () => ({ name: 'Signups 2', definition: {} })),
  param('GET', 'metricId', () => `${metrics}/${Z}`),
  param('DELETE', 'metricId', () => `${metrics}/${ids.metric}${Z}`),
  body('POST', () => '/api-v2/orgs/acme/metrics/graph', 'events.0.name', () => ({ events: [{ name: `Signed Up${NUL}` }] })),
  // Reports
  body('POST', () => reports, 'name', () => ({ name: `Daily${NUL}`, metric_ids: [] })),
  body('POST', () => reports, 'description', () => ({ report_id: ids.report, name: 'Weekly 2', description: `Tue${NUL}` })),
  body('POST', () => reports, 'report_id', () => ({ report_id: `${ids.report}${NUL}`, name: 'Weekly 2' })),
  body('POST', () => reports, 'metric_ids.0', () => ({ name: 'Daily', metric_ids: [`${ids.metric}${NUL}`] })),
  param('GET', 'reportId', () => `${reports}/${ids.report}${Z}`),
  param('DELETE', 'reportId', () => `${reports}/${Z}${ids.report}`),
  // Audiences
  body('POST', () => audiences, 'name', () => ({ name: `Free${NUL}` })),
  body('PATCH', () => `${audiences}/${ids.audience}`, 'description', () => ({ name: 'Pro', description: `Paying${NUL}` })),
  body('PATCH', () => `${audiences}/${ids.audience}`, 'filters.matches.0.value', () => ({ filters: filters([{ kind: 'user', trait: 'plan', string_op: 'is', value: `pro${NUL}` }]) })),
  body('POST', () => `${audiences}/filters`, 'filters.matches.0.trait', () => ({ filters: filters([{ kind: 'user', trait: `pl${NUL}an`, string_op: 'is', value: 'pro' }]) })),
  param('GET', 'audienceId', () => `${audiences}/${ids.audience}${Z}`),
  param('DELETE', 'audienceId', () => `${audiences}/${Z}${ids.audience}`),
  // Scoring
  body('POST', () => `${scoring}/scoring-models/create-new-model`, 'name', () => ({ name: `Churn${NUL}`, metricId: ids.metric })),
  body('POST', () => `${scoring}/scoring-models/create-new-model`, 'metricId', () => ({ name: 'Churn', metricId: `${ids.metric}${NUL}` })),
  body('POST', () => `${scoring}/scoring-model/${ids.analysis}/settings/saveSettings`, 'name', () => ({ name: `Renamed${NUL}`, metricId: ids.metric })),
  body('POST', () => `${scoring}/scoring-model/${ids.analysis}/rebuild-model`, 'featureSelections.excludedEvents.0', () => ({
    featureSelections: { excludedEvents: [`Old${NUL}`], includedProperties: [] },
  })),
  param('GET', 'analysisId', () => `${scoring}/scoring-models/${ids.analysis}${Z}`),
  param('DELETE', 'analysisId', () => `${scoring}/scoring-model/${Z}${ids.analysis}`),
  param('GET', 'search', () => `${scoring}/scoring-model/${ids.analysis}/model-output?page=1&search=a${Z}`),
  param('GET', 'userId', () => `${scoring}/scoring-model/${ids.analysis}/model-output/u${Z}1/images`),
  // Lexicon mapping, look-ups, profiles
  body('POST', () => '/api-v2/orgs/acme/lexicon/mapping', 'featureSelections.excludedEvents.0', () => ({ featureSelections: { excludedEvents: [`New${NUL}`], includedProperties: [] } })),
  body('POST', () => '/api-v2/orgs/acme/lexicon/mapping', 'featureSelections.includedProperties.0.property', () => ({
    featureSelections: { excludedEvents: [], includedProperties: [{ event: 'Signed Up', property: `plan${NUL}` }] },
  })),
  param('GET', 'search', () => `/api-v2/orgs/acme/lexicon/mapping/events?search=${Z}`),
  param('GET', 'page', () => `/api-v2/orgs/acme/lexicon/mapping/events?page=1${Z}`),
  param('GET', 'eventName', () => `/api/orgs/acme/lexicon/events/Signed${Z}Up/properties`),
  param('GET', 'eventName', () => `/api/orgs/acme/events/Signed${Z}Up/properties`),
  param('GET', 'path', () => `/api/orgs/acme/events/Signed%20Up/properties/plan${Z}/values`),
  param('GET', 'traitName', () => `/api/orgs/acme/audiences/traits/user/plan${Z}/values`),
  param('GET', 'search', () => `/api-v2/orgs/acme/events?search=Sign${Z}`),
  body('POST', () => '/api/orgs/acme/profile_traits/user', 'name', () => ({ name: `plan${NUL}`, hidden: false })),
  param('POST', 'type', () => `/api/orgs/acme/profile_traits/user${Z}`, () => ({ name: 'plan', hidden: false })),
  param('GET', 'userId', () => `/api/orgs/acme/people/u${Z}1`),
  param('GET', 'userId', () => `/api-v2/orgs/acme/users/u${Z}1/profile/events`),
  param('GET', 'messageId', () => `/api-v2/orgs/acme/users/u1/profile/events/m${Z}1`),
  param('GET', 'companyId', () => `/api/orgs/acme/company/acme.com${Z}`),
  param('GET', 'company', () => `/api-v2/orgs/acme/companies/acme.com${Z}/details`),
  // Admin (staff)
  param('PATCH', 'userId', () => `/api-v2/admin/users/${userId}${Z}`, () => ({ isStaff: false })),
  param('GET', 'id', () => `/api-v2/admin/jobs/${Z}`),
  param('GET', 'name', () => `/api-v2/admin/people-table?name=Ada${Z}`),
  body('POST', () => '/api-v2/admin/refresh-sessions', 'orgId', () => ({ orgId: `x${NUL}` })),
]

describe('NUL (\\u0000) in a field', () => {
  it('covers at least 32 fields', () => {
    expect(new Set(CASES.map((c) => `${c.method} ${c.path()} ${c.field}`)).size).toBe(CASES.length)
    expect(CASES.length).toBeGreaterThanOrEqual(32)
  })

  it.each(CASES.map((c) => [`${c.method} ${c.path()} ${c.field}`, c] as const))(
    '%s: 400 naming the field, nothing changed',
    async (_, c) => {
      const before = await snapshot()
      const res = await t.call(c.method, c.path(), { cookie: c.anonymous ? undefined : cookie, body: c.body?.() })
      const text = await res.text()
      expect(res.status, text).toBe(400)
      expect(JSON.parse(text)).toEqual({ success: false, message: `${c.field} ${RULE}`, errors: [{ name: c.field, message: RULE }] })
      expect(await snapshot()).toEqual(before)
    },
  )

  it('leaves renamed things with their old names and lists as they were', async () => {
    const get = async (path: string) => (await t.call('GET', path, { cookie })).json() as Promise<Record<string, unknown>>
    expect(await get(`${features}/${ids.feature}`)).toMatchObject({ name: 'Checkout', events: [{ event_name: 'Cart Viewed' }, { event_name: 'Order Completed' }] })
    expect(await get(`${metrics}/${ids.metric}`)).toMatchObject({ name: 'Signups', description: 'New accounts', category: 'Growth' })
    expect(await get(`${reports}/${ids.report}`)).toMatchObject({ name: 'Weekly', description: 'Monday' })
    expect(await get(`${audiences}/${ids.audience}`)).toMatchObject({ audience: { name: 'Pro users', description: 'Paying' } })
    expect(await get(`${sources}/${ids.source}`)).toMatchObject({ name: 'Backend' })
    expect(await get(`${scoring}/scoring-model/${ids.analysis}`)).toMatchObject({ name: 'Upgrades' })
    expect(await get('/api-v2/orgs/acme/settings')).toMatchObject({ timezone: 'Europe/Paris', companyPaths: ['/company'] })
    expect(await get('/api-v2/orgs/acme/lexicon/mapping')).toEqual({ featureSelections: { excludedEvents: ['Old Event'], includedProperties: [] } })
    expect(((await get('/api/users/me')) as { orgs: unknown[] }).orgs).toHaveLength(1)
  })

  it('names every field that holds one, a key too, and the top-level value', async () => {
    const res = await t.call('POST', features, { cookie, body: { name: `a${NUL}`, events: ['ok', `b${NUL}`], [`x${NUL}y`]: 1 } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      success: false,
      message: `name ${RULE}`,
      errors: [
        { name: 'name', message: RULE },
        { name: 'events.1', message: RULE },
        { name: 'x\\u0000y', message: RULE },
      ],
    })
    const top = await t.call('POST', features, { cookie, body: JSON.stringify(`a${NUL}`) })
    expect(await top.json()).toMatchObject({ errors: [{ name: 'body', message: RULE }] })
    // The path and the query are checked first (no body is read for them): each named.
    const all = await t.call('PATCH', `${features}/${ids.feature}${Z}?x=${Z}&ok=1&${Z}=1`, { cookie, body: { name: `a${NUL}` } })
    expect(await all.json()).toEqual({
      success: false,
      message: `featureId ${RULE}`,
      errors: [
        { name: 'featureId', message: RULE },
        { name: 'x', message: RULE },
        { name: '\\u0000', message: RULE },
      ],
    })
  })

  it('reads no body for a caller without a session: 401 first', async () => {
    const res = await t.call('POST', features, { body: { name: `a${NUL}` } })
    expect(res.status).toBe(401)
  })

  it('is checked before the session: an anonymous call with NUL in the organisation is a 400 too', async () => {
    const res = await t.call('GET', `/api/orgs/ac${Z}me/metrics/category`)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'organization', message: RULE }] })
  })

  it('lets a backslash followed by u0000 through, and %2500 in a path: that is text, not NUL', async () => {
    const res = await t.call('POST', features, { cookie, body: { name: 'a\\u0000b' } })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ name: 'a\\u0000b' })
    expect((await t.call('GET', `${features}/%2500`, { cookie })).status).toBe(404)
    expect((await t.call('GET', '/api-v2/orgs/acme/events?search=%2500', { cookie })).status).toBe(200)
  })

  it('leaves malformed JSON to the validator', async () => {
    const res = await t.call('POST', features, { cookie, body: '{"name": "\\u0000' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message: 'Malformed JSON in request body', errors: [] })
  })
})

describe('NUL that would reach the store another way', () => {
  it('the error handler answers the store refusing NUL (text or jsonb) with a 400, not a 500', async () => {
    const warned: string[] = []
    const app = new Hono()
    app.onError(createErrorHandler({ info() {}, warn: (_, msg) => void warned.push(msg), error() {} }))
    app.get('/text', async (c) => c.json(await t.sql.query('SELECT $1::text AS x', [`a${NUL}b`])))
    app.get('/jsonb', async (c) => c.json(await t.sql.query('SELECT $1::jsonb AS x', [JSON.stringify({ a: `a${NUL}b` })])))
    for (const path of ['/text', '/jsonb']) {
      const res = await app.request(path)
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ success: false, message: NUL_NOT_STORED, errors: [] })
    }
    expect(warned).toEqual(['api: NUL reached the metadata store', 'api: NUL reached the metadata store'])
  })

  it('a session cookie holding NUL is no session (401), not an error', async () => {
    const res = await t.call('GET', '/api/users/me', { headers: { cookie: `fl0_session=abc${Z}def` } })
    expect(res.status).toBe(401)
    expect((await t.call('POST', '/api/sign-out', { headers: { cookie: `fl0_session=${Z}` } })).status).toBe(204)
  })

  it("an upload's file name holding NUL is a 400 on file, and no job is started", async () => {
    const before = await snapshot()
    const boundary = 'fl0-test-boundary'
    const multipart = [`--${boundary}`, `Content-Disposition: form-data; name="file"; filename="links${NUL}.csv"`, 'Content-Type: text/csv', '', 'puid,upid', `--${boundary}--`, ''].join('\r\n')
    const res = await t.app.request(`${TEST_PUBLIC_URL}/api-v2/admin/import-cookies`, {
      method: 'POST',
      body: multipart,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(res.status, await res.clone().text()).toBe(400)
    expect(await res.json()).toEqual({ success: false, message: `file ${RULE}`, errors: [{ name: 'file', message: RULE }] })
    expect(await snapshot()).toEqual(before)
  })

  it("a file whose content puts NUL in the job's message fails the job, said plainly, not the call", async () => {
    const form = new FormData()
    form.append('file', new Blob([`pu${NUL}id,other\nx,y\n`]), 'links.csv')
    const res = await t.app.request(`${TEST_PUBLIC_URL}/api-v2/admin/import-cookies`, { method: 'POST', body: form, headers: { cookie } })
    expect(res.status, await res.clone().text()).toBe(422)
    const job = ((await res.json()) as { job: { status: string; message: string } }).job
    expect(job.status).toBe('failed')
    expect(job.message).toContain('pu\uFFFDid')
  })
})
