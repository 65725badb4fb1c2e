import type { IngestedEvent } from '@fl0/contracts'
import { eventRow } from '@fl0/stores/events/testing'

/**
 * The metric engine's test data: a handful of people over a fixed week, small
 * enough that every expected number in engine.integration.test.ts is worked
 * out by hand from this page.
 *
 * Now is Wednesday 2026-03-04 12:00 UTC (FIXTURE_NOW). Times are UTC.
 *
 * Track events of the last seven days (S = Signed Up, R = Report Created,
 * U = Plan Upgraded), in time order within a day:
 *
 *            Thu 02-26      Fri 02-27      Sat 02-28      Sun 03-01  Mon 03-02  Tue 03-03  Wed 03-04
 *   ada      S R R U                                                 R
 *   bob                     S R*                                     U
 *   cyd                                    R S R                                R**
 *   dan                                                   R
 *   anon-1                                                                      R  (anonymous id only)
 *
 *   * at 23:30 UTC: Saturday 00:30 in Europe/Berlin.
 *   ** carries the awkward property name AWKWARD_KEY.
 *   ada also sends an R at 15:00 on 03-04, after now (not counted yet), and
 *   a page call on 03-04 (a page view is not an event).
 *
 * Times: S 09:00 (cyd 11:00), R 10:00 and 11:00 (cyd 10:00 and 12:00), U 12:00
 * (bob 09:00); bob's R 23:30, dan's 10:00, ada's Monday R 10:00, Tuesday's 10:00.
 *
 * Older Report Created, one each: jay 2026-02-25 23:00 (the day before the
 * last seven), ivy 2026-02-10, ada 2026-01-15, eve 2025-12-20, fay 2025-10-01,
 * gus 2025-04-01, hal 2025-02-01 (more than a year ago).
 *
 * Properties:
 *   S source: ada 'ads', bob 'organic', cyd 'google-ads'.
 *   R rows: ada 120, 5 (02-26), 40 (03-02); bob 10; cyd 300, 7 (02-28), 60
 *     (03-03); dan 1; anon-1 2; the older ones 1. ada's first R also has
 *     meta.folder 'Finance' (a nested path).
 *   U plan 'pro'.
 *
 * Traits, from identify calls (the latest value of each wins):
 *   ada  plan 'pro', seats 5, beta true, trialEnds '2026-03-10'
 *   bob  plan 'free', seats 1, beta false, trialEnds '2026-02-20'
 *   cyd  plan 'pro', seats 20 on 02-28; plan 'enterprise' on 03-03 (so: enterprise, 20)
 *   dan  email only;  anon-1 none.
 *
 * Companies, from group calls (a person's latest group):
 *   ada, bob → acme (industry 'Software', employees 50)
 *   cyd → initech on 2026-01-01, then globex (industry 'Finance', employees 500) on 02-28
 *   dan, anon-1 → none.
 *
 * Another organisation has Report Created events on the same days; none of
 * them may count.
 */
export const FIXTURE_NOW = new Date('2026-03-04T12:00:00.000Z')
export const AWKWARD_KEY = `it's "weird" {key}; DROP TABLE events; --`

