import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { loadPersonIdentities } from './people.ts'

/**
 * What the People list and the home page know of a person from identification:
 * all of their visits, read by visitor (identified_visits' key): their
 * browsers, found by the visits that carry both the browser's anonymous id and
 * their user id, and their server-side calls (the visitor 'user:' and the id).
 */
let store: EventStore
const visit = (visitorId: string, at: string, ids: { anonymous_id?: string; user_id?: string; puid?: string; email?: string }) =>
  JSON.stringify({ org_id: 'kin', visitor_id: visitorId, started_at: at, ended_at: at, anonymous_id: '', user_id: '', puid: '', email: '', ip: '', version: 1, ...ids })

beforeAll(async () => {
  store = await openTestEventStore()
  await store.insertLines('identified_visits', [
    // Kim's browser before signing up, its puid linked by the identity partner's callback.
    visit('b-kim', '2026-03-01 09:00:00.000', { anonymous_id: 'b-kim', puid: 'p-kim' }),
    // Signing up in that browser: the visit that links it to her.
    visit('b-kim', '2026-03-01 10:00:00.000', { anonymous_id: 'b-kim', user_id: 'u-kim' }),
    // Her e-mail, from the product's backend.
    visit('user:u-kim', '2026-03-01 11:00:00.000', { user_id: 'u-kim', email: 'kim@kimco.io' }),
    // Someone else's browser and backend calls.
    visit('b-lou', '2026-03-01 09:00:00.000', { anonymous_id: 'b-lou', puid: 'p-lou' }),
    visit('user:u-lou', '2026-03-01 09:00:00.000', { user_id: 'u-lou', email: 'lou@gmail.com' }),
  ])
  await store.insertLines('identity_links', [JSON.stringify({ puid: 'p-kim', up_id: 'up-kim', hem: '', source: 'callback', linked_at: '2026-03-01 09:00:00.000', org_id: '' })])
  await store.insertLines('universal_persons', [
    JSON.stringify({ up_id: 'up-kim', first_name: 'Kim', last_name: 'Lee', job_title: 'CFO', company_name: 'Globex', company_domain: 'globex.com', imported_at: '2026-01-01 00:00:00.000' }),
  ])
})
afterAll(() => store?.close())

describe("a person's identity", () => {
  it('comes from the visits of their linked browsers and of their server-side calls', async () => {
    const found = await loadPersonIdentities(store.client, 'kin', ['u-kim'])
    expect(found.get('u-kim')).toMatchObject({
      // The callback on her browser's visit before she signed up.
      personVia: 'callback',
      name: 'Kim Lee',
      role: 'CFO',
      // The business e-mail of her backend's identify call comes before the partner's company.
      companyVia: 'email_domain',
      companyDomain: 'kimco.io',
      hasBusinessEmail: true,
    })
  })

  it("is an anonymous visitor's own, and leaves out everyone else's visits", async () => {
    const found = await loadPersonIdentities(store.client, 'kin', ['anon:b-lou', 'u-lou'])
    expect([...found.keys()].sort()).toEqual(['anon:b-lou', 'u-lou'])
    expect(found.get('anon:b-lou')).toMatchObject({ personVia: '', companyVia: '', hasPersonalEmail: false })
    expect(found.get('u-lou')).toMatchObject({ personVia: 'identify', companyVia: '', hasPersonalEmail: true })
  })
})
