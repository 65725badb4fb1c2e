import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestFl0, type TestFl0 } from '@fl0/server/testing'

/**
 * Identification end to end through a running fl0: ranges and the universal
 * table uploaded by staff over HTTP, events through the ingest, the identity
 * partner's pixel, the identity worker matching each event's address as it is
 * written, and the admin grid showing each visit's person and company.
 */
const UP = '5x5-00000000000000000000000000000077'
let fl0: TestFl0
let cookie: string
beforeAll(async () => {
  fl0 = await startTestFl0()
  cookie = await fl0.signUp('Root', 'root@example.com')
})
afterAll(async () => {
  await fl0?.stop()
})

async function upload(path: string, name: string, content: string) {
  const form = new FormData()
  form.append('file', new Blob([content]), name)
  const res = await fetch(`${fl0.url}/api-v2/admin/${path}`, { method: 'POST', body: form, headers: { cookie } })
  expect(res.status, await res.clone().text()).toBe(200)
  return res.text()
}

describe('identification through the ingest', () => {
  it('matches addresses as events are written and resolves a callback-linked visitor', async () => {
    await upload('import-ip-to-company', 'ranges.csv', 'network,company_name,domain,kind\n45.12.3.0/24,Acme Corp,acme.com,company\n71.160.0.0/11,Northwind Broadband,,isp\n2001:db8:1f::/48,Acme Corp,acme.com,company\n')
    expect(await upload('universal-table/import', 'u.csv', `up_id,first_name,last_name,job_title,company_name,company_domain\n${UP},Ada,Lovelace,CTO,Globex,globex.com\n`)).toContain('Done: 1 rows read: 1 imported')

    const auth = `Basic ${Buffer.from(`${fl0.snippet.write_key}:`).toString('base64')}`
    const page = (anonymousId: string, ip: string, puid: string) => ({ type: 'page', anonymousId, name: 'Home', context: { ip, puid }, timestamp: new Date().toISOString() })
    const sent = await fetch(`${fl0.url}/v1/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify({ batch: [page('a-office', '45.12.3.20', 'p-office'), page('a-v6', '2001:db8:1f::20', 'p-v6'), page('a-home', '71.160.3.3', 'p-home')] }),
    })
    expect(sent.status).toBe(200)
    const pixel = await fetch(`${fl0.url}/i/callback?puid=p-home&upid=${UP}`)
    expect(pixel.status).toBe(200)
    expect(pixel.headers.get('content-type')).toBe('image/gif')

    await fl0.waitForCount('SELECT count() AS n FROM identified_visits FINAL WHERE org_id = {org:String}', { org: fl0.org.id }, 3)
    await fl0.waitForCount(`SELECT count() AS n FROM identity_links WHERE puid = 'p-home'`, {}, 1)
    // The grid counts each visit's events from \`events\`, which the event writer (its own consumer group) fills.
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String}', { org: fl0.org.id }, 3)
    const res = await fetch(`${fl0.url}/api-v2/admin/identified-visits-table?orgId=${fl0.org.id}`, { headers: { cookie } })
    const { data, total } = (await res.json()) as { data: Array<Record<string, unknown>>; total: number }
    expect(total).toBe(3)
    const by = Object.fromEntries(data.map((v) => [v.visitorId, v]))
    expect(by['a-office']).toMatchObject({ ipKind: 'company', companyDomain: 'acme.com', companyVia: 'ip', personVia: null, events: 1, pages: 1 })
    expect(by['a-v6']).toMatchObject({ ip: '2001:db8:1f::20', companyDomain: 'acme.com', companyVia: 'ip' })
    expect(by['a-home']).toMatchObject({ ipKind: 'isp', ipCompany: 'Northwind Broadband', personVia: 'callback', upId: UP, personName: 'Ada Lovelace', companyDomain: 'globex.com', companyVia: 'callback' })
  })
})
