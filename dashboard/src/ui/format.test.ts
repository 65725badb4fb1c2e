import { describe, expect, it } from 'vitest'
import { DATE_RANGES } from '../constants.ts'
import { formatDate, formatDateTime, formatRelative, formatTime, shortNumber } from './format.ts'

describe('formats', () => {
  it('shortens numbers to K and M with one decimal', () => {
    expect(shortNumber(0)).toBe('0')
    expect(shortNumber(950)).toBe('950')
    expect(shortNumber(1000)).toBe('1.0K')
    expect(shortNumber(1234)).toBe('1.2K')
    expect(shortNumber(15_650)).toBe('15.7K')
    expect(shortNumber(999_960)).toBe('1.0M')
    expect(shortNumber(2_500_000)).toBe('2.5M')
    expect(shortNumber(-4200)).toBe('-4.2K')
  })

  it('formats dates, date-times and times', () => {
    const d = new Date('2026-03-05T14:07:00Z')
    expect(formatDate(d, 'UTC')).toBe('Mar 5, 2026')
    expect(formatDateTime(d, 'UTC')).toBe('Mar 5, 2026, 2:07 PM')
    expect(formatTime(d, 'UTC')).toBe('2:07 PM')
    expect(formatTime(d, 'Europe/Paris')).toBe('3:07 PM')
  })

  it("says 'hours ago', 'days ago', then a date after about a month", () => {
    const now = Date.parse('2026-03-31T12:00:00Z')
    const ago = (ms: number) => formatRelative(now - ms, now, 'UTC')
    const h = 3_600_000
    expect(ago(10 * 60_000)).toBe('less than an hour ago')
    expect(ago(h)).toBe('1 hour ago')
    expect(ago(5 * h)).toBe('5 hours ago')
    expect(ago(24 * h)).toBe('1 day ago')
    expect(ago(29 * 24 * h)).toBe('29 days ago')
    expect(ago(30 * 24 * h)).toBe('Mar 1, 2026')
  })

  it('offers the date ranges 7D, 30D, 3M, 6M and Year', () => {
    expect(DATE_RANGES.map((r) => r.label)).toEqual(['7D', '30D', '3M', '6M', 'Year'])
    expect(DATE_RANGES.map((r) => r.value)).toEqual(['last7Days', 'last30Days', 'last3Months', 'last6Months', 'lastYear'])
  })
})
