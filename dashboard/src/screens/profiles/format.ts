import type { ProfileTrait } from '../../api/types.ts'
import { traitIcon } from '@fl0/contracts/companies'
import { formatTraitValue } from '../companies/format.ts'

/** A trait's value as the company page writes it: revenue in dollars, dates as dates, country codes by name. */
export function formatTrait(t: ProfileTrait): string {
  return formatTraitValue({ key: t.key, icon: traitIcon(t.value), label: t.key, value: t.value })
}

/** 50 → '50%', 33.3 → '33.3%'. */
export const percent = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
