import type { Context } from 'hono'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'

/**
 * The host a pasted snippet loads fl0.js from and sends events to: FL0_PUBLIC_URL
 * when set, else the address the dashboard was reached at. So a snippet copied
 * from a dashboard on the local machine points at the local machine, and one
 * copied from fl0's own host points there.
 */
export function snippetHost(deps: ApiDeps, c: Context<ApiEnv>): string {
  if (deps.configuredPublicUrl) return deps.configuredPublicUrl.replace(/\/+$/, '')
  const url = new URL(c.req.url)
  const proto = c.req.header('x-forwarded-proto') ?? url.protocol.replace(':', '')
  const host = c.req.header('host') ?? url.host
  return `${proto}://${host}`
}
