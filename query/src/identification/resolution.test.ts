import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventStore } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { rows } from '../companies/query.ts'
import { orgParams, resolutionCtes, resolvedVisitsSql } from './resolution.ts'

/**
 * Whose a visit is, as the resolution reads identified_visits (rules 1–3 of
 * resolution.ts): its user id; else the user its anonymous id is linked to,
 * by the earliest visit carrying both (the smaller user id at the same
 * moment), whatever came before or after; else 'anon:' and the anonymous id.
 * Links hold within one organisation. And the universal person a callback
 * names for them.
 */
let store: EventStore

type Network = { ip_company: string; ip_domain: string; ip_kind: string; ip_source: string }
const visit = (org: string, visitorId: string, at: string, ids: { anonymous_id?: string; user_id?: string; puid?: string; email?: string }, network?: Network) =>
  JSON.stringify({
    ...network,
    org_id: org,
    visitor_id: visitorId,
    started_at: at,
    ended_at: at,
    anonymous_id: ids.anonymous_id ?? '',
    user_id: ids.user_id ?? '',
    puid: ids.puid ?? '',
    email: ids.email ?? '',
    ip: '',
    version: 1,
  })

beforeAll(async () => {
  store = await openTestEventStore()
  await store.insertLines('identified_visits', [
    visit('acme', 'v1', '2026-03-01 09:00:00.000', { anonymous_id: 'anon-a' }),
    visit('acme', 'v2', '2026-03-01 10:00:00.000', { anonymous_id: 'anon-a', user_id: 'u-first' }),
    visit('acme', 'v3', '2026-03-02 10:00:00.000', { anonymous_id: 'anon-a', user_id: 'u-second' }),
    visit('acme', 'v4', '2026-03-03 10:00:00.000', { anonymous_id: 'anon-a', email: 'a@anon.io' }),
    // Two users in the same moment: the smaller id is the link.
    visit('acme', 'v5', '2026-03-01 10:00:00.000', { anonymous_id: 'anon-tie', user_id: 'u-zed' }),
    visit('acme', 'v6', '2026-03-01 10:00:00.000', { anonymous_id: 'anon-tie', user_id: 'u-amy' }),
    visit('acme', 'v7', '2026-03-04 10:00:00.000', { anonymous_id: 'anon-tie', email: 'amy@tie.io' }),
    // Never linked here; linked in another organisation only.
    visit('acme', 'v8', '2026-03-01 10:00:00.000', { anonymous_id: 'anon-free' }),
    visit('other', 'v9', '2026-02-01 10:00:00.000', { anonymous_id: 'anon-free', user_id: 'u-other' }),
    // A user id alone.
    visit('acme', 'v10', '2026-03-01 10:00:00.000', { user_id: 'u-solo' }),
    // Callbacks: Cleo's two browsers, each linked (an unscoped link counts for every organisation).
    visit('acme', 'v11', '2026-03-01 10:00:00.000', { user_id: 'u-cleo', puid: 'puid-cleo-1' }),
    visit('acme', 'v12', '2026-03-02 10:00:00.000', { user_id: 'u-cleo', puid: 'puid-cleo-2' }),
    // Two e-mails at the same moment.
    visit('acme', 'v13', '2026-03-01 10:00:00.000', { user_id: 'u-tie', email: 'tie@alpha.io' }),
    visit('acme', 'v14', '2026-03-01 10:00:00.000', { user_id: 'u-tie', email: 'tie@zulu.io' }),
    // Dana moved from one company's network to another's, and visits from home (an ISP names no company) since;
    // her first puid has two links, so each of its visits meets two of them.
    visit('moves', 'w1', '2026-03-01 10:00:00.000', { user_id: 'u-dana', puid: 'puid-dana' }, { ip_company: 'Old Co', ip_domain: 'old.example', ip_kind: 'company', ip_source: 'partner' }),
    visit('moves', 'w2', '2026-03-05 10:00:00.000', { user_id: 'u-dana', puid: 'puid-dana-2' }, { ip_company: 'New Co', ip_domain: 'new.example', ip_kind: 'company', ip_source: 'partner' }),
    visit('moves', 'w3', '2026-03-09 10:00:00.000', { user_id: 'u-dana', puid: 'puid-dana' }, { ip_company: 'Comcast', ip_domain: 'comcast.net', ip_kind: 'isp', ip_source: 'free' }),
    // Eve's two latest visits end at the same moment, from two companies' networks: one visit names both.
    visit('moves', 'w4', '2026-03-09 10:00:00.000', { user_id: 'u-eve' }, { ip_company: 'Zulu Name', ip_domain: 'aaa.example', ip_kind: 'company', ip_source: 'partner' }),
    visit('moves', 'w5', '2026-03-09 10:00:00.000', { user_id: 'u-eve' }, { ip_company: 'Alpha Name', ip_domain: 'zzz.example', ip_kind: 'company', ip_source: 'partner' }),
    // One browser, a puid per visit: an e-mail given before signing up, then two users, Zoe first; then anonymous again.
    visit('groups', 'x1', '2026-03-01 09:00:00.000', { anonymous_id: 'anon-p', puid: 'p-1', email: 'early@anon.io' }),
    visit('groups', 'x2', '2026-03-01 10:00:00.000', { anonymous_id: 'anon-p', user_id: 'u-zoe', puid: 'p-2' }),
    visit('groups', 'x3', '2026-03-01 11:00:00.000', { anonymous_id: 'anon-p', user_id: 'u-abe', puid: 'p-3' }),
    visit('groups', 'x4', '2026-03-01 12:00:00.000', { anonymous_id: 'anon-p', puid: 'p-1' }),
    // The first user of anon-a again, after the second: still the first.
    visit('acme', 'v15', '2026-03-05 10:00:00.000', { anonymous_id: 'anon-a', user_id: 'u-first' }),
    // A backend whose clock said 1969 told Olga's e-mail, from her company's network; her browser has a puid of its own.
    visit('clock', 'user:u-old', '1969-12-31 23:59:59.000', { user_id: 'u-old', email: 'olga@kimco.io' }, { ip_company: 'Kimco', ip_domain: 'kimco.io', ip_kind: 'company', ip_source: 'partner' }),
    visit('clock', 'b-old', '2026-03-01 10:00:00.000', { anonymous_id: 'b-old', user_id: 'u-old', puid: 'p-old' }),
  ])
  const link = (puid: string, upId: string, at: string, org = '') =>
    JSON.stringify({ puid, up_id: upId, hem: '', source: 'callback', linked_at: at, org_id: org })
  await store.insertLines('identity_links', [
    link('puid-cleo-1', 'up-cleo', '2026-03-01 10:00:00.000'),
    // Later, but to someone the universal table does not have: the known one stands.
    link('puid-cleo-2', 'up-unknown', '2026-03-02 10:00:00.000'),
    // Signed for another organisation: not Cleo's here.
    link('puid-cleo-2', 'up-elsewhere', '2026-03-03 10:00:00.000', 'other'),
    link('puid-dana', 'up-dana-1', '2026-03-01 10:00:00.000'),
    link('puid-dana', 'up-dana-2', '2026-03-02 10:00:00.000'),
  ])
  await store.insertLines('universal_persons', [
    JSON.stringify({ up_id: 'up-cleo', first_name: 'Cleo', last_name: 'Park', imported_at: '2026-01-01 00:00:00.000' }),
    JSON.stringify({ up_id: 'up-elsewhere', first_name: 'Else', last_name: 'Where', imported_at: '2026-01-01 00:00:00.000' }),
  ])
})
afterAll(() => store?.close())

