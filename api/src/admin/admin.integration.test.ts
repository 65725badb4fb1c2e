import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chTime } from '@fl0/contracts'
import { addCallbackRefusals, openPglite, type Sql } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { createTestApi, TEST_PUBLIC_URL, type TestApi } from '../testing.ts'
import { hashEmail, writeMmdb } from '@fl0/workers'

/**
 * The admin calls end to end on PGlite and chDB: every import run twice
 * (the second changes nothing), the refreshes, the copy to another
 * PostgreSQL (PGlite here; postgres in copy-export.cluster.test.ts), the
 * grids with their filters, and visits resolved to people and companies.
 */
let t: TestApi
let staff: { cookie: string }
let member: { cookie: string }
let orgId: string
let exportDb: Sql
beforeAll(async () => {
  exportDb = await openPglite()
  const keepOpen: Sql = { ...exportDb, close: async () => {} }
  t = await createTestApi({ exportDatabase: async () => keepOpen })
  staff = await t.signUp('Root')
  member = await t.signUp('Member')
  await t.createOrg(member.cookie, 'Initech')
  orgId = ((await (await t.call('GET', '/api-v2/admin/orgs', { cookie: staff.cookie })).json()) as Array<{ value: string }>)[0]!.value
})
afterAll(async () => {
  await t?.close()
  await exportDb?.close()
})

const UP1 = '5x5-00000000000000000000000000000001'
const UP2 = '5x5-00000000000000000000000000000002'
const UP3 = '5x5-00000000000000000000000000000003'

function upload(path: string, name: string, content: string | Buffer, cookie = staff.cookie) {
  const form = new FormData()
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name)
  return t.app.request(`${TEST_PUBLIC_URL}/api-v2/admin/${path}`, { method: 'POST', body: form, headers: { cookie } })
}
const post = (path: string, cookie = staff.cookie) => t.call('POST', `/api-v2/admin/${path}`, { cookie })
const get = async (path: string) => {
  const res = await t.call('GET', `/api-v2/admin/${path}`, { cookie: staff.cookie })
  expect(res.status).toBe(200)
  return (await res.json()) as { data: Array<Record<string, unknown>>; total: number }
}
const counts = async (res: Response) => {
  const body = (await res.json()) as { counts: Record<string, number>; status: string; message: string }
  expect(res.status, JSON.stringify(body)).toBe(200)
  expect(body.status).toBe('succeeded')
  return body.counts
}

const IP_CSV = [
  'network,first_ip,last_ip,company_name,domain,kind',
  '45.12.3.0/24,,,Acme Corp,acme.com,company',
  ',45.12.4.0,45.12.4.99,Globex,www.globex.com,company',
  '2001:db8:1f::/48,,,Acme Corp,acme.com,company',
  '71.160.0.0/11,,,Northwind Broadband,,isp',
  '45.0.0.0/8,,,Big Hosting,,hosting',
  '45.12.3.0/33,,,Broken,,company',
  ',45.12.9.9,45.12.9.1,Backwards,,company',
  '45.12.5.0/24,,,Unknown kind,,datacenter',
].join('\n')

const UNIVERSAL_CSV = [
  'up_id,first_name,last_name,job_title,company_name,company_domain,linkedin_url,business_email,personal_email,employees,revenue,city,region,country',
  `${UP1},Ada,Lovelace,CTO,Acme Corp,acme.com,https://www.linkedin.com/in/ada,ada@acme.com,,120,25000000,London,,GB`,
  `${UP2},Grace,Hopper,Admiral,Globex,globex.com,,,grace@gmail.com,5000,,Arlington,VA,US`,
  '5x5-123,Bad,Id,,,,,,,,,,,',
  `${UP3},Alan,Turing,Researcher,,,,,alan@yahoo.com,,,,,GB`,
  `"${UP3}",Unclosed "quote,,,,,,,,,,,,`,
].join('\n')

const T0 = Date.parse('2026-03-01T09:00:00.000Z')
const at = (min: number) => new Date(T0 + min * 60_000)

