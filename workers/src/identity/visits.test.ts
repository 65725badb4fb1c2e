import { describe, expect, it } from 'vitest'
import { foldVisits, parseChTime, VISIT_COLUMNS, visitsOf, visitValuesJson, type Hit, type Visit, type VisitRow } from './visits.ts'

/** The fold the worker and the refresh share: 30-minute visits, facts by time, replays that change nothing. */
const T = Date.parse('2026-03-02T09:00:00.000Z')
const min = (m: number) => T + m * 60_000
const hit = (m: number, extra: Partial<Hit> = {}): Hit => ({ orgId: 'o', visitorId: 'a', at: min(m), anonymousId: 'a', userId: '', puid: '', ip: '', email: '', name: '', ...extra })

describe('visits', () => {
  it('starts a new visit after more than 30 minutes of nothing, not at exactly 30', () => {
    expect(visitsOf([hit(0), hit(30), hit(60.001), hit(61)]).map((v) => [v.startedAt, v.endedAt])).toEqual([[min(0), min(30)], [min(60.001), min(61)]])
  })

  it('keeps the first user id and address, and the latest puid, e-mail and name', () => {
    const [v] = visitsOf([hit(0, { ip: '1.1.1.1', puid: 'p1' }), hit(1, { userId: 'u1', ip: '2.2.2.2', email: 'a@x.com', name: 'A' }), hit(2, { userId: 'u2', puid: 'p2', email: 'b@x.com' })])
    expect(v).toMatchObject({ userId: 'u1', ip: '1.1.1.1', puid: 'p2', email: 'b@x.com', name: 'A' })
  })

  it('changes nothing when hits already folded come again', () => {
    const stored = visitsOf([hit(0, { ip: '1.1.1.1', puid: 'p1' }), hit(10, { email: 'a@x.com' })])
    expect(foldVisits(stored, [hit(0, { ip: '9.9.9.9', puid: 'other' }), hit(10, { email: 'a@x.com' })])).toEqual({ write: [], replaced: [] })
  })

  it('grows a visit, joins two, and names the stored visits whose key is gone', () => {
    const stored: Visit[] = visitsOf([hit(0), hit(50)])
    expect(stored).toHaveLength(2)
    const joined = foldVisits(stored, [hit(25)])
    expect(joined.write.map((v) => [v.startedAt, v.endedAt])).toEqual([[min(0), min(50)]])
    expect(joined.replaced.map((v) => v.startedAt)).toEqual([min(50)])
    const earlier = foldVisits(joined.write, [hit(-10)])
    expect(earlier.write.map((v) => [v.startedAt, v.endedAt])).toEqual([[min(-10), min(50)]])
    expect(earlier.replaced.map((v) => v.startedAt)).toEqual([min(0)])
  })
})

describe('parseChTime', () => {
  const slow = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`)

  it('reads ClickHouse time text as Date.parse reads its ISO form, for any time and any text', () => {
    const cases = ['2026-03-01 12:00:00.000', '1900-01-01 00:00:00.000', '2299-12-31 23:59:59.999', '2024-02-29 10:00:00.001', '2026-02-30 00:00:00.000', '2026-04-31 23:59:59.999',
      '2026-13-01 00:00:00.000', '2026-00-10 00:00:00.000', '2026-01-32 00:00:00.000', '2026-01-01 24:00:00.000', '2026-01-01 23:60:00.000', '2026-01-01 23:59:60.000',
      '0999-12-31 23:59:59.999', '2026-03-01 12:00:00', '2026-03-01T12:00:00.000', '2026-03-01 12:00:00.0x0', '+02026-03-01 12:00:00.000', '', 'not a time at all, really']
    for (const text of cases) expect(parseChTime(text), text).toEqual(slow(text))
    let seed = 11
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    for (let i = 0; i < 20_000; i++) {
      const text = new Date(Date.UTC(1900, 0, 1) + Math.floor(random() * (Date.UTC(2300, 0, 1) - Date.UTC(1900, 0, 1)))).toISOString().slice(0, 23).replace('T', ' ')
      expect(parseChTime(text)).toBe(slow(text))
    }
  })
})

describe('visit rows', () => {
  it('writes each value of a row under its column, in VISIT_COLUMNS order', () => {
    // Every column a value of its own, so that two swapped or a missing one show.
    const row = Object.fromEntries(VISIT_COLUMNS.map((c, i) => [c, c === 'ip_asn' || c === 'version' || c === 'is_deleted' ? i : `v-${c}`])) as unknown as VisitRow
    expect(JSON.parse(visitValuesJson(row))).toEqual(VISIT_COLUMNS.map((c) => row[c]))
  })
})
