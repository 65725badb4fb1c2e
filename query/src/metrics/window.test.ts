import { describe, expect, it } from 'vitest'
import { addMonths, isKnownZone, metricWindow } from './window.ts'

const now = new Date('2026-03-04T12:00:00Z')
const span = (dateRange: Parameters<typeof metricWindow>[2], at = now, tz = 'UTC') => {
  const w = metricWindow(at, tz, dateRange, 'day')
  return [w.from, w.to]
}

describe('metric windows', () => {
  it('end today and reach back that many days or calendar months, today included', () => {
    expect(span('last7Days')).toEqual(['2026-02-26', '2026-03-04'])
    expect(span('last30Days')).toEqual(['2026-02-03', '2026-03-04'])
    expect(span('last3Months')).toEqual(['2025-12-05', '2026-03-04'])
    expect(span('last6Months')).toEqual(['2025-09-05', '2026-03-04'])
    expect(span('lastYear')).toEqual(['2025-03-05', '2026-03-04'])
  })

  it("take today in the organisation's zone", () => {
    const late = new Date('2026-03-04T23:30:00Z')
    expect(span('last7Days', late, 'Europe/Berlin')).toEqual(['2026-02-27', '2026-03-05'])
    expect(span('last7Days', late, 'America/Los_Angeles')).toEqual(['2026-02-26', '2026-03-04'])
  })

  it('clamp months to their length', () => {
    expect(addMonths('2026-05-31', -3)).toEqual('2026-02-28')
    expect(addMonths('2024-05-31', -3)).toEqual('2024-02-29')
    expect(span('last3Months', new Date('2026-05-31T12:00:00Z'))).toEqual(['2026-03-01', '2026-05-31'])
  })

  it('name periods by their first day: Mondays, first of the month, or the range', () => {
    expect(metricWindow(now, 'UTC', 'last30Days', 'week').periods).toEqual(['2026-02-02', '2026-02-09', '2026-02-16', '2026-02-23', '2026-03-02'])
    expect(metricWindow(now, 'UTC', 'last3Months', 'month').periods).toEqual(['2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01'])
    expect(metricWindow(now, 'UTC', 'lastYear', 'range').periods).toEqual(['2025-03-05'])
    expect(metricWindow(now, 'UTC', 'lastYear', 'day').periods).toHaveLength(365)
  })

  it('ends at now', () => {
    const w = metricWindow(now, 'Pacific/Kiritimati', 'last7Days', 'day')
    expect(w.until).toBe('2026-03-04 12:00:00.000')
  })

  it('know IANA zones only', () => {
    expect(['UTC', 'Europe/Berlin', 'Asia/Kathmandu'].map(isKnownZone)).toEqual([true, true, true])
    expect(['', 'Mars/Olympus', '+01:00', "UTC'; DROP"].map(isKnownZone)).toEqual([false, false, false, false])
  })
})
