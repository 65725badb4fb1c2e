import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'

/** POST /api/orgs with both name rule sets, and the current user's organisations and preferences. */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUp('Ada'))
})
afterAll(() => t.close())

const create = (body: unknown, c = cookie) => t.call('POST', '/api/orgs', { cookie: c, body })

describe('POST /api/orgs, rule set A (variant form)', () => {
  it.each([
    [undefined, 'Organization name must be provided'],
    ['', 'Organization name must be provided'],
    ['a'.repeat(40), 'Organization name must have less than 40 characters'],
    ['9lives', 'Organization name must start with a-z (lowercase), or A-Z (uppercase)'],
    ['acme-', 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9'],
    ['acme corp', 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -'],
  ])('%j → 400 %s', async (name, message) => {
    const res = await create({ name, variant: 'form' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message, errors: [{ name: 'name', message }] })
  })
})

describe('POST /api/orgs, rule set B (variant modal)', () => {
  it.each([
    [undefined, 'Organization name must be provided'],
    ['', 'Organization name must be provided'],
    ['   ', 'Organization name must be provided'],
    ['a'.repeat(301), 'Organization name must be at most 300 characters'],
    ['acme.io', 'Organization name must only contain letters, numbers, hyphens and spaces'],
  ])('%j → 400 %s', async (name, message) => {
    const res = await create({ name, variant: 'modal' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message, errors: [{ name: 'name', message }] })
  })

  it('names an unknown variant', async () => {
    const res = await create({ name: 'acme', variant: 'popup' })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'variant', message: "variant must be 'form' or 'modal'" }] })
  })
})

describe('creating organisations', () => {
  it('answers a unique url_code made from the name, and makes the creator admin', async () => {
    const first = await create({ name: 'Acme Corp', variant: 'modal' })
    expect(first.status).toBe(201)
    expect(await first.json()).toEqual({ url_code: 'acme-corp' })
    expect(await (await create({ name: 'acme-corp', variant: 'form' })).json()).toEqual({ url_code: 'acme-corp-2' })
    expect(await (await create({ name: 'Café Zürich', variant: 'modal' })).json()).toEqual({ url_code: 'cafe-zurich' })

    const me = (await (await t.call('GET', '/api/users/me', { cookie })).json()) as { orgs: unknown[] }
    expect(me.orgs).toEqual([
      { id: expect.any(String), name: 'Acme Corp', url_code: 'acme-corp', role: 'admin' },
      { id: expect.any(String), name: 'acme-corp', url_code: 'acme-corp-2', role: 'admin' },
      { id: expect.any(String), name: 'Café Zürich', url_code: 'cafe-zurich', role: 'admin' },
    ])
  })

  it("does not show other people's organisations", async () => {
    const { cookie: grace } = await t.signUp('Grace')
    const me = (await (await t.call('GET', '/api/users/me', { cookie: grace })).json()) as { orgs: unknown[] }
    expect(me.orgs).toEqual([])
  })

  it('needs a session', async () => {
    const res = await t.call('POST', '/api/orgs', { body: { name: 'acme', variant: 'form' } })
    expect(res.status).toBe(401)
  })
})

describe('preferences', () => {
  it('saves each preference when it changes, keeping the other', async () => {
    const patch = (body: unknown) => t.call('PATCH', '/api/users/me/preferences', { cookie, body })
    expect(await (await patch({ isMenuCollapsed: true })).json()).toEqual({ preferences: { isMenuCollapsed: true, defaultOrgUrlCode: null } })
    expect(await (await patch({ defaultOrgUrlCode: 'acme-corp-2' })).json()).toEqual({ preferences: { isMenuCollapsed: true, defaultOrgUrlCode: 'acme-corp-2' } })
    expect(await (await patch({ isMenuCollapsed: false })).json()).toEqual({ preferences: { isMenuCollapsed: false, defaultOrgUrlCode: 'acme-corp-2' } })
    const me = (await (await t.call('GET', '/api/users/me', { cookie })).json()) as { preferences: unknown }
    expect(me.preferences).toEqual({ isMenuCollapsed: false, defaultOrgUrlCode: 'acme-corp-2' })
    expect(await (await patch({ defaultOrgUrlCode: null })).json()).toEqual({ preferences: { isMenuCollapsed: false, defaultOrgUrlCode: null } })
  })

  it("refuses a default organisation the user is not a member of, and a wrong type", async () => {
    const res = await t.call('PATCH', '/api/users/me/preferences', { cookie, body: { defaultOrgUrlCode: 'someone-elses' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ errors: [{ name: 'defaultOrgUrlCode', message: 'You are not a member of this organization' }] })
    const bad = await t.call('PATCH', '/api/users/me/preferences', { cookie, body: { isMenuCollapsed: 'yes' } })
    expect(await bad.json()).toMatchObject({ errors: [{ name: 'isMenuCollapsed', message: 'isMenuCollapsed must be true or false' }] })
  })
})