export function fixtureEvents(orgId: string, otherOrgId: string): IngestedEvent[] {
  const at = (day: string, time: string) => `${day} ${time}:00.000`
  const track = (user: string, event: string, day: string, time: string, properties: Record<string, unknown> = {}) =>
    eventRow({ org_id: orgId, type: 'track', event, user_id: user, anonymous_id: `device-${user}`, properties, timestamp: at(day, time) })
  const identify = (user: string, day: string, traits: Record<string, unknown>) =>
    eventRow({ org_id: orgId, type: 'identify', user_id: user, traits, timestamp: at(day, '08:00') })
  const group = (user: string, groupId: string, day: string, traits: Record<string, unknown> = {}) =>
    eventRow({ org_id: orgId, type: 'group', user_id: user, group_id: groupId, traits, timestamp: at(day, '08:00') })
  const S = 'Signed Up'
  const R = 'Report Created'
  const U = 'Plan Upgraded'

  return [
    // ada
    identify('ada', '2026-02-26', { plan: 'pro', seats: 5, beta: true, trialEnds: '2026-03-10', email: 'ada@acme.com' }),
    group('ada', 'acme', '2026-02-26', { name: 'Acme', industry: 'Software', employees: 50 }),
    track('ada', S, '2026-02-26', '09:00', { source: 'ads' }),
    track('ada', R, '2026-02-26', '10:00', { rows: 120, meta: { folder: 'Finance' } }),
    track('ada', R, '2026-02-26', '11:00', { rows: 5 }),
    track('ada', U, '2026-02-26', '12:00', { plan: 'pro' }),
    track('ada', R, '2026-03-02', '10:00', { rows: 40 }),
    track('ada', R, '2026-03-04', '15:00', { rows: 1 }), // after now
    eventRow({ org_id: orgId, type: 'page', name: 'Pricing', user_id: 'ada', page_path: '/pricing', timestamp: at('2026-03-04', '10:00') }),
    track('ada', R, '2026-01-15', '10:00', { rows: 1 }),
    // bob
    identify('bob', '2026-02-27', { plan: 'free', seats: 1, beta: false, trialEnds: '2026-02-20' }),
    group('bob', 'acme', '2026-02-27'),
    track('bob', S, '2026-02-27', '09:00', { source: 'organic' }),
    track('bob', R, '2026-02-27', '23:30', { rows: 10 }),
    track('bob', U, '2026-03-02', '09:00', { plan: 'pro' }),
    // cyd
    group('cyd', 'initech', '2026-01-01', { name: 'Initech', industry: 'Software' }),
    identify('cyd', '2026-02-28', { plan: 'pro', seats: 20 }),
    group('cyd', 'globex', '2026-02-28', { name: 'Globex', industry: 'Finance', employees: 500 }),
    track('cyd', R, '2026-02-28', '10:00', { rows: 300 }),
    track('cyd', S, '2026-02-28', '11:00', { source: 'google-ads' }),
    track('cyd', R, '2026-02-28', '12:00', { rows: 7 }),
    identify('cyd', '2026-03-03', { plan: 'enterprise' }),
    track('cyd', R, '2026-03-03', '10:00', { rows: 60, [AWKWARD_KEY]: 'x' }),
    // dan
    identify('dan', '2026-03-01', { email: 'dan@gmail.com' }),
    track('dan', R, '2026-03-01', '10:00', { rows: 1 }),
    // anon-1: no user id
    eventRow({ org_id: orgId, type: 'track', event: R, anonymous_id: 'anon-1', properties: { rows: 2 }, timestamp: at('2026-03-03', '10:00') }),
    // older
    track('jay', R, '2026-02-25', '23:00', { rows: 1 }),
    track('ivy', R, '2026-02-10', '10:00', { rows: 1 }),
    track('eve', R, '2025-12-20', '10:00', { rows: 1 }),
    track('fay', R, '2025-10-01', '10:00', { rows: 1 }),
    track('gus', R, '2025-04-01', '10:00', { rows: 1 }),
    track('hal', R, '2025-02-01', '10:00', { rows: 1 }),
    // another organisation
    ...['2026-02-26', '2026-03-01', '2026-03-03'].map((day) =>
      eventRow({ org_id: otherOrgId, type: 'track', event: R, user_id: 'ada', properties: { rows: 999 }, timestamp: at(day, '10:00') }),
    ),
  ]
}

/**
 * Fifteen people of one team trait each on 03-03, for the breakdown's cap:
 * red ×3, blue ×2, and one each of a … j. The ten biggest are red, blue and
 * a … h (ties by name); i and j make 'Other'.
 */
export function teamEvents(orgId: string): IngestedEvent[] {
  const teams = ['red', 'red', 'red', 'blue', 'blue', ...'abcdefghij'.split('')]
  return teams.flatMap((team, i) => [
    eventRow({ org_id: orgId, type: 'identify', user_id: `m${i}`, traits: { team }, timestamp: '2026-03-01 08:00:00.000' }),
    eventRow({ org_id: orgId, type: 'track', event: 'Report Created', user_id: `m${i}`, timestamp: '2026-03-03 10:00:00.000' }),
  ])
}

/**
 * Visitors before and after signing up (people/identity.ts rules 1-3).
 *   kim   03-01 Pricing Viewed as device-kim (anonymous); 03-02 Signed Up as kim on device-kim, identify plan=pro, group kim-co
 *   lee   03-01 Pricing Viewed as device-lee, never signs up
 *   max   03-01 Pricing Viewed as shared-1 (anonymous); 03-02 Signed Up as max on shared-1
 *   ned   03-03 Signed Up as ned on shared-1: a shared machine, whose anonymous visit stays max's (linked first)
 */
export function linkedEvents(org: string): IngestedEvent[] {
  const at = (iso: string) => new Date(iso)
  const track = (event: string, when: string, ids: { user_id?: string; anonymous_id: string }) => eventRow({ org_id: org, type: 'track', event, timestamp: at(when), ...ids })
  return [
    track('Pricing Viewed', '2026-03-01T10:00:00Z', { anonymous_id: 'device-kim' }),
    track('Signed Up', '2026-03-02T10:00:00Z', { user_id: 'kim', anonymous_id: 'device-kim' }),
    eventRow({ org_id: org, type: 'identify', user_id: 'kim', anonymous_id: 'device-kim', traits: { plan: 'pro' }, timestamp: at('2026-03-02T10:01:00Z') }),
    eventRow({ org_id: org, type: 'group', user_id: 'kim', anonymous_id: 'device-kim', group_id: 'kim-co', timestamp: at('2026-03-02T10:02:00Z') }),
    track('Pricing Viewed', '2026-03-01T11:00:00Z', { anonymous_id: 'device-lee' }),
    track('Pricing Viewed', '2026-03-01T12:00:00Z', { anonymous_id: 'shared-1' }),
    track('Signed Up', '2026-03-02T12:00:00Z', { user_id: 'max', anonymous_id: 'shared-1' }),
    track('Signed Up', '2026-03-03T12:00:00Z', { user_id: 'ned', anonymous_id: 'shared-1' }),
  ]
}
