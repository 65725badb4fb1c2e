import type { MeasureBy } from '@fl0/contracts/metrics'
import { shortNumber } from '../../../ui/format.ts'

/** Counts as short numbers; a conversion rate (the engine's percentages, 0 to 100) with its sign. */
export function valueFormat(measureBy: MeasureBy): (n: number) => string {
  if (measureBy === 'conversionRate') return (n) => `${Math.round(n * 10) / 10}%`
  return shortNumber
}