describe('the person of a visit', () => {
  it("is its user id, else its anonymous id's earliest link in the organisation, else the anonymous id", async () => {
    const visits = await rows<{ visitor_id: string; person: string }>(
      store.client,
      `SELECT visitor_id, person FROM (${resolvedVisitsSql()}) ORDER BY toUInt32(substring(visitor_id, 2))`,
      orgParams('acme'),
    )
    expect(visits.map((v) => [v.visitor_id, v.person])).toEqual([
      ['v1', 'u-first'],
      ['v2', 'u-first'],
      ['v3', 'u-second'],
      ['v4', 'u-first'],
      ['v5', 'u-zed'],
      ['v6', 'u-amy'],
      ['v7', 'u-amy'],
      ['v8', 'anon:anon-free'],
      ['v10', 'u-solo'],
      ['v11', 'u-cleo'],
      ['v12', 'u-cleo'],
      ['v13', 'u-tie'],
      ['v14', 'u-tie'],
      ['v15', 'u-first'],
    ])
  })

  it("names a person by the latest of their puids' links that counts here and finds someone the universal table has", async () => {
    const [cleo] = await rows<{ person: string; person_via: string; up_id: string; person_name: string }>(
      store.client,
      `SELECT DISTINCT person, person_via, up_id, person_name FROM (${resolvedVisitsSql()}) WHERE person = 'u-cleo'`,
      orgParams('acme'),
    )
    expect(cleo).toEqual({ person: 'u-cleo', person_via: 'callback', up_id: 'up-cleo', person_name: 'Cleo Park' })
  })

  it("takes a person's latest e-mail, the greater one of two given at the same moment, whatever the rows' order", async () => {
    const people = await rows<{ person: string; email: string }>(
      store.client,
      `WITH ${resolutionCtes()} SELECT person, email FROM persons WHERE person = 'u-tie'`,
      orgParams('acme'),
    )
    expect(people).toEqual([{ person: 'u-tie', email: 'tie@zulu.io' }])
  })

  it('gives a person the company of their latest visit whose network names one, whatever links their visits meet; at a tie, name and domain of one visit', async () => {
    const people = await rows<{ person: string; ip_company_name: string; ip_company_domain: string; company_via: string; company_domain: string }>(
      store.client,
      `WITH ${resolutionCtes()} SELECT person, ip_company_name, ip_company_domain, company_via, company_domain FROM persons ORDER BY person`,
      orgParams('moves'),
    )
    expect(people).toEqual([
      { person: 'u-dana', ip_company_name: 'New Co', ip_company_domain: 'new.example', company_via: 'ip', company_domain: 'new.example' },
      { person: 'u-eve', ip_company_name: 'Alpha Name', ip_company_domain: 'zzz.example', company_via: 'ip', company_domain: 'zzz.example' },
    ])
  })

  it("makes each person of the visits an anonymous id's link gives them, whichever puid each visit carried", async () => {
    const people = await rows<{ person: string; email: string }>(
      store.client,
      `WITH ${resolutionCtes()} SELECT person, email FROM persons ORDER BY person`,
      orgParams('groups'),
    )
    expect(people).toEqual([
      { person: 'u-abe', email: '' },
      { person: 'u-zoe', email: 'early@anon.io' },
    ])
  })

  it("gives an anonymous visit's e-mail to the user its browser was first linked to, the smaller id at the same moment", async () => {
    const people = await rows<{ person: string; email: string }>(
      store.client,
      `WITH ${resolutionCtes()} SELECT person, email FROM persons WHERE person IN ('u-first', 'u-second', 'u-amy', 'u-zed') ORDER BY person`,
      orgParams('acme'),
    )
    expect(people).toEqual([
      { person: 'u-amy', email: 'amy@tie.io' },
      { person: 'u-first', email: 'a@anon.io' },
      { person: 'u-second', email: '' },
      { person: 'u-zed', email: '' },
    ])
  })

  it('keeps what a visit dated before 1970 told, when none later told otherwise', async () => {
    const people = await rows<{ person: string; email: string; ip_company_name: string; ip_company_domain: string }>(
      store.client,
      `WITH ${resolutionCtes()} SELECT person, email, ip_company_name, ip_company_domain FROM persons`,
      orgParams('clock'),
    )
    expect(people).toEqual([{ person: 'u-old', email: 'olga@kimco.io', ip_company_name: 'Kimco', ip_company_domain: 'kimco.io' }])
  })

  it('finds the same persons in every organisation as the visits resolved one by one', async () => {
    const differ = await rows<{ org_id: string; person: string }>(
      store.client,
      `WITH ${resolutionCtes()}
      SELECT org_id, person FROM (SELECT org_id, person FROM persons EXCEPT SELECT DISTINCT org_id, person FROM resolved_visits)
      UNION ALL
      SELECT org_id, person FROM (SELECT DISTINCT org_id, person FROM resolved_visits EXCEPT SELECT org_id, person FROM persons)`,
      orgParams(undefined),
    )
    expect(differ).toEqual([])
    const [count] = await rows<{ n: string }>(store.client, `WITH ${resolutionCtes()} SELECT count() AS n FROM persons`, orgParams(undefined))
    expect(Number(count!.n)).toBe(14)
  })

  it("links within each organisation when every organisation's visits are read (the admin's grids)", async () => {
    const visits = await rows<{ org_id: string; visitor_id: string; person: string }>(
      store.client,
      `SELECT org_id, visitor_id, person FROM (${resolvedVisitsSql()}) WHERE anonymous_id = 'anon-free' ORDER BY org_id`,
      orgParams(undefined),
    )
    expect(visits.map((v) => [v.org_id, v.visitor_id, v.person])).toEqual([
      ['acme', 'v8', 'anon:anon-free'],
      ['other', 'v9', 'u-other'],
    ])
  })
})
