import { Hono } from 'hono'
import { EVENT_SEARCH_MAX, KNOWN_EVENTS_MAX, type KnownEventList } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { fieldError } from '../http/errors.ts'
import { currentOrg } from '../guard/index.ts'
import { knownEvents } from '../queries/events/known-events.ts'

export const SEARCH_TOO_LONG = `Search must have at most ${EVENT_SEARCH_MAX} characters`

/**
 * /api-v2/orgs/{organization}/events: the organisation's known events, from the
 * events store (contracts/features.ts, KnownEventList). `?search=` narrows them
 * by name, so an organisation with more than the list holds finds the rest.
 */
export function createEventsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const search = (c.req.query('search') ?? '').trim()
    if (search.length > EVENT_SEARCH_MAX) throw fieldError('search', SEARCH_TOO_LONG)
    const events = await knownEvents(deps.events, { orgId: currentOrg(c).id, search, limit: KNOWN_EVENTS_MAX })
    return c.json({ events } satisfies KnownEventList)
  })

  return app
}
