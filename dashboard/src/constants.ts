/** Business constants from the specification (part 1 §9, part 3 §9). */
export const PAGE_SIZE = 20
export const SNACKBAR_LIFETIME_MS = 3000
export const SNACKBAR_LEAVE_MS = 200
export const AUTOSUBMIT_MS = 500
export const MIN_COLUMN_WIDTH = 60
export const GENERIC_ERROR = 'An error has occurred'

export const DATE_RANGES = [
  { value: 'last7Days', label: '7D' },
  { value: 'last30Days', label: '30D' },
  { value: 'last3Months', label: '3M' },
  { value: 'last6Months', label: '6M' },
  { value: 'lastYear', label: 'Year' },
] as const
export type DateRange = (typeof DATE_RANGES)[number]['value']
