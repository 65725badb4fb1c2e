import { Hono } from 'hono'
import { errorBody } from '@fl0/contracts'
import type { ApiDeps } from './deps.ts'
import type { ApiEnv } from './env.ts'
import { createErrorHandler } from './http/errors.ts'
import { createGuard } from './guard/index.ts'
import { refuseNulInAddress, refuseNulInJsonBody } from './http/nul.ts'
import { countUndeclaredBodies, refuseDeclaredTooLarge } from './http/body-limit.ts'
import { refuseCrossSite } from './http/same-origin.ts'
import { createAuthRoutes } from './routes/auth.ts'
import { createSessionRoutes } from './routes/session.ts'
import { createUsersRoutes } from './routes/users.ts'
import { createOrgsRoutes } from './routes/orgs.ts'
import { createTeamRoutes } from './routes/team.ts'
import { createInvitationsRoutes, createOrgInvitationsRoutes } from './routes/invitations.ts'
import { createSettingsRoutes } from './routes/settings.ts'
import { createAdminRoutes } from './routes/admin.ts'
import { createDataSourcesRoutes } from './routes/data-sources.ts'
import { createCompaniesRoutes } from './routes/companies.ts'
import { createEventsRoutes } from './routes/events.ts'
import { createFeaturesRoutes } from './routes/features.ts'
import { createFeatureReportsRoutes } from './routes/feature-reports.ts'
import { createReportsRoutes } from './routes/reports.ts'
import { createIntegrationsRoutes } from './routes/integrations.ts'
import { createSegmentDefaultsRoutes, createSnippetDefaultsRoutes } from './routes/source-defaults.ts'
import { createSourcesRoutes } from './routes/sources.ts'
import { createMetricsRoutes } from './routes/metrics.ts'
import { createMetricGraphRoutes } from './routes/metric-graph.ts'
import { createLexiconMappingRoutes, createLexiconRoutes } from './routes/lexicon.ts'
import { createAudienceTraitsRoutes, createEventLookupsRoutes } from './routes/lookups.ts'
import { createAudiencesRoutes } from './routes/audiences.ts'
import { createCompanyProfileRoutes, createPeopleListRoutes, createProfileTraitsRoutes, createUserEventsRoutes, createUserProfileRoutes } from './routes/people.ts'
import { createScoringRoutes } from './routes/scoring.ts'
import { createHomeRoutes } from './routes/home.ts'

/**
 * The API: /api and /api-v2, one router per resource. The guard is registered
 * first, on both prefixes, so it runs before every route here and every route
 * added later under them (see guard/policy.ts for who may call what). Ahead of
 * it, a change from another site's page is refused (http/same-origin.ts) and a
 * body whose declared size is past its call's limit is refused before it is
 * read; after it, one of undeclared size is counted as it arrives
 * (http/body-limit.ts). Around
 * it, the NUL character is refused in the path and query (before the guard,
 * which looks the organisation up) and in JSON bodies (after it, so no body
 * is read for a caller without a session): http/nul.ts.
 */
export function createApiApp(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.onError(createErrorHandler(deps.logger))

  const guard = createGuard(deps)
  const crossSite = refuseCrossSite(deps.configuredPublicUrl ? new URL(deps.configuredPublicUrl).origin : undefined)
  const declared = refuseDeclaredTooLarge(deps.uploadMaxBytes, deps.bodyDeadlineMs)
  const undeclared = countUndeclaredBodies()
  for (const prefix of ['/api/*', '/api-v2/*']) {
    app.use(prefix, crossSite)
    app.use(prefix, declared)
    app.use(prefix, refuseNulInAddress)
    app.use(prefix, guard)
    app.use(prefix, undeclared)
    app.use(prefix, refuseNulInJsonBody)
  }

  app.route('/api/auth', createAuthRoutes(deps))
  app.route('/api', createSessionRoutes(deps))
  app.route('/api/users', createUsersRoutes(deps))
  app.route('/api/orgs', createOrgsRoutes(deps))
  app.route('/api/orgs/:organization/users', createTeamRoutes(deps))
  app.route('/api/invitations', createInvitationsRoutes(deps))
  app.route('/api/orgs/:organization/invitations', createOrgInvitationsRoutes(deps))
  app.route('/api-v2/orgs/:organization/settings', createSettingsRoutes(deps))
  app.route('/api-v2/orgs/:organization/data-sources', createDataSourcesRoutes(deps))
  app.route('/api-v2/orgs/:organization/companies', createCompaniesRoutes(deps))
  app.route('/api-v2/orgs/:organization/events', createEventsRoutes(deps))
  app.route('/api-v2/orgs/:organization/features', createFeaturesRoutes(deps))
  app.route('/api-v2/orgs/:organization/features', createFeatureReportsRoutes(deps))
  app.route('/api/orgs/:organization/reports', createReportsRoutes(deps))
  app.route('/api-v2/orgs/:organization/integrations', createIntegrationsRoutes(deps))
  app.route('/api/t', createSnippetDefaultsRoutes(deps))
  app.route('/api/sources', createSegmentDefaultsRoutes())
  app.route('/api/orgs/:organization/sources', createSourcesRoutes(deps))
  app.route('/api/orgs/:organization/metrics', createMetricsRoutes(deps))
  app.route('/api-v2/orgs/:organization/metrics', createMetricGraphRoutes(deps))
  app.route('/api-v2/admin', createAdminRoutes(deps))
  app.route('/api/orgs/:organization/lexicon', createLexiconRoutes(deps))
  app.route('/api-v2/orgs/:organization/lexicon/mapping', createLexiconMappingRoutes(deps))
  app.route('/api/orgs/:organization/audiences/traits', createAudienceTraitsRoutes(deps))
  // After the trait look-ups: GET .../audiences/traits is theirs, not an audience id.
  app.route('/api/orgs/:organization/audiences', createAudiencesRoutes(deps))
  app.route('/api/orgs/:organization/events', createEventLookupsRoutes(deps))
  app.route('/api-v2/orgs/:organization/people', createPeopleListRoutes(deps))
  app.route('/api/orgs/:organization/people', createUserProfileRoutes(deps))
  app.route('/api-v2/orgs/:organization/users', createUserEventsRoutes(deps))
  app.route('/api/orgs/:organization/company', createCompanyProfileRoutes(deps))
  app.route('/api/orgs/:organization/profile_traits', createProfileTraitsRoutes(deps))
  // A change to a scoring model may queue a run: workers in this process take it at once (ApiDeps.jobQueued).
  app.use('/api-v2/orgs/:organization/scoring/*', async function announceQueuedRuns(c, next) {
    await next()
    if (c.req.method !== 'GET' && c.res.status < 400) deps.jobQueued?.()
  })
  app.route('/api-v2/orgs/:organization/scoring', createScoringRoutes(deps))
  app.route('/api-v2/orgs/:organization/home', createHomeRoutes(deps))

  // An unknown path under the API answers JSON, not the dashboard's page.
  app.all('/api/*', (c) => c.json(errorBody('Not found'), 404))
  app.all('/api-v2/*', (c) => c.json(errorBody('Not found'), 404))
  return app
}