describe('admin tools and grids', () => {
  it('refuses every admin call to anyone but staff', async () => {
    for (const path of ['summary', 'universal-table', 'identified-visits-table', 'pages-table', 'people-table', 'ip-to-company-table', 'jobs', 'universal-table/import']) {
      expect((await t.call('GET', `/api-v2/admin/${path}`, { cookie: member.cookie })).status).toBe(403)
      expect((await t.call('GET', `/api-v2/admin/${path}`)).status).toBe(401)
    }
    for (const path of ['import-cookies', 'import-ip-to-company', 'import-business-intents', 'universal-table/import']) {
      const res = await upload(path, 'x.csv', 'a,b\n1,2', member.cookie)
      expect(res.status).toBe(403)
      expect(await res.json()).toEqual({ success: false, message: 'Only staff can do this', errors: [] })
    }
    for (const path of ['refresh-sessions', 'refresh-pages-and-activities', 'copy-pages-to-supabase']) expect((await post(path, member.cookie)).status).toBe(403)
  })

  it('refuses a refresh or copy whose body cannot say which organisation, rather than run it for all', async () => {
    const refresh = (body: unknown) => t.call('POST', '/api-v2/admin/refresh-sessions', { cookie: staff.cookie, body })
    for (const body of [{ orgId: 42 }, { orgId: '' }, { orgId: 'no-such-org' }]) {
      const res = await refresh(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ errors: [{ name: 'orgId', message: 'orgId must be the id of an organization' }] })
    }
    for (const body of ['{"orgId": ', '[]']) {
      const res = await refresh(body)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ errors: [{ name: 'body', message: 'The request body must be a JSON object' }] })
    }
    expect((await (await t.call('GET', '/api-v2/admin/jobs', { cookie: staff.cookie })).json()).data).toEqual([])
  })

  it('asks for a file, and validates the page and the address filter', async () => {
    expect(await (await post('import-cookies')).json()).toEqual({ success: false, message: 'File must be provided', errors: [{ name: 'file', message: 'File must be provided' }] })
    expect((await t.call('GET', '/api-v2/admin/universal-table?page=0', { cookie: staff.cookie })).status).toBe(400)
    const far = await t.call('GET', '/api-v2/admin/pages-table?page=300000000', { cookie: staff.cookie })
    expect(far.status).toBe(400)
    expect(await far.json()).toMatchObject({ errors: [{ name: 'page', message: 'Page must be a whole number from 1 to 1000000' }] })
    const bad = await t.call('GET', '/api-v2/admin/ip-to-company-table?ipAddress=300.1.1.1', { cookie: staff.cookie })
    expect(await bad.json()).toMatchObject({ errors: [{ name: 'ipAddress', message: 'IP address must be a valid IPv4 or IPv6 address' }] })
  })

  it('imports IP ranges, reporting bad lines by number, and a second run changes nothing', async () => {
    const res = await upload('import-ip-to-company', 'ranges.csv', IP_CSV)
    const body = (await res.json()) as { counts: Record<string, number>; errors: Array<{ line: number; message: string }>; message: string }
    expect(body.counts).toEqual({ read: 8, inserted: 5, unchanged: 0, skipped: 3 })
    expect(body.errors.map((e) => e.line)).toEqual([7, 8, 9])
    expect(body.message).toBe('Imported 5 IP ranges from ranges.csv (0 unchanged, 3 skipped)')
    expect(await counts(await upload('import-ip-to-company', 'ranges.csv', IP_CSV))).toEqual({ read: 8, inserted: 0, unchanged: 5, skipped: 3 })
    const grid = await get('ip-to-company-table')
    expect(grid.total).toBe(5)
    const holding = await get('ip-to-company-table?ipAddress=::ffff:45.12.3.9')
    expect(holding.data.map((r) => [r.cidr, r.companyName, r.kind])).toEqual([['45.12.3.0/24', 'Acme Corp', 'company'], ['45.0.0.0/8', 'Big Hosting', 'hosting']])
    expect((await get('ip-to-company-table?ipAddress=45.12.4.50')).data[0]).toMatchObject({ firstIp: '45.12.4.0', lastIp: '45.12.4.99', cidr: null, domain: 'globex.com' })
  })

  it('imports a MaxMind database, twice', async () => {
    const db = writeMmdb([
      { network: '198.51.100.0/24', record: { organization: 'Umbrella', domain: 'umbrella.example', user_type: 'business' } },
      { network: '203.0.113.0/24', record: { isp: 'Cell Co', connection_type: 'Cellular' } },
      { network: '2001:db8:aa::/48', record: { traits: { organization: 'Umbrella', domain: 'umbrella.example', user_type: 'hosting' } } },
      { network: '192.0.2.0/24', record: { note: 'nobody' } },
    ])
    const first = await upload('import-ip-to-company', 'geo.mmdb', db)
    expect(await counts(first)).toEqual({ read: 4, inserted: 3, unchanged: 0, skipped: 1 })
    expect(await counts(await upload('import-ip-to-company', 'geo.mmdb', db))).toEqual({ read: 4, inserted: 0, unchanged: 3, skipped: 1 })
    expect((await get('ip-to-company-table?ipAddress=203.0.113.7')).data).toMatchObject([{ companyName: 'Cell Co', kind: 'mobile', source: 'mmdb', cidr: '203.0.113.0/24' }])
    expect((await get('ip-to-company-table?ipAddress=2001:db8:aa::1')).data).toMatchObject([{ companyName: 'Umbrella', kind: 'hosting', cidr: '2001:db8:aa::/48' }])
  })

  it('streams the universal table import, skipping bad rows by line number; a second run changes nothing', async () => {
    const res = await upload('universal-table/import', 'people.csv', UNIVERSAL_CSV)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const log = await res.text()
    expect(log.split('\n')[0]).toBe('Importing universal table from people.csv')
    expect(log).toContain('line 4: up_id must be 5x5- followed by 32 digits (skipped)')
    expect(log).toMatch(/line 6: not readable as CSV: .* \(skipped\)/)
    expect(log).toMatch(/\nDone: 5 rows read: 3 imported, 0 unchanged, 2 skipped in [\d.]+ s\n$/)
    const again = await (await upload('universal-table/import', 'people.csv', UNIVERSAL_CSV)).text()
    expect(again).toMatch(/Done: 5 rows read: 0 imported, 3 unchanged, 2 skipped/)
    const grid = await get(`universal-table?upId=${UP1}`)
    expect(grid.total).toBe(1)
    expect(grid.data[0]).toMatchObject({ upId: UP1, firstName: 'Ada', companyDomain: 'acme.com', businessEmailSha256: hashEmail('ada@acme.com'), employees: 120 })
    expect((await get('universal-table')).total).toBe(3)
    const follow = await (await t.call('GET', '/api-v2/admin/universal-table/import', { cookie: staff.cookie })).text()
    expect(follow).toContain('Done: 5 rows read: 0 imported, 3 unchanged, 2 skipped')
  })

  it('answers an import whose end cannot be saved with its failure, and stays up', async () => {
    // PostgreSQL refuses the job's last update (its end), as when the database goes away at that moment.
    await t.sql.exec(`CREATE FUNCTION refuse_job_end() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.finished_at IS NOT NULL THEN RAISE EXCEPTION 'the database went away'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_job_end BEFORE UPDATE ON admin_jobs FOR EACH ROW EXECUTE FUNCTION refuse_job_end()`)
    try {
      const res = await upload('universal-table/import', 'people.csv', UNIVERSAL_CSV)
      expect(res.status).toBe(200)
      expect(await res.text()).toMatch(/\nFailed: .*the database went away\n$/)
    } finally {
      await t.sql.exec(`DROP TRIGGER refuse_job_end ON admin_jobs; DROP FUNCTION refuse_job_end();
        UPDATE admin_jobs SET status = 'failed', finished_at = now() WHERE status = 'running'`)
    }
    expect((await t.call('GET', '/api-v2/admin/universal-table/import', { cookie: staff.cookie })).status).toBe(200)
  })

  it('imports cookies and business intents, twice', async () => {
    const cookies = `puid,upid,hem\np-ada,${UP1},\np-grace,,${hashEmail('grace@gmail.com')}\np-bad,5x5-1,\n`
    expect(await counts(await upload('import-cookies', 'cookies.csv', cookies))).toEqual({ read: 3, inserted: 1, unchanged: 0, skipped: 2 })
    const cookies2 = `puid,upid,hem\np-ada,${UP1},\np-grace,${UP2},${hashEmail('grace@gmail.com')}\n`
    expect(await counts(await upload('import-cookies', 'cookies.csv', cookies2))).toEqual({ read: 2, inserted: 1, unchanged: 1, skipped: 0 })
    expect(await counts(await upload('import-cookies', 'cookies.csv', cookies2))).toEqual({ read: 2, inserted: 0, unchanged: 2, skipped: 0 })
    const intents = 'company_domain,topic,score,date\nacme.com,Visitor identification,87,2026-02-27\nwww.acme.com,Product analytics,64.5,2026-02-28\nacme.com,Bad,x,2026-02-28\nacme.com,Bad date,1,2026-02-30\n'
    expect(await counts(await upload('import-business-intents', 'intents.csv', intents))).toEqual({ read: 4, inserted: 2, unchanged: 0, skipped: 2 })
    expect(await counts(await upload('import-business-intents', 'intents.csv', intents))).toEqual({ read: 4, inserted: 0, unchanged: 2, skipped: 2 })
  })

  it('refreshes sessions from the events, resolving visits to people and companies; twice changes nothing', async () => {
    await insertEvents(t.events, [
      // Ada: at the office, identified by the cookie link to her universal record.
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-ada', timestamp: at(0), ip: '45.12.3.9', context: { puid: 'p-ada' } }),
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-ada', timestamp: at(20), ip: '45.12.3.9', context: { puid: 'p-ada' } }),
      // Grace, from home (a provider's range), linked by the cookie's up_id.
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-grace', timestamp: at(5), ip: '71.160.9.9', context: { puid: 'p-grace' } }),
      // Someone at Globex's office nobody knows: the company from the address.
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-anon', timestamp: at(6), ip: '45.12.4.10', context: { puid: 'p-anon' } }),
      // At home, unknown: nothing (the provider is never the company).
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-home', timestamp: at(7), ip: '71.160.1.1', context: { puid: 'p-home' } }),
      // A user with a business e-mail at a domain no range names, and Alan with free mail, found by his e-mail's hash.
      eventRow({ org_id: orgId, type: 'identify', user_id: 'u-bob', anonymous_id: 'a-bob', timestamp: at(8), ip: '8.8.8.8', traits: { email: 'bob@initech.com', name: 'Bob' } }),
      eventRow({ org_id: orgId, type: 'identify', user_id: 'u-alan', anonymous_id: 'a-alan', timestamp: at(9), ip: '71.160.2.2', traits: { email: 'Alan@Yahoo.com' } }),
      // Bob's earlier anonymous visit, on the same device, is his too.
      eventRow({ org_id: orgId, type: 'page', anonymous_id: 'a-bob', timestamp: at(-120), ip: '45.12.4.11' }),
    ])
    const first = await counts(await post('refresh-sessions'))
    expect(first).toMatchObject({ events: 8, visits: 7, written: 7, removed: 0 })
    const second = await counts(await post('refresh-sessions'))
    expect(second).toMatchObject({ events: 8, visits: 7, written: 0, removed: 0, unchanged: 7 })

    const visits = await get(`identified-visits-table?orgId=${orgId}`)
    expect(visits.total).toBe(7)
    const byVisitor = Object.fromEntries(visits.data.map((v) => [`${v.visitorId}@${v.startedAt}`, v]))
    const ada = byVisitor[`a-ada@${at(0).toISOString()}`]!
    expect(ada).toMatchObject({ events: 2, pages: 2, personVia: 'callback', upId: UP1, personName: 'Ada Lovelace', companyDomain: 'acme.com', companyVia: 'callback', ipKind: 'company', endedAt: at(20).toISOString() })
    expect(byVisitor[`a-grace@${at(5).toISOString()}`]).toMatchObject({ personVia: 'callback', upId: UP2, companyDomain: 'globex.com', companyVia: 'callback', ipKind: 'isp', ipCompany: 'Northwind Broadband' })
    expect(byVisitor[`a-anon@${at(6).toISOString()}`]).toMatchObject({ personVia: null, companyDomain: 'globex.com', companyName: 'Globex', companyVia: 'ip' })
    expect(byVisitor[`a-home@${at(7).toISOString()}`]).toMatchObject({ personVia: null, companyDomain: null, companyVia: null, ipKind: 'isp' })
    expect(byVisitor[`a-bob@${at(8).toISOString()}`]).toMatchObject({ personKey: 'u-bob', personVia: 'identify', personName: 'Bob', companyDomain: 'initech.com', companyVia: 'email_domain' })
    expect(byVisitor[`a-bob@${at(-120).toISOString()}`]).toMatchObject({ personKey: 'u-bob', companyDomain: 'initech.com', companyVia: 'email_domain' })
    expect(byVisitor[`a-alan@${at(9).toISOString()}`]).toMatchObject({ personKey: 'u-alan', personVia: 'identify', upId: UP3, personName: 'Alan Turing', companyVia: null })

  })

  it('lists people with what identification knows of them, by name, and the ranges an organisation matched', async () => {
    const people = await get(`people-table?orgId=${orgId}`)
    expect(people.data.map((p) => p.personKey).sort()).toEqual(['anon:a-ada', 'anon:a-grace', 'u-alan', 'u-bob'])
    expect(people.data.map((p) => p.anonymous)).toEqual([false, false, false, false])
    expect(people.data.find((p) => p.personKey === 'anon:a-ada')).toMatchObject({ name: 'Ada Lovelace', role: 'CTO', hasBusinessEmail: true, location: 'London, GB', linkedinUrl: 'https://www.linkedin.com/in/ada', visits: 1 })
    expect(people.data.find((p) => p.personKey === 'anon:a-grace')).toMatchObject({ hasPersonalEmail: true, hasHem: true })
    const all = await get(`people-table?orgId=${orgId}&showIp2Company=true`)
    expect(all.total).toBe(6)
    expect(all.data.find((p) => p.personKey === 'anon:a-anon')).toMatchObject({ companyDomain: 'globex.com', companyVia: 'ip', anonymous: true })
    expect(all.data.find((p) => p.personKey === 'anon:a-ada')).toMatchObject({ anonymous: false })
    expect(all.data.find((p) => p.personKey === 'u-bob')).toMatchObject({ companyDomain: 'initech.com', companyVia: 'email_domain' })
    expect((await get(`people-table?orgId=${orgId}&name=lovel`)).data.map((p) => p.personKey)).toEqual(['anon:a-ada'])
    const used = await get(`ip-to-company-table?orgId=${orgId}`)
    expect(used.data.map((r) => [r.companyName, r.visits])).toEqual([['Acme Corp', 1], ['Globex', 2], ['Northwind Broadband', 3]])
  })

  it('refreshes pages and activities, twice, and copies people and pages to the export database, twice', async () => {
    expect(await counts(await post('refresh-pages-and-activities'))).toMatchObject({ pages: 6, pagesWritten: 6 })
    expect(await counts(await post('refresh-pages-and-activities'))).toMatchObject({ pages: 6, pagesWritten: 0, activitiesWritten: 0 })
    const pages = await get(`pages-table?orgId=${orgId}`)
    expect(pages.total).toBe(6)
    expect(pages.data.find((p) => p.viewedAt === at(0).toISOString())).toMatchObject({ timeOnPage: 1200, personName: 'Ada Lovelace', companyDomain: 'acme.com' })

    const first = await counts(await post('copy-pages-to-supabase'))
    expect(first).toMatchObject({ people: 6, peopleWritten: 6, pages: 6, pagesWritten: 6 })
    const second = await counts(await post('copy-pages-to-supabase'))
    expect(second).toMatchObject({ people: 6, peopleWritten: 0, pages: 6, pagesWritten: 0 })
    const [row] = await exportDb.query<{ n: number }>('SELECT count(*)::int AS n FROM fl0_people')
    expect(row!.n).toBe(6)
  })

  it('sums it up, and lists the jobs', async () => {
    const summary = await get('summary')
    const value = (key: string) => summary.data.find((r) => r.key === key)?.value
    expect(value('identifiedVisits')).toBe(7)
    expect(value('visitsWithCompany')).toBe(5)
    expect(value('universalPersons')).toBe(3)
    expect(value('providerRanges')).toBe(4)
    // The identity callback's refusals, summed over days, one row per reason, each reason shown even at 0.
    await addCallbackRefusals(t.sql, '2026-03-01', { rate_limited: 4, replayed: 1 })
    await addCallbackRefusals(t.sql, '2026-03-02', { replayed: 2 })
    const refused = (await get('summary')).data.filter((r) => String(r.key).startsWith('callbacksRefused'))
    expect(refused.map((r) => [r.key, r.value])).toEqual([
      ['callbacksRefusedRateLimited', 4],
      ['callbacksRefusedBadSignature', 0],
      ['callbacksRefusedStaleTimestamp', 0],
      ['callbacksRefusedReplayed', 3],
      ['callbacksRefusedMissingSignature', 0],
      ['callbacksRefusedInvalidIds', 0],
    ])
    expect(refused[3]!.label).toBe('Identity callbacks refused: signed URL already used (replayed)')
    const jobs = await get('jobs')
    expect(jobs.total).toBeGreaterThan(10)
    expect(jobs.data.length).toBe(20 > jobs.total ? jobs.total : 20)
  })
})

