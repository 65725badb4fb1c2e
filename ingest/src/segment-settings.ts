import { Hono } from 'hono'
import type { WriteKeys } from './write-keys.ts'
import { ingestError } from './errors.ts'
import { isPossibleKey } from './accept.ts'

/**
 * GET /v1/projects/{writeKey}/settings: the settings analytics.js 2.0 fetches
 * from its CDN before it sends anything. With `cdnURL` pointed at fl0,
 * `AnalyticsBrowser.load({ writeKey, cdnURL: 'https://fl0.example.com' })` is
 * all a site needs: the settings name fl0's /v1 as the Segment.io
 * destination's apiHost, ask for no remote plugins or destinations (nothing is
 * loaded from Segment's CDN), and turn analytics.js's own telemetry off
 * (metrics.sampleRate 0), which would otherwise go to Segment.
 */
export function createSegmentSettingsRoute(deps: { writeKeys: WriteKeys; publicUrl?: string }) {
  const app = new Hono()
  app.get('/v1/projects/:writeKey/settings', async function segmentSettings(c) {
    const writeKey = c.req.param('writeKey')
    const known = isPossibleKey(writeKey) ? await deps.writeKeys.resolve(writeKey) : undefined
    if (!known) return ingestError(c, 404, 'unknown_write_key', 'Unknown write key', [{ name: 'writeKey', message: 'must be the write key of an existing source' }])
    const base = new URL(deps.publicUrl ?? new URL(c.req.url).origin)
    const everything = { __default: { enabled: true, integrations: {} } }
    return c.json(
      {
        integrations: {
          'Segment.io': {
            apiKey: writeKey,
            apiHost: `${base.host}${base.pathname.replace(/\/$/, '')}/v1`,
            protocol: base.protocol.replace(':', ''),
            unbundledIntegrations: [],
            addBundledMetadata: true,
            maybeBundledConfigIds: {},
            versionSettings: { version: '4.4.7', componentTypes: ['browser'] },
          },
        },
        plan: { track: everything, identify: everything, group: everything },
        edgeFunction: {},
        analyticsNextEnabled: true,
        middlewareSettings: {},
        enabledMiddleware: {},
        metrics: { sampleRate: 0 },
        legacyVideoPluginsEnabled: false,
        remotePlugins: [],
      },
      200,
      { 'cache-control': 'public, max-age=300' },
    )
  })
  return app
}
