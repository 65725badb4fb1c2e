import type { Context } from 'hono'
import { streamText } from 'hono/streaming'
import { errorBody, IDENTIFICATION_TEXT, type Job, type JobKind } from '@fl0/contracts'
import { ALREADY_RUNNING, findAdminJob, latestAdminJob, listOrganisations } from '@fl0/stores'
import { awaitJob, importBusinessIntents, importCookies, importIpToCompany, importUniversalTable, queueJob, runJob, type QueuedJobKind } from '@fl0/workers'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { sessionUser } from '../guard/index.ts'
import { ApiError, fieldError } from '../http/errors.ts'
import { uploadedFile } from './upload.ts'

/**
 * The Tools page's calls (part 1 §2, §7; docs/identification.md): each
 * starts a job (@fl0/workers: an import here, where its upload arrives; a
 * refresh or the copy in the workers role) and answers when it has finished: 200 with
 * the job, 422 with the job when it failed, 409 while one of its kind runs.
 */
type Ctx = Context<ApiEnv>

async function answer(c: Ctx, outcome: Awaited<ReturnType<typeof runJob>>) {
  if (outcome === ALREADY_RUNNING) throw new ApiError(409, IDENTIFICATION_TEXT.alreadyRunning)
  if (outcome.ok) return c.json(outcome.job, 200)
  const errors = outcome.job.errors.map((e) => ({ name: e.line === null ? 'file' : `line ${e.line}`, message: e.message }))
  return c.json({ ...errorBody(outcome.job.message, errors), job: outcome.job }, 422)
}

type Importer = (client: ApiDeps['events']['client'], input: import('node:stream').Readable, fileName: string, progress: import('@fl0/workers').Progress, now: Date) => Promise<string>

const IMPORTERS: Record<'import-cookies' | 'import-ip-to-company' | 'import-business-intents', Importer> = {
  'import-cookies': importCookies,
  'import-ip-to-company': importIpToCompany,
  'import-business-intents': importBusinessIntents,
}

/** POST /import-*: the multipart `file`, read as it arrives. */
export async function runImport(deps: ApiDeps, c: Ctx, kind: keyof typeof IMPORTERS) {
  const upload = await uploadedFile(c, deps.uploadMaxBytes)
  try {
    const now = deps.now()
    const outcome = await runJob(deps, { kind, fileName: upload.fileName, startedBy: sessionUser(c).id }, (progress) =>
      IMPORTERS[kind](deps.events.client, upload.stream, upload.fileName, progress, now),
    )
    // The upload was cut off (past its limit, or the client went): the rest of its body is not read, so the connection cannot carry another request.
    if (upload.stream.errored) c.header('Connection', 'close')
    return await answer(c, outcome)
  } finally {
    upload.stream.resume() // whatever is left of the upload is drained, so the request ends
  }
}

/**
 * The organisation a refresh or the copy is limited to: JSON { orgId }, or,
 * with no body or no orgId, every organisation. A body that cannot say which
 * (not JSON, an orgId that is not a known organisation's id) is a 400: it
 * never widens the job to every organisation.
 */
async function orgIdsOf(deps: ApiDeps, c: Ctx): Promise<string[] | undefined> {
  const text = await c.req.text()
  if (!text.trim()) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw fieldError('body', IDENTIFICATION_TEXT.bodyNotObject)
  const { orgId } = body as { orgId?: unknown }
  if (orgId === undefined || orgId === null) return undefined
  if (typeof orgId !== 'string' || !(await listOrganisations(deps.sql)).some((o) => o.id === orgId)) throw fieldError('orgId', IDENTIFICATION_TEXT.unknownOrg)
  return [orgId]
}

/**
 * POST /refresh-*, /copy-*: queued for the workers role (@fl0/workers'
 * queueJob), which claims and runs it; answered once it has ended, as the
 * Tools page expects, or 409 while one of its kind runs.
 */
export async function runRefresh(deps: ApiDeps, c: Ctx, kind: QueuedJobKind) {
  const orgIds = await orgIdsOf(deps, c)
  if (kind === 'copy-pages-to-supabase' && !deps.exportConfigured) throw new ApiError(400, IDENTIFICATION_TEXT.exportNotConfigured)
  const row = await queueJob(deps, kind, orgIds ? { orgIds } : {}, sessionUser(c).id)
  if (row !== ALREADY_RUNNING) deps.jobQueued?.()
  return answer(c, row === ALREADY_RUNNING ? row : await awaitJob(deps, row.id))
}

const UNIVERSAL: JobKind = 'import-universal-table'

/**
 * POST /universal-table/import: the upload streamed into the universal table,
 * its progress streamed back as text lines as they happen (the dialog appends
 * each chunk to its log). Errors before the stream starts are JSON.
 */
export async function runUniversalImport(deps: ApiDeps, c: Ctx) {
  const upload = await uploadedFile(c, deps.uploadMaxBytes)
  const now = deps.now()
  let started: (job: Job | undefined) => void
  const ready = new Promise<Job | undefined>((resolve) => (started = resolve))
  const lines: string[] = []
  let wake: (() => void) | undefined
  const push = (line: string) => {
    lines.push(line)
    wake?.()
  }
  const done = runJob(
    deps,
    { kind: UNIVERSAL, fileName: upload.fileName, startedBy: sessionUser(c).id },
    (progress) => importUniversalTable(deps.events.client, upload.stream, upload.fileName, progress, now),
    { onLine: push, onStarted: (job) => started(job) },
  ).then(
    (outcome) => {
      if (outcome === ALREADY_RUNNING) started(undefined)
      return outcome
    },
    (error) => {
      started(undefined)
      throw error
    },
  )
  const job = await ready
  if (!job) {
    upload.stream.resume()
    await done
    throw new ApiError(409, IDENTIFICATION_TEXT.alreadyRunning)
  }
  return streamText(c, async (stream) => {
    let finished = false
    // Marked either way, and the failure handled here too: `finally` would hand it on to a promise nobody awaits
    // (an unhandled rejection, which ends the process). The failure itself is answered after the lines.
    const mark = () => {
      finished = true
      wake?.()
    }
    done.then(mark, mark)
    for (;;) {
      while (lines.length > 0) await stream.writeln(lines.shift()!)
      if (finished) break
      await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
    }
    await done.catch((err) => stream.writeln(`Failed: ${(err as Error).message}`))
    upload.stream.resume()
  })
}

/**
 * GET /universal-table/import: the running import's log from its start, then
 * its lines as they come (read from its job row, so any api process can
 * follow it), or the last import's log.
 */
export async function followUniversalImport(deps: ApiDeps, c: Ctx) {
  const first = await latestAdminJob(deps.sql, UNIVERSAL)
  return streamText(c, async (stream) => {
    if (!first) {
      await stream.writeln(IDENTIFICATION_TEXT.noUniversalImport)
      return
    }
    let sent = 0
    for (let job = first; ; ) {
      if (job.log.length > sent) {
        await stream.write(job.log.slice(sent))
        sent = job.log.length
      }
      if (job.status !== 'running' || stream.aborted) break
      await stream.sleep(1_000)
      job = (await findAdminJob(deps.sql, job.id)) ?? job
    }
  })
}
