import type { CompanyTrait } from '../../api/types.ts'
import { formatDate } from '../../ui/format.ts'

/** 0 → '0s', 45 → '45s', 90 → '1m 30s', 720 → '12m', 3900 → '1h 5m'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (h > 0) return m ? `${h}h ${m}m` : `${h}h`
  const rest = s % 60
  return rest && m < 10 ? `${m}m ${rest}s` : `${m}m`
}

/** 'Acme Inc' → 'AI', 'ada lovelace' → 'AL', 'acme.com' → 'A'; nothing usable → '?'. */
export function initials(name: string): string {
  const words = name
    .replace(/\.[a-z]{2,}$/i, '')
    .split(/[\s._@-]+/)
    .filter((w) => /^[\p{L}\p{N}]/u.test(w))
  const letters = words.slice(0, 2).map((w) => w[0]!.toUpperCase())
  return letters.join('') || '?'
}

/** A feed date (YYYY-MM-DD, already the organisation's day): 'Sunday, Mar 1, 2026'. */
export function formatDay(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : undefined

/** Dollars, compact as people say them: $950, $85K, $510M, $1.2B (no "$510.0M"). */
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
function money(n: number): string {
  return compact.format(n)
}

/** A trait's value as text: numbers grouped (revenue in dollars, short), dates as dates, ISO country codes by name. */
export function formatTraitValue(trait: CompanyTrait): string {
  const { value } = trait
  if (Array.isArray(value)) return value.join(', ')
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'number') return /revenue|arr|mrr/i.test(trait.key) ? `$${money(value)}` : value.toLocaleString('en-US')
  if (trait.icon === 'date') return formatDate(value)
  if (/country/i.test(trait.key) && /^[A-Z]{2}$/.test(value)) {
    try {
      return regions?.of(value) ?? value
    } catch {
      return value
    }
  }
  return value
}

/** 'Events' with a count: '1 page' / '4 pages'. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
