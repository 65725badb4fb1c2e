import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findAdminJob, migrateMetadata, openPglite, type EventStore, type Sql } from '@fl0/stores'
import { openTestEventStore } from '@fl0/stores/events/testing'
import { failingOnce } from '@fl0/stores/metadata/testing'
import { awaitJob, createJobRunner, NO_WORKERS, queueJob } from './queue.ts'

/**
 * The queue between the API and the workers role, on PGlite and chDB: a
 * queued refresh is run once by the runners there are, and answered with its
 * outcome; with no workers process, the wait ends in a failure that says why.
 */
let sql: Sql
let events: EventStore
const finished: string[] = []
const logger = { info: (o: object, m: string) => void (m === 'admin job finished' && finished.push((o as { jobId: string }).jobId)), warn: () => {}, error: () => {} }
const deps = () => ({ sql, now: () => new Date() })

beforeAll(async () => {
  sql = await openPglite()
  await migrateMetadata(sql)
  events = await openTestEventStore()
})
afterAll(async () => {
  await events?.close()
  await sql?.close()
})

describe('queued admin jobs', () => {
  it('are claimed by one of the running workers and answered with their outcome', async () => {
    const runners = [1, 2].map(() => createJobRunner({ sql, events, logger, now: () => new Date(), pollMs: 20 }))
    try {
      const row = await queueJob(deps(), 'refresh-pages-and-activities', {}, null)
      if (row === 'already-running') throw new Error('nothing should be running')
      expect(row.claimed_at).toBeNull()
      expect(await queueJob(deps(), 'refresh-pages-and-activities', {}, null)).toBe('already-running')
      for (const r of runners) r.start()
      const outcome = await awaitJob(deps(), row.id, { pollMs: 20 })
      expect(outcome.ok).toBe(true)
      expect(outcome.job.status).toBe('succeeded')
      expect((await findAdminJob(sql, row.id))?.claimed_at).not.toBeNull()
      expect(finished.filter((id) => id === row.id)).toHaveLength(1)
    } finally {
      await Promise.all(runners.map((r) => r.stop()))
    }
  })

  it('are claimed at once when the runner is nudged, however long its poll (embedded: the api nudges it as it queues)', async () => {
    const runner = createJobRunner({ sql, events, logger, now: () => new Date(), pollMs: 3_600_000 })
    runner.start()
    try {
      // Its first look, at start, finds nothing; its next would be an hour away.
      await new Promise((r) => setTimeout(r, 200))
      for (const kind of ['refresh-sessions', 'refresh-pages-and-activities'] as const) {
        const row = await queueJob(deps(), kind, {}, null)
        if (row === 'already-running') throw new Error('nothing should be running')
        runner.nudge()
        const outcome = await awaitJob(deps(), row.id, { pollMs: 20, silenceMs: 10_000 })
        expect(outcome).toMatchObject({ ok: true, job: { status: 'succeeded' } })
      }
      // Two queued back to back, each nudged while the runner is busy with the one before: neither waits for the poll.
      const first = await queueJob(deps(), 'refresh-sessions', {}, null)
      runner.nudge()
      const second = await queueJob(deps(), 'refresh-pages-and-activities', {}, null)
      runner.nudge()
      for (const row of [first, second]) {
        if (row === 'already-running') throw new Error('nothing should be running')
        expect((await awaitJob(deps(), row.id, { pollMs: 20, silenceMs: 10_000 })).ok).toBe(true)
      }
    } finally {
      await runner.stop()
    }
  })

  it('are claimed within a second after a failed claim, however long the poll (the api fails a job no runner takes within a minute)', async () => {
    // The database fails the runner's first claim, as a passing error would; the job is queued meanwhile.
    const flaky = failingOnce(sql, 'UPDATE admin_jobs SET claimed_at')
    const row = await queueJob(deps(), 'refresh-sessions', {}, null)
    if (row === 'already-running') throw new Error('nothing should be running')
    const runner = createJobRunner({ sql: flaky, events, logger, now: () => new Date(), pollMs: 3_600_000 })
    runner.start()
    try {
      const outcome = await awaitJob(deps(), row.id, { pollMs: 20, silenceMs: 30_000 })
      expect(outcome).toMatchObject({ ok: true, job: { status: 'succeeded' } })
      expect(flaky.asked()).toBeGreaterThanOrEqual(2)
    } finally {
      await runner.stop()
    }
  })

  it('fail, saying so, when no workers process claims them', async () => {
    const row = await queueJob(deps(), 'refresh-sessions', { orgIds: ['nope'] }, null)
    if (row === 'already-running') throw new Error('nothing should be running')
    const outcome = await awaitJob(deps(), row.id, { pollMs: 20, silenceMs: 200 })
    expect(outcome).toMatchObject({ ok: false, job: { status: 'failed', message: NO_WORKERS } })
    // A workers process started later runs the next job, not this one.
    const late = createJobRunner({ sql, events, logger, now: () => new Date(), pollMs: 20 })
    late.start()
    try {
      const next = await queueJob(deps(), 'refresh-sessions', {}, null)
      if (next === 'already-running') throw new Error('the failed job no longer runs')
      expect((await awaitJob(deps(), next.id, { pollMs: 20 })).ok).toBe(true)
    } finally {
      await late.stop()
    }
    expect(finished).not.toContain(row.id)
    expect((await findAdminJob(sql, row.id))?.status).toBe('failed')
  })
})
