import { Hono } from 'hono'
import { SOURCE_DEFAULT_NAMES, type SnippetDefaults } from '@fl0/contracts'
import { newId, newWriteKey } from '@fl0/stores'
import { snippetCode } from '@fl0/snippet/snippet-code'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { snippetHost } from './snippet-host.ts'

/**
 * GET /api/t/snippet: what a new snippet source would be (spec part 1 §7): a
 * fresh id and write key, the default name, and the code to paste with that key.
 * Nothing is stored until the source is created with them.
 */
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
