import { Hono } from 'hono'
import {
  LEXICON_ERRORS,
  PROPERTY_PATH_MAX,
  TRAIT_ENTITIES,
  type AudienceTraits,
  type PropertyPathList,
  type PropertyValueList,
  type TraitEntity,
  type TraitValues,
} from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError } from '../http/errors.ts'
import { currentOrg } from '../guard/index.ts'
import { eventProperties, lexiconTraits, propertyValues, traitValues } from '@fl0/query'
import { eventNameParam } from './lexicon.ts'

function pathParam(name: string, value: string): string {
  if (value.length > PROPERTY_PATH_MAX) throw fieldError(name, LEXICON_ERRORS.pathTooLong)
  return value
}

/**
 * /api/orgs/{organization}/audiences/traits (part 2 §7, shared look-ups): the
 * trait names and types of users and companies, and the values one took, for
 * the metric editor's audience filters.
 */
export function createAudienceTraitsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const answer: AudienceTraits = { company_traits: {}, user_traits: {} }
    for (const t of await lexiconTraits(deps.events, { orgId: currentOrg(c).id })) {
      answer[t.entity === 'company' ? 'company_traits' : 'user_traits'][t.name] = t.traitType
    }
    return c.json(answer)
  })

  app.get('/:audienceType/:traitName/values', async (c) => {
    const entity = c.req.param('audienceType')
    if (!TRAIT_ENTITIES.includes(entity as TraitEntity)) throw fieldError('audienceType', LEXICON_ERRORS.audienceType)
    const name = pathParam('traitName', c.req.param('traitName'))
    const values = await traitValues(deps.events, { orgId: currentOrg(c).id, entity: entity as TraitEntity, name })
    return c.json({ values } satisfies TraitValues)
  })

  return app
}

/**
 * /api/orgs/{organization}/events/{eventName}/properties (part 2 §7, shared
 * look-ups): an event's property paths from the lexicon, and the values one
 * took, from the events store, for the metric editor's event filters.
 */
export function createEventLookupsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/:eventName/properties', async (c) => {
    const event = eventNameParam(c.req.param('eventName'))
    const properties = (await eventProperties(deps.events, { orgId: currentOrg(c).id, events: [event] })).get(event) ?? []
    return c.json({ items: properties.map((p) => ({ path: p.name })) } satisfies PropertyPathList)
  })

  app.get('/:eventName/properties/:path/values', async (c) => {
    const event = eventNameParam(c.req.param('eventName'))
    const path = pathParam('path', c.req.param('path'))
    const values = await propertyValues(deps.events, { orgId: currentOrg(c).id, event, path })
    return c.json({ items: values.map((value) => ({ value })) } satisfies PropertyValueList)
  })

  return app
}
