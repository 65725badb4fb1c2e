import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite } from './pglite.ts'
import { migrateMetadata } from './migrate.ts'
import type { Sql } from './sql.ts'
import { ALREADY_RUNNING, beatAdminJob, finishAdminJob, JOB_SILENCE_MS, latestAdminJob, listAdminJobs, startAdminJob, type AdminJobRow } from './admin-jobs.ts'

/** Admin jobs (migration 0010): one running job of a kind, a dead process's job failed after its silence, the log kept. */
let sql: Sql
beforeAll(async () => {
  sql = await openPglite()
  await migrateMetadata(sql)
})
afterAll(() => sql?.close())

const t0 = new Date('2026-03-02T09:00:00.000Z')
const later = (ms: number) => new Date(t0.getTime() + ms)

describe('admin jobs', () => {
  it('runs one job of a kind at a time; another kind runs beside it', async () => {
    const first = (await startAdminJob(sql, { kind: 'refresh-sessions', now: t0 })) as AdminJobRow
    expect(first).toMatchObject({ kind: 'refresh-sessions', status: 'running', counts: {}, errors: [] })
    expect(await startAdminJob(sql, { kind: 'refresh-sessions', now: later(1_000) })).toBe(ALREADY_RUNNING)
    expect(await startAdminJob(sql, { kind: 'import-cookies', now: later(1_000) })).not.toBe(ALREADY_RUNNING)
    await beatAdminJob(sql, first.id, { counts: { visits: 5 }, log: 'one\n', now: later(2_000) })
    await beatAdminJob(sql, first.id, { counts: { visits: 9 }, log: 'two\n', now: later(3_000) })
    const done = await finishAdminJob(sql, first.id, { status: 'succeeded', counts: { visits: 10 }, errors: [{ line: 3, message: 'bad' }], message: 'Refreshed', log: 'Done\n', now: later(4_000) })
    expect(done).toMatchObject({ status: 'succeeded', counts: { visits: 10 }, errors: [{ line: 3, message: 'bad' }], message: 'Refreshed', log: 'one\ntwo\nDone\n', finished_at: later(4_000).toISOString() })
    expect(await startAdminJob(sql, { kind: 'refresh-sessions', now: later(5_000) })).not.toBe(ALREADY_RUNNING)
  })

  it('fails a job whose process went silent, so that the kind can run again', async () => {
    const stuck = (await startAdminJob(sql, { kind: 'copy-pages-to-supabase', now: t0 })) as AdminJobRow
    expect(await startAdminJob(sql, { kind: 'copy-pages-to-supabase', now: later(JOB_SILENCE_MS - 1) })).toBe(ALREADY_RUNNING)
    const next = (await startAdminJob(sql, { kind: 'copy-pages-to-supabase', now: later(JOB_SILENCE_MS + 1) })) as AdminJobRow
    expect(next.status).toBe('running')
    const { rows } = await listAdminJobs(sql, { limit: 100, offset: 0 })
    expect(rows.find((r) => r.id === stuck.id)).toMatchObject({ status: 'failed', message: 'Interrupted: the process running it stopped' })
    expect((await latestAdminJob(sql, 'copy-pages-to-supabase'))!.id).toBe(next.id)
  })
})
