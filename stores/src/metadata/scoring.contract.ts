import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateMetadata } from './migrate.ts'
import { createOrganisation } from './organisations.ts'
import {
  claimRescore,
  claimScoringRun,
  completeRescore,
  completeScoringRun,
  createScoringModel,
  deleteScoringModel,
  failScoringRun,
  findBacktestImage,
  findScoredUser,
  findScoringModel,
  findScoringResults,
  heartbeatScoringRun,
  listScoredUsers,
  listScoringModels,
  queueScoringRun,
  scoreHistogram,
  updateScoringSettings,
  type ScoringResults,
} from './scoring.ts'
import type { Sql } from './sql.ts'

/**
 * The scoring models' store (migration 0012): a model is its own job. Run
 * against PGlite always and PostgreSQL under `npm run test:cluster`; `openSql`
 * must give an empty database.
 */
export function scoringContract(name: string, openSql: () => Promise<Sql>) {
  describe(`scoring store: ${name}`, () => {
    let sql: Sql
    beforeAll(async () => {
      sql = await openSql()
      await migrateMetadata(sql)
    })
    afterAll(() => sql?.close())

    const claimOptions = { staleAfterMs: 60_000, maxAttempts: 3, abandoned: 'The training stopped unexpectedly' }
    const input = { name: 'Upgrades', metricId: 'm1', dateRange: 'last30Days', excludedAudience: { filters: [], aggregate: 'and', audienceType: 'user' }, featureSelections: { excludedEvents: [], includedProperties: [] } }
    const results = (users: number): ScoringResults => ({
      trainedAt: new Date('2026-03-02T09:00:00Z'),
      totalUsers: users,
      ratings: [{ name: 'poor', count: users, percentage: 100 }],
      summary: { accuracy: 0.9 },
      activity: [{ name: 'A' }],
      learned: { weights: [1] },
      backtest: { users },
      backtestImage: new Uint8Array([137, 80, 78, 71, 0, 255]),
      users: Array.from({ length: users }, (_, i) => ({ rank: i + 1, userId: `u${i}`, name: i === 3 ? 'Ada 100%_x' : `User ${i}`, score: 1 - i / users, rating: 'poor', factors: [{ name: 'A', contribution: i }] })),
    })

    it('takes models through pending, running and completed, replacing the results of the run before', async () => {
      const org = await createOrganisation(sql, 'Scoring A')
      const model = await createScoringModel(sql, { ...input, orgId: org.id })
      expect(model).toMatchObject({ status: 'pending', generation: 1, attempts: 0, trained_at: null, error: null })
      expect(await listScoringModels(sql, org.id)).toEqual([{ ...model, verdict: null }])

      const claimed = await claimScoringRun(sql, claimOptions)
      expect(claimed).toMatchObject({ id: model.id, status: 'running', generation: 1, attempts: 1 })
      expect(await claimScoringRun(sql, claimOptions)).toBeUndefined()
      expect(await heartbeatScoringRun(sql, model.id, 1)).toBe(true)

      expect(await completeScoringRun(sql, model.id, 1, results(12_345))).toBe(true)
      const done = await findScoringModel(sql, org.id, model.id)
      expect(done).toMatchObject({ status: 'completed', total_users: 12_345, ratings: [{ name: 'poor', count: 12_345, percentage: 100 }] })
      expect(done!.trained_at).toEqual(new Date('2026-03-02T09:00:00Z'))
      expect(await findScoringResults(sql, org.id, model.id)).toEqual({ summary: { accuracy: 0.9 }, activity: [{ name: 'A' }], backtest: { users: 12_345 } })
      expect(Array.from((await findBacktestImage(sql, org.id, model.id))!)).toEqual([137, 80, 78, 71, 0, 255])

      const page = await listScoredUsers(sql, model.id, { search: '', offset: 20, limit: 20 })
      expect(page.total).toBe(12_345)
      expect(page.users.map((u) => u.rank)).toEqual(Array.from({ length: 20 }, (_, i) => 21 + i))
      expect(page.users[0]).toEqual({ rank: 21, user_id: 'u20', name: 'User 20', score: 1 - 20 / 12_345, rating: 'poor', factors: [{ name: 'A', contribution: 20 }] })
      // LIKE's wildcards are text in a search.
      expect((await listScoredUsers(sql, model.id, { search: '100%_', offset: 0, limit: 20 })).users.map((u) => u.user_id)).toEqual(['u3'])
      expect((await listScoredUsers(sql, model.id, { search: 'U1234', offset: 0, limit: 3 })).total).toBe(6) // u1234, u12340…u12344
      expect(await findScoredUser(sql, model.id, 'u7')).toMatchObject({ rank: 8 })
      const histogram = await scoreHistogram(sql, model.id)
      expect(histogram.reduce((a, b) => a + b, 0)).toBe(12_345)

      // A rebuild: pending again, the old results kept until the new ones replace them.
      const queued = await queueScoringRun(sql, org.id, model.id, { excludedEvents: ['A'], includedProperties: [] })
      expect(queued).toMatchObject({ status: 'pending', generation: 2, attempts: 0, feature_selections: { excludedEvents: ['A'], includedProperties: [] } })
      expect((await listScoredUsers(sql, model.id, { search: '', offset: 0, limit: 1 })).total).toBe(12_345)
      await claimScoringRun(sql, claimOptions)
      expect(await completeScoringRun(sql, model.id, 2, results(3))).toBe(true)
      expect((await listScoredUsers(sql, model.id, { search: '', offset: 0, limit: 20 })).total).toBe(3)
      // The first run's 12,345 users are gone, not merely hidden.
      expect(await sql.query('SELECT generation, count(*)::integer AS n FROM scoring_users WHERE model_id = $1 GROUP BY generation', [model.id])).toEqual([{ generation: 2, n: 3 }])
    })

    it('re-scores a completed model when its refresh is due, replacing its users, and never a rebuilt one', async () => {
      const org = await createOrganisation(sql, 'Scoring R')
      const model = await createScoringModel(sql, { ...input, orgId: org.id, refresh: 'daily' })
      await claimScoringRun(sql, claimOptions)
      expect(await completeScoringRun(sql, model.id, 1, results(4))).toBe(true)
      const trained = new Date('2026-03-02T09:00:00Z')
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ refresh: 'daily', scored_at: trained })
      const at = (hours: number) => ({ now: new Date(trained.getTime() + hours * 3_600_000), staleAfterMs: 60_000 })
      // The other tests' models share the database: out of the way.
      await sql.query(`UPDATE scoring_models SET refresh = 'off' WHERE id <> $1`, [model.id])
      // Not due before a day has passed.
      expect(await claimRescore(sql, at(23))).toBeUndefined()
      const claim = await claimRescore(sql, at(25))
      expect(claim).toMatchObject({ row: { id: model.id, generation: 1 }, learned: { weights: [1] }, resultsGeneration: 1, tag: -1 })
      // Claimed: not handed to a second runner until the claim is stale.
      expect(await claimRescore(sql, at(25))).toBeUndefined()
      const users = [{ rank: 1, userId: 'new', name: 'New user', score: 0.9, rating: 'excellent', factors: [] }]
      expect(await completeRescore(sql, claim!, { scoredAt: at(25).now, totalUsers: 1, ratings: [{ name: 'excellent', count: 1, percentage: 100 }], users })).toBe(true)
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ status: 'completed', total_users: 1, scored_at: at(25).now, trained_at: trained })
      expect((await listScoredUsers(sql, model.id, { search: '', offset: 0, limit: 20 })).users.map((u) => u.user_id)).toEqual(['new'])
      expect(await sql.query('SELECT generation, count(*)::integer AS n FROM scoring_users WHERE model_id = $1 GROUP BY generation', [model.id])).toEqual([{ generation: -1, n: 1 }])
      // The next is due a day after the re-score, not after the training.
      expect(await claimRescore(sql, at(40))).toBeUndefined()
      const second = await claimRescore(sql, at(50))
      expect(second).toMatchObject({ tag: -2, resultsGeneration: -1 })
      // Rebuilt meanwhile: the re-score is moot and changes nothing.
      await queueScoringRun(sql, org.id, model.id)
      expect(await completeRescore(sql, second!, { scoredAt: at(50).now, totalUsers: 9, ratings: [], users })).toBe(false)
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ status: 'pending', total_users: 1, scored_at: at(25).now })
      expect(await sql.query('SELECT generation FROM scoring_users WHERE model_id = $1', [model.id])).toEqual([{ generation: -1 }])
      // Off: never due.
      await claimScoringRun(sql, claimOptions)
      await completeScoringRun(sql, model.id, 2, results(2))
      await updateScoringSettings(sql, org.id, model.id, { ...input, refresh: 'off' }, false)
      expect(await claimRescore(sql, at(24 * 30))).toBeUndefined()
    })

    it('drops the results and failures of a run made moot by a rebuild or a delete', async () => {
      const org = await createOrganisation(sql, 'Scoring B')
      const model = await createScoringModel(sql, { ...input, orgId: org.id })
      await claimScoringRun(sql, claimOptions)
      await queueScoringRun(sql, org.id, model.id)
      expect(await heartbeatScoringRun(sql, model.id, 1)).toBe(false)
      expect(await completeScoringRun(sql, model.id, 1, results(2))).toBe(false)
      expect(await failScoringRun(sql, model.id, 1, 'too late')).toBe(false)
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ status: 'pending', generation: 2, trained_at: null })

      const claimed = await claimScoringRun(sql, claimOptions)
      expect(claimed).toMatchObject({ id: model.id, generation: 2 })
      // A moot run leaves no users behind.
      expect(await sql.query('SELECT count(*)::integer AS n FROM scoring_users WHERE model_id = $1', [model.id])).toEqual([{ n: 0 }])
      expect(await failScoringRun(sql, model.id, 2, 'The metric no longer exists')).toBe(true)
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ status: 'failed', error: 'The metric no longer exists' })

      await queueScoringRun(sql, org.id, model.id)
      await claimScoringRun(sql, claimOptions)
      expect(await deleteScoringModel(sql, org.id, model.id)).toEqual({ id: model.id, name: 'Upgrades' })
      expect(await completeScoringRun(sql, model.id, 3, results(2))).toBe(false)
      expect(await findScoringModel(sql, org.id, model.id)).toBeUndefined()
    })

    it('claims a run whose runner stopped beating again, and fails it after the last attempt', async () => {
      const org = await createOrganisation(sql, 'Scoring C')
      const model = await createScoringModel(sql, { ...input, orgId: org.id })
      const fast = { ...claimOptions, staleAfterMs: 1 }
      for (const attempt of [1, 2, 3]) {
        await sql.query(`UPDATE scoring_models SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [model.id])
        expect(await claimScoringRun(sql, fast)).toMatchObject({ id: model.id, attempts: attempt })
      }
      await sql.query(`UPDATE scoring_models SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [model.id])
      expect(await claimScoringRun(sql, fast)).toBeUndefined()
      expect(await findScoringModel(sql, org.id, model.id)).toMatchObject({ status: 'failed', error: 'The training stopped unexpectedly' })
    })

    it('changes settings, queueing a run only when asked, and keeps organisations apart', async () => {
      const org = await createOrganisation(sql, 'Scoring D')
      const other = await createOrganisation(sql, 'Scoring E')
      const model = await createScoringModel(sql, { ...input, orgId: org.id })
      await claimScoringRun(sql, claimOptions)
      await completeScoringRun(sql, model.id, 1, results(1))
      const renamed = await updateScoringSettings(sql, org.id, model.id, { name: 'Renamed', metricId: 'm1', dateRange: 'last30Days', excludedAudience: input.excludedAudience }, false)
      expect(renamed).toMatchObject({ name: 'Renamed', status: 'completed', generation: 1 })
      const changed = await updateScoringSettings(sql, org.id, model.id, { name: 'Renamed', metricId: 'm2', dateRange: 'last7Days', excludedAudience: input.excludedAudience }, true)
      expect(changed).toMatchObject({ metric_id: 'm2', date_range: 'last7Days', status: 'pending', generation: 2 })

      expect(await findScoringModel(sql, other.id, model.id)).toBeUndefined()
      expect(await queueScoringRun(sql, other.id, model.id)).toBeUndefined()
      expect(await updateScoringSettings(sql, other.id, model.id, { name: 'x', metricId: 'm', dateRange: 'last7Days', excludedAudience: {} }, true)).toBeUndefined()
      expect(await deleteScoringModel(sql, other.id, model.id)).toBeUndefined()
      expect(await findScoringResults(sql, other.id, model.id)).toBeUndefined()
      expect(await findBacktestImage(sql, other.id, model.id)).toBeUndefined()
      expect(await listScoringModels(sql, other.id)).toEqual([])
    })
  })
}
