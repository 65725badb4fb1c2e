import { existsSync, readFileSync, statSync } from 'node:fs'
import { Hono, type Context } from 'hono'
import { compress } from 'hono/compress'
import { serveStatic } from '@hono/node-server/serve-static'

export { dashboardDist } from './build.ts'

/** Paths the dashboard never answers: the API, ingest, the snippet and health. */
const SERVER_PATHS = ['/api', '/api-v2', '/v1', '/i', '/fl0.js', '/healthz']

export function isServerPath(path: string): boolean {
  return SERVER_PATHS.some((p) => path === p || path.startsWith(p + '/'))
}

/**
 * The built dashboard: hashed assets under /assets with a year's immutable
 * cache, and index.html (never cached, so a new build is picked up at once) for
 * every other GET, so that client routes such as /organizations/acme/people
 * load the app (SPA fallback). Server paths fall through to the routes mounted
 * beside this one, whatever the mount order.
 */
export function createDashboardRoutes(distDir: string): Hono {
  const app = new Hono()
  const indexPath = `${distDir}/index.html`
  let cached: { mtimeMs: number; html: string } | undefined

  const readIndex = () => {
    // Re-read only when a rebuild replaced it; a missing build answers a plain explanation.
    if (!existsSync(indexPath)) return undefined
    const { mtimeMs } = statSync(indexPath)
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexPath, 'utf8') }
    return cached.html
  }

  app.use(
    '/assets/*',
    async function assetCache(c, next) {
      await next()
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable')
    },
    compress(),
    serveStatic({ root: distDir }),
    // A missing chunk is a 404, never index.html (the browser would run HTML as a script).
    async (c) => c.text('Not found\n', 404),
  )

  app.get('*', async function spaFallback(c: Context, next) {
    if (isServerPath(c.req.path)) return next()
    const html = readIndex()
    if (!html) return c.text('The dashboard is not built: run `npm run build` (npm start does it when needed).\n', 503)
    c.header('Cache-Control', 'no-cache')
    return c.html(html)
  })
  return app
}
