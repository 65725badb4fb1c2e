import { Hono } from 'hono'
import {
  EVENT_NAME_MAX,
  LEXICON_ERRORS,
  LEXICON_SEARCH_MAX,
  normaliseSelections,
  saveMappingSchema,
  type LexiconEventList,
  type LexiconPropertyList,
  type LexiconTraitList,
  type MappingEventList,
  type MappingSelections,
} from '@fl0/contracts'
import { getFeatureSelections, saveFeatureSelections } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, sessionUser } from '../guard/index.ts'
import { eventProperties, lexiconEvents, lexiconTraits, mappingEventNames } from '@fl0/query'

/** An event name from the address: longer than any event the ingest accepts can match none, so it is refused. */
export function eventNameParam(value: string): string {
  if (value.length > EVENT_NAME_MAX) throw fieldError('eventName', LEXICON_ERRORS.eventTooLong)
  return value
}

/**
 * /api/orgs/{organization}/lexicon (part 2 §7): the dictionary the lexicon
 * worker keeps (event names with their 30-day volume, each event's properties,
 * the traits), read from the events store.
 */
export function createLexiconRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/events', async (c) => {
    const events = await lexiconEvents(deps.events, { orgId: currentOrg(c).id, now: deps.now() })
    return c.json({ events } satisfies LexiconEventList)
  })

  app.get('/events/:eventName/properties', async (c) => {
    const event = eventNameParam(c.req.param('eventName'))
    const properties = (await eventProperties(deps.events, { orgId: currentOrg(c).id, events: [event] })).get(event) ?? []
    return c.json({ properties } satisfies LexiconPropertyList)
  })

  app.get('/traits', async (c) => {
    const traits = await lexiconTraits(deps.events, { orgId: currentOrg(c).id })
    return c.json({ traits: traits.map(({ name, traitType, eventType }) => ({ name, traitType, eventType })) } satisfies LexiconTraitList)
  })

  return app
}

/** ?page= as the mapping list sends it: a whole number from 1; absent is 1. */
function pageParam(value: string | undefined): number {
  if (value === undefined || value === '') return 1
  if (!/^[1-9]\d{0,8}$/.test(value)) throw fieldError('page', LEXICON_ERRORS.page)
  return Number(value)
}

/**
 * /api-v2/orgs/{organization}/lexicon/mapping (part 2 §7): the organisation's
 * feature selections, saved whole on every change, and the paged, searchable
 * list of events with their properties that the Mapping tab ticks.
 */
export function createLexiconMappingRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const featureSelections = await getFeatureSelections(deps.sql, currentOrg(c).id)
    return c.json({ featureSelections } satisfies MappingSelections)
  })

  app.post('/', jsonBody(saveMappingSchema), async (c) => {
    const org = currentOrg(c)
    const saved = await saveFeatureSelections(deps.sql, org.id, c.req.valid('json').featureSelections)
    deps.logger.info({ orgId: org.id, by: sessionUser(c).id, excluded: saved.excludedEvents.length, included: saved.includedProperties.length }, 'feature selections saved')
    return c.json({ featureSelections: normaliseSelections(saved) } satisfies MappingSelections)
  })

  app.get('/events', async (c) => {
    const search = (c.req.query('search') ?? '').trim()
    if (search.length > LEXICON_SEARCH_MAX) throw fieldError('search', LEXICON_ERRORS.searchTooLong)
    const page = pageParam(c.req.query('page'))
    const orgId = currentOrg(c).id
    const { names, total } = await mappingEventNames(deps.events, { orgId, search, page })
    const properties = await eventProperties(deps.events, { orgId, events: names })
    return c.json({ events: names.map((name) => ({ name, properties: properties.get(name) ?? [] })), totalEvents: total } satisfies MappingEventList)
  })

  return app
}
