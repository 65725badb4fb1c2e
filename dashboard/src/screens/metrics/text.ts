/** The metrics screens' texts (part 2 §2, §8), kept verbatim. */
export const METRICS_TEXT = {
  heading: 'Metrics',
  create: 'Create metric...',
  search: 'Search metric by name...',
  invalid: 'Metric properties are not set',
  empty: 'No metrics found',
  newMetric: 'New metric',
  save: 'Save metric',
  cancel: 'Cancel',
  delete: 'Delete...',
  deleteHeader: 'Delete metric',
  deleteConfirm: (name: string) => `Are you sure you want to delete the metric "${name}"?`,
  saved: (name: string) => `Metric "${name}" has been saved`,
  deleted: 'Metric has been deleted',
  selectOptions: 'Select metric options',
  noEvents: 'No events found',
  noProperties: 'No properties found',
  noTraits: 'No traits found',
  noValues: 'No values found',
} as const

/** The name the metrics list is refetched by after a save or a delete. */
export const METRICS = 'metrics'

export const metricsPath = (org: string) => `/organizations/${encodeURIComponent(org)}/metrics`
