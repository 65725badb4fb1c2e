import { findOrganisationByUrlCode, migrateMetadata, openPglite, type EventStore, type Sql } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { createJobRunner } from '@fl0/workers'
import { createApi, type ApiOptions } from './index.ts'

/**
 * The api on an in-memory PGlite (real PostgreSQL), with a clock the test moves
 * and a logger that keeps what it is told (the invitation links, when no SMTP
 * server is set, are read from it as an admin would read them from the log).
 */
export interface LogLine {
  level: 'info' | 'warn' | 'error'
  obj: Record<string, unknown>
  msg: string
}

export const TEST_PUBLIC_URL = 'http://fl0.test'

export async function createTestApi(options: { exportDatabase?: () => Promise<Sql> } & Partial<Pick<ApiOptions, 'oidc' | 'smtp' | 'sessionTtlMs' | 'configuredPublicUrl' | 'revokeWriteKey' | 'revokeWebhook' | 'paragon' | 'logoUrlTemplate' | 'clientAddress' | 'throttleLimits' | 'uploadMaxBytes'>> = {}) {
  const sql: Sql = await openPglite()
  await migrateMetadata(sql)
  // A real ClickHouse (chDB) in a fresh directory; one per test file, as chDB allows one per process.
  const events: EventStore = await openTestEventStore()
  const clock = { now: new Date('2026-03-02T09:00:00.000Z') }
  const logs: LogLine[] = []
  const log = (level: LogLine['level']) => (obj: object, msg: string) => void logs.push({ level, obj: obj as Record<string, unknown>, msg })
  const app = createApi({
    sql,
    events,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    publicUrl: () => TEST_PUBLIC_URL,
    now: () => clock.now,
    ...options,
    exportConfigured: options.exportDatabase !== undefined,
  })
  // The workers role's job runner, as an embedded fl0 runs it beside the api: the Tools' refreshes and copy are queued for it.
  const jobs = createJobRunner({ sql, events, logger: { info: log('info'), warn: log('warn'), error: log('error') }, now: () => clock.now, exportDatabase: options.exportDatabase, pollMs: 50 })
  jobs.start()

  async function call(method: string, path: string, init: { body?: unknown; cookie?: string; headers?: Record<string, string>; url?: string } = {}) {
    const headers: Record<string, string> = { ...init.headers }
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    if (init.cookie) headers.cookie = init.cookie
    return app.request(`${init.url ?? TEST_PUBLIC_URL}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    })
  }

  /** Signs a token in and returns the session cookie ("fl0_session=…") and the user. */
  async function signInWith(token: string) {
    const res = await call('POST', '/api/sign-in', { body: { token } })
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
    const cookie = sessionCookieOf(res)
    return { cookie, user: ((await res.json()) as { user: { id: string; email: string; name: string; isStaff: boolean } }).user }
  }

  /** A new local account, its address confirmed by the link it was sent, signed in. */
  async function signUp(name: string, email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`, password = 'correct horse battery') {
    const res = await call('POST', '/api/auth/local/sign-up', { body: { name, email, password } })
    if (res.status !== 202) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
    return signInWith(await confirmEmail(email, password))
  }

  /** The secret of the last link of `kind` logged for `email` (no SMTP server: the link is in the log). */
  function mailedSecretFor(email: string, kind: 'verify-email' | 'reset-password' | 'account-exists'): string {
    const line = [...logs].reverse().find((l) => l.obj.email === email.toLowerCase() && l.obj.kind === kind && typeof l.obj.link === 'string')
    if (!line) throw new Error(`no ${kind} link logged for ${email}`)
    return new URL(line.obj.link as string).searchParams.get('token')!
  }

  /** Follows the confirmation link logged for `email`, with the password chosen at sign-up: the ID token it hands back. */
  async function confirmEmail(email: string, password = 'correct horse battery'): Promise<string> {
    const res = await call('POST', '/api/auth/local/verify-email', { body: { token: mailedSecretFor(email, 'verify-email'), password } })
    if (res.status !== 201) throw new Error(`confirming ${email} failed: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { token: string }).token
  }

  /** A new organisation created by `cookie`'s user (its admin). */
  async function createOrg(cookie: string, name: string) {
    const res = await call('POST', '/api/orgs', { cookie, body: { name, variant: 'modal' } })
    if (res.status !== 201) throw new Error(`create org failed: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { url_code: string }).url_code
  }

  /**
   * A new local account, signed in, with a new organisation of its own (its
   * admin): the set-up most route tests start from, once for the member and
   * once for a stranger in another organisation.
   */
  async function signUpWithOrg(name: string, orgName: string) {
    const { cookie, user } = await signUp(name)
    const urlCode = await createOrg(cookie, orgName)
    const org = await findOrganisationByUrlCode(sql, urlCode)
    if (!org) throw new Error(`organisation ${urlCode} not found after creating it`)
    return { cookie, user, urlCode, orgId: org.id }
  }

  /** The accept link of the last invitation logged for `email`. */
  function invitationLinkFor(email: string): string {
    const line = [...logs].reverse().find((l) => l.obj.email === email && l.obj.kind === 'invitation' && typeof l.obj.link === 'string')
    if (!line) throw new Error(`no invitation logged for ${email}`)
    return line.obj.link as string
  }

  return {
    app,
    sql,
    events,
    clock,
    logs,
    call,
    signInWith,
    signUp,
    mailedSecretFor,
    confirmEmail,
    createOrg,
    signUpWithOrg,
    invitationLinkFor,
    close: async () => {
      await jobs.stop()
      await events.close()
      await sql.close()
    },
  }
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>

export function sessionCookieOf(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('fl0_session='))
  if (!header) throw new Error('no session cookie set')
  return header.split(';')[0]!
}

export const daysMs = (days: number) => days * 24 * 60 * 60 * 1000
