import type { ProfileTrait } from '../../api/types.ts'
import type { TraitIcon } from '@fl0/contracts/companies'
import { formatTraitValue } from '../companies/format.ts'

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** A trait value's data type, as the company page's icons name them. */
export function iconOf(value: ProfileTrait['value']): TraitIcon {
  if (Array.isArray(value)) return 'stringArray'
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? 'date' : 'string'
}

/** A trait's value as the company page writes it: revenue in dollars, dates as dates, country codes by name. */
export function formatTrait(t: ProfileTrait): string {
  return formatTraitValue({ key: t.key, icon: iconOf(t.value), label: t.key, value: t.value })
}

/** createdAt → 'Created at', employee_count → 'Employee count', address.city → 'Address city'. */
export function traitLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** 50 → '50%', 33.3 → '33.3%'. */
export const percent = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
