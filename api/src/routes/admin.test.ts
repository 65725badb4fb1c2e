import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'

/** Staff: the first account; /api-v2/admin/* for staff only; the staff flag set by staff. */
let t: TestApi
let staff: { cookie: string; user: { id: string } }
let other: { cookie: string; user: { id: string } }
beforeAll(async () => {
  t = await createTestApi()
  staff = await t.signUp('Root')
  other = await t.signUp('Someone')
})
afterAll(() => t.close())

const patch = (cookie: string, userId: string, body: unknown) => t.call('PATCH', `/api-v2/admin/users/${userId}`, { cookie, body })

describe('admin', () => {
  it('is closed to anyone but staff', async () => {
    expect((await t.call('GET', '/api-v2/admin/orgs')).status).toBe(401)
    const res = await patch(other.cookie, other.user.id, { isStaff: true })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ success: false, message: 'Only staff can do this', errors: [] })
  })

  it('lets staff make another user staff, who then reaches the admin calls', async () => {
    const res = await patch(staff.cookie, other.user.id, { isStaff: true })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: other.user.id, isStaff: true })
    expect((await t.call('GET', '/api-v2/admin/users', { cookie: other.cookie })).status).toBe(200)
    expect(((await (await t.call('GET', '/api/users/me', { cookie: other.cookie })).json()) as { isStaff: boolean }).isStaff).toBe(true)
    expect((await patch(other.cookie, other.user.id, { isStaff: false })).status).toBe(200)
    expect((await t.call('GET', '/api-v2/admin/users', { cookie: other.cookie })).status).toBe(403)
  })

  it('keeps at least one staff member', async () => {
    const res = await patch(staff.cookie, staff.user.id, { isStaff: false })
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe('fl0 must keep at least one staff member')
  })

  it('validates the body and names an unknown user', async () => {
    expect(await (await patch(staff.cookie, other.user.id, { isStaff: 'yes' })).json()).toMatchObject({
      errors: [{ name: 'isStaff', message: 'isStaff must be true or false' }],
    })
    expect((await patch(staff.cookie, 'no-such-user', { isStaff: true })).status).toBe(404)
  })

  it('lists organisations for the picker as value and text', async () => {
    await t.createOrg(other.cookie, 'Initech')
    expect(await (await t.call('GET', '/api-v2/admin/orgs', { cookie: staff.cookie })).json()).toEqual([{ value: expect.any(String), text: 'Initech' }])
  })
})
