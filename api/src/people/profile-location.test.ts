import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserProfile } from '@fl0/contracts'
import { eventRow, insertEvents } from '@fl0/stores/events/testing'
import { insertVisits } from '../companies/testing.ts'
import { createTestApi, type TestApi } from '../testing.ts'

/**
 * The user profile's location on real events and identified visits in chDB:
 * what the person's events' context says, else the place of their address
 * (their latest located visit, anonymous ones before signing up included),
 * else their time zone's city (companies/location.ts).
 */
let t: TestApi
let cookie: string

const at = (iso: string) => new Date(iso)

beforeAll(async () => {
  t = await createTestApi()
  let orgId: string
  ;({ cookie, orgId } = await t.signUpWithOrg('Ada', 'Acme'))
  const tz = { timezone: 'America/Los_Angeles' }
  await insertEvents(t.events, [
    // Ada browsed anonymously, then signed up on the same browser; her browser's zone is Los Angeles.
    eventRow({ org_id: orgId, type: 'page', anonymous_id: 'anon-ada', timestamp: at('2026-02-20T08:00:00Z'), context: tz }),
    eventRow({ org_id: orgId, type: 'identify', user_id: 'u-ada', anonymous_id: 'anon-ada', timestamp: at('2026-02-20T08:01:00Z'), traits: { name: 'Ada' }, context: tz }),
    // Bob's app sends Segment's context.location.
    eventRow({ org_id: orgId, type: 'page', user_id: 'u-bob', timestamp: at('2026-03-01T10:00:00Z'), context: { ...tz, location: { city: 'Lyon', country: 'France' } } }),
    // Carol: only a time zone.
    eventRow({ org_id: orgId, type: 'page', user_id: 'u-carol', timestamp: at('2026-03-01T10:00:00Z'), context: tz }),
  ])
  await insertVisits(t.events, [
    // Ada's anonymous visit (keyed by her anonymous id, before any user id): located in Cupertino.
    { org_id: orgId, anonymous_id: 'anon-ada', started_at: at('2026-02-20T08:00:00Z'), ip_country: 'US', ip_region: 'California', ip_city: 'Cupertino' },
    // A later visit whose address has a country only: the latest visit with a city still names the place.
    { org_id: orgId, anonymous_id: 'anon-ada', user_id: 'u-ada', started_at: at('2026-02-25T08:00:00Z'), ip_country: 'US' },
    { org_id: orgId, user_id: 'u-bob', started_at: at('2026-03-01T10:00:00Z'), ip_country: 'FR', ip_city: 'Paris' },
  ])
})
afterAll(() => t.close())

const location = async (key: string) => {
  const res = await t.call('GET', `/api/orgs/acme/people/${encodeURIComponent(key)}`, { cookie })
  expect(res.status).toBe(200)
  return ((await res.json()) as UserProfile).location
}

describe('the user profile’s location', () => {
  it('is the place of the address when the events name none, the context’s when they do, else the time zone’s city', async () => {
    expect(await location('u-ada')).toBe('Cupertino, United States')
    expect(await location('u-bob')).toBe('Lyon, France')
    expect(await location('u-carol')).toBe('Los Angeles')
  })
})