describe('the company page', () => {
  it('finds a company known only from identified visits, with its business intents', async () => {
    const code = ((await (await t.call('GET', '/api/users/me', { cookie: member.cookie })).json()) as { orgs: Array<{ url_code: string }> }).orgs[0]!.url_code
    t.clock.now = new Date('2026-03-02T09:00:00.000Z')
    const res = await t.call('GET', `/api-v2/orgs/${code}/companies/acme.com`, { cookie: member.cookie })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { intents: unknown; domain: string }
    expect(body.intents).toEqual([
      { topic: 'Product analytics', score: 64.5, date: '2026-02-28' },
      { topic: 'Visitor identification', score: 87, date: '2026-02-27' },
    ])
    const details = (await (await t.call('GET', `/api-v2/orgs/${code}/companies/globex.com/details`, { cookie: member.cookie })).json()) as { identifiedBy: string[]; knownPeople: number }
    expect(details).toMatchObject({ identifiedBy: ['ip', 'callback'], knownPeople: 2 })
  })
})

describe('the people list', () => {
  it('fills what the events leave empty from identification: a partner record, a company from the address', async () => {
    const code = ((await (await t.call('GET', '/api/users/me', { cookie: member.cookie })).json()) as { orgs: Array<{ url_code: string }> }).orgs[0]!.url_code
    const res = await t.call('GET', `/api-v2/orgs/${code}/people?page=1&ip2company=true`, { cookie: member.cookie })
    expect(res.status).toBe(200)
    const { users } = (await res.json()) as { users: Array<Record<string, unknown>> }
    const byId = Object.fromEntries(users.map((u) => [u.id, u]))
    expect(byId['anon:a-ada']).toMatchObject({ visitor: 'Ada Lovelace', company: 'Acme Corp', companyDomain: 'acme.com', role: 'CTO', employees: 120, linkedInUrl: 'https://www.linkedin.com/in/ada', hasBusinessEmail: true })
    expect(byId['anon:a-grace']).toMatchObject({ visitor: 'Grace Hopper', companyDomain: 'globex.com', hasPersonalEmail: true, hasHEM: true })
    expect(byId['anon:a-anon']).toMatchObject({ visitor: 'Anonymous visitor', company: 'Globex', companyDomain: 'globex.com' })
    expect(byId['anon:a-home']).toMatchObject({ company: null, companyDomain: null })
    expect(byId['u-alan']).toMatchObject({ role: 'Researcher', company: null })
    // Bob's own company (his e-mail's domain) before that of the office he once visited from (Globex's range).
    expect(byId['u-bob']).toMatchObject({ companyDomain: 'initech.com' })
  })

  it("names the week's people and companies on the home page from identification too", async () => {
    const code = ((await (await t.call('GET', '/api/users/me', { cookie: member.cookie })).json()) as { orgs: Array<{ url_code: string }> }).orgs[0]!.url_code
    const res = await t.call('GET', `/api-v2/orgs/${code}/home`, { cookie: member.cookie })
    expect(res.status).toBe(200)
    const home = (await res.json()) as { people: { top: Array<Record<string, unknown>> }; companies: { top: Array<Record<string, unknown>> } }
    // Globex: a visitor known only by its office's address and Grace by her partner record; Acme by Ada's;
    // Initech by Bob's e-mail, not by the Globex office he once visited from.
    expect(home.companies.top).toEqual([
      { domain: 'globex.com', name: 'Globex', people: 2, events: 2, isNew: true },
      { domain: 'acme.com', name: 'Acme Corp', people: 1, events: 2, isNew: true },
      { domain: 'initech.com', name: 'initech.com', people: 1, events: 1, isNew: true },
    ])
    // Identified people only: Bob, with his anonymous page view before he signed up.
    expect(home.people.top).toMatchObject([{ id: 'u-bob', name: 'Bob', company: 'initech.com', companyDomain: 'initech.com', events: 1 }])
  })
})
