import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMembership, findCallbackOrg } from '@fl0/stores'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { storeLinks } from '@fl0/workers'
import { createTestApi, TEST_PUBLIC_URL, type TestApi } from '../testing.ts'

/**
 * The identity callback's secret (/api-v2/orgs/{organization}/settings/callback-secret)
 * on PGlite and chDB: shown once, rotated, removed, by admins only; and what
 * it does to the resolution: while an organisation has one, only links signed
 * for it and cookie imports count for it, not unsigned callbacks.
 */
let t: TestApi
let ada: { cookie: string; orgId: string }
let bob: { cookie: string }
let globexId: string
beforeAll(async () => {
  t = await createTestApi()
  ada = await t.signUpWithOrg('Ada', 'Acme') // the first account: staff too
  await t.createOrg(ada.cookie, 'Globex')
  globexId = ((await findCallbackOrg(t.sql, 'globex')) as { orgId: string }).orgId
  const member = await t.signUp('Bob')
  await addMembership(t.sql, { orgId: ada.orgId, userId: member.user.id, role: 'member' })
  bob = member
})
afterAll(() => t?.close())

const path = (org = 'acme') => `/api-v2/orgs/${org}/settings/callback-secret`
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> })

describe('the callback secret', () => {
  it('is set by an admin and shown once, rotated, and removed; members see only whether there is one', async () => {
    expect(await json(await t.call('GET', path(), { cookie: bob.cookie }))).toEqual({ status: 200, body: { orgId: ada.orgId, configured: false, createdAt: null } })

    const set = await json(await t.call('POST', path(), { cookie: ada.cookie }))
    expect(set).toEqual({ status: 200, body: { orgId: ada.orgId, configured: true, createdAt: t.clock.now.toISOString(), secret: expect.stringMatching(/^[0-9a-f]{64}$/) } })
    expect((await findCallbackOrg(t.sql, ada.orgId))?.secret).toBe(set.body.secret)
    for (const cookie of [ada.cookie, bob.cookie]) {
      expect(await json(await t.call('GET', path(), { cookie }))).toEqual({ status: 200, body: { orgId: ada.orgId, configured: true, createdAt: t.clock.now.toISOString() } })
    }
    expect(t.logs.find((l) => l.msg === 'identity callback secret set')?.obj).toEqual({ orgId: ada.orgId, userId: expect.any(String) })

    const rotated = await json(await t.call('POST', path(), { cookie: ada.cookie }))
    expect(rotated.body.secret).toMatch(/^[0-9a-f]{64}$/)
    expect(rotated.body.secret).not.toBe(set.body.secret)
    expect((await findCallbackOrg(t.sql, ada.orgId))?.secret).toBe(rotated.body.secret)

    expect(await json(await t.call('DELETE', path(), { cookie: ada.cookie }))).toEqual({ status: 200, body: { orgId: ada.orgId, configured: false, createdAt: null } })
    expect((await findCallbackOrg(t.sql, ada.orgId))?.secret).toBeNull()
    expect((await json(await t.call('DELETE', path(), { cookie: ada.cookie }))).status).toBe(200) // removing none is no error
  })

  it('is changed by admins only, and is no business of other organisations or of anonymous callers', async () => {
    for (const method of ['POST', 'DELETE']) {
      expect(await json(await t.call(method, path(), { cookie: bob.cookie }))).toMatchObject({ status: 403, body: { message: 'Only organization admins can do this' } })
    }
    const stranger = await t.signUpWithOrg('Eve', 'Evil')
    for (const method of ['GET', 'POST', 'DELETE']) expect((await t.call(method, path(), { cookie: stranger.cookie })).status).toBe(404)
    for (const method of ['GET', 'POST', 'DELETE']) expect((await t.call(method, path())).status).toBe(401)
    expect((await findCallbackOrg(t.sql, ada.orgId))?.secret).toBeNull()
  })
})

describe('the resolution with a callback secret', () => {
  const UP1 = '5x5-00000000000000000000000000000001'
  const T0 = Date.parse('2026-03-01T10:00:00.000Z')
  const at = (min: number) => new Date(T0 + min * 60_000)
  const linkedAt = '2026-03-01 10:00:00.000'

  /** Each visitor of an organisation, with who the resolution says they are. */
  async function persons(orgId: string) {
    const res = await t.call('GET', `/api-v2/admin/identified-visits-table?orgId=${orgId}`, { cookie: ada.cookie })
    expect(res.status).toBe(200)
    const rows = ((await res.json()) as { data: Array<{ visitorId: string; personVia: string | null; upId: string | null }> }).data
    return Object.fromEntries(rows.map((r) => [r.visitorId, r.personVia && `${r.personVia}:${r.upId}`]))
  }

  it('counts for an organisation with a secret only the links signed for it and cookie imports; without, every unsigned one too', async () => {
    const form = new FormData()
    form.append('file', new Blob([`up_id,first_name,last_name\n${UP1},Ada,Lovelace\n`]), 'people.csv')
    const imported = await t.app.request(`${TEST_PUBLIC_URL}/api-v2/admin/universal-table/import`, { method: 'POST', body: form, headers: { cookie: ada.cookie } })
    expect(await imported.text()).toContain('Done:')
    const visit = (orgId: string, visitor: string, min: number) => eventRow({ org_id: orgId, type: 'page', anonymous_id: visitor, timestamp: at(min), context: { puid: `puid-${visitor}` } })
    await insertEvents(t.events, [
      visit(ada.orgId, 'unsigned', 0),
      visit(ada.orgId, 'signed', 1),
      visit(ada.orgId, 'signed-for-globex', 2),
      visit(ada.orgId, 'cookie', 3),
      visit(globexId, 'globex-unsigned', 4),
    ])
    const refreshed = await t.call('POST', '/api-v2/admin/refresh-sessions', { cookie: ada.cookie })
    expect(refreshed.status).toBe(200)
    // As the identity worker stores them (workers/src/identity/links.ts).
    const link = (visitor: string, source: 'callback' | 'cookies', orgId: string) => ({ puid: `puid-${visitor}`, up_id: UP1, hem: '', source, linked_at: linkedAt, org_id: orgId })
    await storeLinks(t.events, [
      link('unsigned', 'callback', ''),
      link('signed', 'callback', ada.orgId),
      link('signed-for-globex', 'callback', globexId),
      link('cookie', 'cookies', ''),
      link('globex-unsigned', 'callback', ''),
    ])
    const person = `callback:${UP1}`
    const open = { unsigned: person, signed: person, 'signed-for-globex': null, cookie: person }
    expect(await persons(ada.orgId)).toEqual(open)

    expect((await t.call('POST', path(), { cookie: ada.cookie })).status).toBe(200)
    expect(await persons(ada.orgId)).toEqual({ ...open, unsigned: null })
    expect(await persons(globexId)).toEqual({ 'globex-unsigned': person })

    expect((await t.call('DELETE', path(), { cookie: ada.cookie })).status).toBe(200)
    expect(await persons(ada.orgId)).toEqual(open)
  })
})
