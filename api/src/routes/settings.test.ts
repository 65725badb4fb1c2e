import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../testing.ts'

/** Organisation settings: timezone from the IANA list, company paths trimmed and blanks dropped, kept per organisation. */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  ;({ cookie } = await t.signUpWithOrg('Ada', 'Acme'))
  await t.createOrg(cookie, 'Globex')
})
afterAll(() => t.close())

const get = (org: string) => t.call('GET', `/api-v2/orgs/${org}/settings`, { cookie })
const save = (org: string, body: unknown) => t.call('POST', `/api-v2/orgs/${org}/settings/save-settings`, { cookie, body })

describe('organisation settings', () => {
  it('start as UTC and no company paths, with the list of zones', async () => {
    const settings = (await (await get('acme')).json()) as { timezone: string; timezones: string[]; companyPaths: string[] }
    expect(settings.timezone).toBe('UTC')
    expect(settings.companyPaths).toEqual([])
    expect(settings.timezones[0]).toBe('UTC')
    expect(settings.timezones).toEqual(expect.arrayContaining(['Europe/Paris', 'Asia/Tokyo', 'America/Los_Angeles']))
  })

  it('save the timezone and the trimmed, non-blank company paths, per organisation', async () => {
    const res = await save('acme', { timezone: 'Europe/Paris', companyPaths: ['  /customers/acme ', '', '   ', '/pricing'] })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ timezone: 'Europe/Paris', companyPaths: ['/customers/acme', '/pricing'] })
    expect(await (await get('acme')).json()).toMatchObject({ timezone: 'Europe/Paris', companyPaths: ['/customers/acme', '/pricing'] })
    expect(await (await get('globex')).json()).toMatchObject({ timezone: 'UTC', companyPaths: [] })
  })

  it.each([
    [{ timezone: 'Mars/Olympus_Mons', companyPaths: [] }, [{ name: 'timezone', message: 'Timezone must be one of the listed time zones' }]],
    [{ companyPaths: [] }, [{ name: 'timezone', message: 'Timezone must be provided' }]],
    [{ timezone: 'UTC', companyPaths: ['/ok', 7] }, [{ name: 'companyPaths.1', message: 'Company path must be text' }]],
    [{ timezone: 'UTC', companyPaths: 'x' }, [{ name: 'companyPaths', message: 'Company paths must be a list' }]],
    [{ timezone: 'UTC', companyPaths: ['/' + 'x'.repeat(300)] }, [{ name: 'companyPaths.0', message: 'Company path must be at most 300 characters' }]],
  ])('refuse %j with field errors, keeping what was saved', async (body, errors) => {
    const res = await save('acme', body)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ success: false, message: errors[0]!.message, errors })
    expect(await (await get('acme')).json()).toMatchObject({ timezone: 'Europe/Paris' })
  })
})
