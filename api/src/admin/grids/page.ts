import { ADMIN_PAGE_SIZE, IDENTIFICATION_TEXT } from '@fl0/contracts'
import { fieldError } from '../../http/errors.ts'

/** The last page a grid serves: its offset stays a UInt32 in ClickHouse. */
export const MAX_PAGE = 1_000_000

/** A grid's page parameter: 1-based, default 1, at most MAX_PAGE. */
export function pageOf(text: string | undefined): { page: number; limit: number; offset: number } {
  const page = text === undefined || text === '' ? 1 : Number(text)
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) throw fieldError('page', IDENTIFICATION_TEXT.invalidPage)
  return { page, limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE }
}

/** An optional text filter: undefined when left out or empty. */
export const filterOf = (text: string | undefined): string | undefined => (text && text.trim() ? text.trim() : undefined)

/** ClickHouse DateTime64 text in UTC as ISO 8601. */
export const iso = (t: string | null | undefined): string | null => (t ? `${t.replace(' ', 'T')}Z` : null)
export const orNull = (s: string | null | undefined): string | null => (s === null || s === undefined || s === '' ? null : s)
export const num = (v: unknown): number => Number(v ?? 0)
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v))
