import { Hono } from 'hono'
import { REPORT_ERRORS, saveReportSchema, type Report, type ReportSummary, type SavedReport } from '@fl0/contracts'
import { createReport, deleteReport, findReport, listReports, UNKNOWN_METRIC, updateReport, type ReportRow } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'

const view = (r: ReportRow): Report => ({
  id: r.id,
  name: r.name,
  description: r.description,
  metrics: r.metrics,
  metric_count: r.metrics.length,
  updated_date: r.updated_date,
})

/** A metric id the organisation does not have: beside the metric list, nothing saved. */
const unknownMetric = () => fieldError('metric_ids', REPORT_ERRORS.unknownMetric)

/**
 * /api/orgs/{organization}/reports: custom reports (spec part 3 §7). One POST
 * saves the editor's state: without report_id it creates the report (the
 * editor's first save, once named) and answers its id; with one it changes
 * that report. Every member may do each (part 3 §6: no role checks).
 * Another organisation's report, or none, is a 404 'Report not found'.
 */
export function createReportsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const reports = await listReports(deps.sql, currentOrg(c).id)
    return c.json(reports satisfies ReportSummary[])
  })

  app.get('/:reportId', async (c) => {
    const report = await findReport(deps.sql, currentOrg(c).id, c.req.param('reportId'))
    if (!report) throw notFound(REPORT_ERRORS.notFound)
    return c.json(view(report))
  })

  app.post('/', jsonBody(saveReportSchema), async (c) => {
    const org = currentOrg(c)
    const { report_id, name, description, metric_ids } = c.req.valid('json')
    if (report_id) {
      const report = await updateReport(deps.sql, org.id, report_id, { name, description, metricIds: metric_ids })
      if (report === UNKNOWN_METRIC) throw unknownMetric()
      if (!report) throw notFound(REPORT_ERRORS.notFound)
      return c.json({ report_id: report.id } satisfies SavedReport)
    }
    const report = await createReport(deps.sql, { orgId: org.id, name, description, metricIds: metric_ids ?? [] })
    if (report === UNKNOWN_METRIC) throw unknownMetric()
    deps.logger.info({ orgId: org.id, reportId: report.id, by: sessionUser(c).id }, 'report created')
    return c.json({ report_id: report.id } satisfies SavedReport, 201)
  })

  app.delete('/:reportId', async (c) => {
    const org = currentOrg(c)
    const deleted = await deleteReport(deps.sql, org.id, c.req.param('reportId'))
    if (!deleted) throw notFound(REPORT_ERRORS.notFound)
    deps.logger.info({ orgId: org.id, reportId: deleted.id, by: sessionUser(c).id }, 'report deleted')
    return c.body(null, 204)
  })

  return app
}
