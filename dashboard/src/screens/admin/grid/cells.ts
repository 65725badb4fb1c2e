import type { AdminRow } from '../../../api/admin.ts'

/** The columns of a page of raw rows: every key, in the order rows first name them. */
export function columnKeys(rows: readonly AdminRow[]): string[] {
  const keys = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key)
  return [...keys]
}

/** A value as one line of a grid cell: text as it is, other values as compact JSON, nothing for null. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return JSON.stringify(value)
}

/** A value as the detail modal shows it: formatted JSON (part 1 §2). */
export function formattedJson(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value, null, 2)
}

/** A column's starting width: enough for its longest value on the page (or its name), within 100–380 px. */
export function columnWidth(key: string, rows: readonly AdminRow[]): number {
  let chars = key.length
  for (const row of rows) chars = Math.max(chars, cellText(row[key]).length)
  return Math.round(Math.min(380, Math.max(100, chars * 8.5 + 36)))
}
