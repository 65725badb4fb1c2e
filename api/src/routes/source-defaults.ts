import { Hono } from 'hono'
import { SOURCE_DEFAULT_NAMES, type SegmentDefaults, type SnippetDefaults } from '@fl0/contracts'
import { newId, newWriteKey } from '@fl0/stores'
import { snippetCode } from '@fl0/snippet'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { snippetHost } from './snippet-host.ts'

/**
 * What a new source would be (spec part 1 §7), before anything is stored: a
 * fresh id and write key and the default name, so the dashboard can show the
 * key (and the snippet to paste) while the user fills in the form. Creating the
 * source posts the id and key back (routes/sources.ts checks them).
 * Not organisation-scoped: they need a signed-in user (the guard's 'session').
 */

/** GET /api/t/snippet: defaults for a new snippet source, with the code to paste. */
export function createSnippetDefaultsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.get('/snippet', (c) => {
    const apiKey = newWriteKey()
    const body: SnippetDefaults = {
      id: newId(),
      snippet: snippetCode(apiKey, { apiHost: snippetHost(deps, c) }),
      name: SOURCE_DEFAULT_NAMES.snippet,
      url: '',
      api_key: apiKey,
    }
    return c.json(body)
  })
  return app
}

/** GET /api/sources/segment: defaults for a new Segment source. */
export function createSegmentDefaultsRoutes() {
  const app = new Hono<ApiEnv>()
  app.get('/segment', (c) => {
    const body: SegmentDefaults = { id: newId(), name: SOURCE_DEFAULT_NAMES.segment, api_key: newWriteKey() }
    return c.json(body)
  })
  return app
}
