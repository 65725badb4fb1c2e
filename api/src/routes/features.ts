import { Hono } from 'hono'
import { createFeatureSchema, FEATURE_ERRORS, updateFeatureSchema, type FeatureDetail, type FeatureList } from '@fl0/contracts'
import { createFeature, deleteFeature, DUPLICATE_NAME, findFeature, listFeatures, updateFeature, type Feature } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'

const detail = (f: Feature): FeatureDetail => ({ id: f.id, name: f.name, events: f.events.map((event_name) => ({ event_name })) })

/** A name another feature of the organisation has (ignoring case): 409 on the name field, shown beside it. */
const duplicateName = () => fieldError('name', FEATURE_ERRORS.duplicateName, 409)

/**
 * /api-v2/orgs/{organization}/features: list, read, create, change and delete
 * features (spec part 1 §7). Every member may do each (the specification has
 * no roles here). Another organisation's feature, or none, is a 404
 * 'Feature not found': nothing tells the two apart.
 */
export function createFeaturesRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const features = await listFeatures(deps.sql, currentOrg(c).id)
    return c.json({ features: features.map(({ id, name }) => ({ id, name })) } satisfies FeatureList)
  })

  app.get('/:featureId', async (c) => {
    const feature = await findFeature(deps.sql, currentOrg(c).id, c.req.param('featureId'))
    if (!feature) throw notFound(FEATURE_ERRORS.notFound)
    return c.json(detail(feature))
  })

  app.post('/', jsonBody(createFeatureSchema), async (c) => {
    const org = currentOrg(c)
    const { name, events } = c.req.valid('json')
    const feature = await createFeature(deps.sql, { orgId: org.id, name, events })
    if (feature === DUPLICATE_NAME) throw duplicateName()
    deps.logger.info({ orgId: org.id, featureId: feature.id, by: sessionUser(c).id }, 'feature created')
    return c.json(detail(feature), 201)
  })

  app.patch('/:featureId', jsonBody(updateFeatureSchema), async (c) => {
    const feature = await updateFeature(deps.sql, currentOrg(c).id, c.req.param('featureId'), c.req.valid('json'))
    if (feature === DUPLICATE_NAME) throw duplicateName()
    if (!feature) throw notFound(FEATURE_ERRORS.notFound)
    return c.json(detail(feature))
  })

  app.delete('/:featureId', async (c) => {
    const org = currentOrg(c)
    const deleted = await deleteFeature(deps.sql, org.id, c.req.param('featureId'))
    if (!deleted) throw notFound(FEATURE_ERRORS.notFound)
    deps.logger.info({ orgId: org.id, featureId: deleted.id, by: sessionUser(c).id }, 'feature deleted')
    return c.body(null, 204)
  })

  return app
}
