import { describe, expect, it } from 'vitest'
import { chTime } from './ingest.ts'

describe('chTime', () => {
  const iso = (d: Date) => d.toISOString().slice(0, 23).replace('T', ' ')

  it('prints ClickHouse DateTime64(3) text in UTC', () => {
    expect(chTime(new Date('2026-03-01T12:00:00Z'))).toBe('2026-03-01 12:00:00.000')
    expect(chTime(new Date('2026-12-31T23:59:59.007Z'))).toBe('2026-12-31 23:59:59.007')
    expect(chTime(new Date('1999-01-09T01:02:03.045Z'))).toBe('1999-01-09 01:02:03.045')
  })

  it('agrees with the ISO text for any time, four-digit years or not', () => {
    const edges = ['1000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '0999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '2100-02-28T00:00:00.010Z']
    for (const e of edges) expect(chTime(new Date(e)), e).toBe(iso(new Date(e)))
    expect(chTime(new Date(Date.UTC(10_000, 0, 1)))).toBe(iso(new Date(Date.UTC(10_000, 0, 1))))
    let seed = 7
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    for (let i = 0; i < 20_000; i++) {
      const d = new Date(Math.floor(random() * 2 ** 31) * 1000 * 30 - 2 ** 40 + Math.floor(random() * 1000))
      expect(chTime(d)).toBe(iso(d))
    }
  })

  it('throws for an invalid date, as before', () => {
    expect(() => chTime(new Date(Number.NaN))).toThrow(RangeError)
  })
})
