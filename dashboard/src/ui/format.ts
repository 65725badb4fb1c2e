/**
 * Display formats (part 1 §9). Dates use the browser's locale conventions in
 * English; a time zone may be given (the organisation's, once screens use it).
 */

/** 950 → '950', 1234 → '1.2K', 2_500_000 → '2.5M': one decimal. */
export function shortNumber(n: number): string {
  const abs = Math.abs(n)
  const sign = n < 0 ? '-' : ''
  if (abs < 1000) return sign + String(Math.round(abs * 10) / 10)
  const k = Math.round(abs / 100) / 10
  if (k < 1000) return `${sign}${k.toFixed(1)}K`
  return `${sign}${(Math.round(abs / 100_000) / 10).toFixed(1)}M`
}

type DateInput = Date | string | number
const toDate = (d: DateInput) => (d instanceof Date ? d : new Date(d))

export function formatDate(d: DateInput, timeZone?: string): string {
  return toDate(d).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone })
}

export function formatDateTime(d: DateInput, timeZone?: string): string {
  return toDate(d).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone })
}

export function formatTime(d: DateInput, timeZone?: string): string {
  return toDate(d).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone })
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** "About a month": past this, a relative time reads better as a date. */
const ABOUT_A_MONTH = 30 * DAY

/** '5 hours ago', '3 days ago', then a date after about a month. */
export function formatRelative(d: DateInput, now: number = Date.now(), timeZone?: string): string {
  const ms = now - toDate(d).getTime()
  if (ms >= ABOUT_A_MONTH) return formatDate(d, timeZone)
  if (ms >= DAY) {
    const days = Math.floor(ms / DAY)
    return days === 1 ? '1 day ago' : `${days} days ago`
  }
  const hours = Math.max(0, Math.floor(ms / HOUR))
  if (hours === 0) return 'less than an hour ago'
  return hours === 1 ? '1 hour ago' : `${hours} hours ago`
}
