/** Where the reports screens live, and the name their lists are refetched by. */
export const REPORTS = 'reports'

export const reportsPath = (org: string) => `/organizations/${encodeURIComponent(org)}/reports`
export const reportPath = (org: string, id: string) => `${reportsPath(org)}/${encodeURIComponent(id)}`
export const featureReportPath = (org: string, featureId: string) => `${reportsPath(org)}/features/${encodeURIComponent(featureId)}`
export const metricPath = (org: string, metricId: string) => `/organizations/${encodeURIComponent(org)}/metrics/${encodeURIComponent(metricId)}`
