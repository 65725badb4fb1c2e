import { describe, expect, it } from 'vitest'
import { audienceFiltersSchema } from '@fl0/contracts'
import { AudienceFilterError, collect, planFilters, type PlanSources } from './plan.ts'

/** What filters mean, before any SQL: one toEqual per decision (the results on real data are engine.integration.test.ts's). */
const parse = (f: Record<string, unknown>) => audienceFiltersSchema.parse({ match_aggregation: 'and', matches: [], action_aggregation: 'and', actions: [], ...f })

function sources(saved: Record<string, unknown> = {}, features: Record<string, { name: string; events: string[] }> = {}): PlanSources {
  return {
    audiences: async (ids) => ids.filter((id) => id in saved).map((id) => ({ id, filters: saved[id] })),
    feature: async (id) => features[id],
  }
}

describe('planFilters', () => {
  it('is everyone with no filter: an and of nothing', async () => {
    expect(await planFilters(parse({}), sources())).toEqual({ kind: 'and', of: [] })
  })

  it('reads each operator as its test, negative ones holding for users without the trait', async () => {
    const plan = await planFilters(
      parse({
        match_aggregation: 'or',
        matches: [
          { kind: 'user', trait: 'plan', string_op: 'is_not', value: 'pro' },
          { kind: 'company', trait: 'tags', stringArray_op: 'contains', value: 'eu' },
          { kind: 'user', trait: 'seats', number_op: 'not_between', value1: 2, value2: 5 },
          { kind: 'user', trait: 'beta', boolean_op: 'is_not', value: true },
          { kind: 'user', trait: 'signup', date_op: 'before_the_last', value: 2, unit: 'month' },
          { kind: 'user', trait: 'signup', date_op: 'in_the_next', value: 3 },
        ],
      }),
      sources(),
    )
    expect(plan).toEqual({
      kind: 'or',
      of: [
        { kind: 'trait', trait: { entity: 'user', name: 'plan', read: 'text' }, test: { test: 'is', values: ['pro'], negate: true } },
        { kind: 'trait', trait: { entity: 'company', name: 'tags', read: 'array' }, test: { test: 'hasElement', value: 'eu', negate: false } },
        { kind: 'trait', trait: { entity: 'user', name: 'seats', read: 'text' }, test: { test: 'numberBetween', from: 2, to: 5, negate: true } },
        { kind: 'trait', trait: { entity: 'user', name: 'beta', read: 'text' }, test: { test: 'boolean', value: true, negate: true } },
        { kind: 'trait', trait: { entity: 'user', name: 'signup', read: 'text' }, test: { test: 'instant', to: { amount: -2, unit: 'month' }, negate: false } },
        { kind: 'trait', trait: { entity: 'user', name: 'signup', read: 'text' }, test: { test: 'instant', from: { amount: 0, unit: 'day' }, to: { amount: 3, unit: 'day' }, negate: false } },
      ],
    })
  })

  it('joins the matches and then every action with and; a feature counts its events, a deleted one none', async () => {
    const plan = await planFilters(
      parse({
        matches: [{ kind: 'user', trait: 'plan', string_op: 'is_set' }],
        actions: [
          { kind: 'feature', feature_id: 'f1', occurrence_op: 'between', value1: 1, value2: 4, date_range: { kind: 'last', value: 2, unit: 'week' } },
          { kind: 'feature', feature_id: 'gone', value: 1 },
        ],
      }),
      sources({}, { f1: { name: 'Reporting', events: ['Report Created', 'Report Shared'] } }),
    )
    expect(plan).toEqual({
      kind: 'and',
      of: [
        { kind: 'trait', trait: { entity: 'user', name: 'plan', read: 'text' }, test: { test: 'set', negate: false } },
        { kind: 'action', action: { events: ['Report Created', 'Report Shared'], since: { amount: -2, unit: 'week' }, label: 'Reporting (last 2 weeks)', compare: { op: 'between', from: 1, to: 4 } } },
        { kind: 'action', action: { events: [], since: { amount: -7, unit: 'day' }, label: 'Unknown (last 7 days)', compare: { op: '>=', value: 1 } } },
      ],
    })
    expect(collect(plan).traits).toEqual([{ entity: 'user', name: 'plan', read: 'text' }])
    expect(collect(plan).actions).toHaveLength(2)
  })

  it('puts a saved audience in place of an audience match, and no one for one that is gone', async () => {
    const saved = { pro: { match_aggregation: 'and', matches: [{ kind: 'user', trait: 'plan', string_op: 'is', value: 'pro' }], action_aggregation: 'and', actions: [] } }
    const plan = await planFilters(parse({ match_aggregation: 'or', matches: [{ kind: 'audience', audience_id: 'pro' }, { kind: 'audience', audience_id: 'gone' }] }), sources(saved))
    expect(plan).toEqual({ kind: 'or', of: [{ kind: 'trait', trait: { entity: 'user', name: 'plan', read: 'text' }, test: { test: 'is', values: ['pro'], negate: false } }, { kind: 'nobody' }] })
  })

  it('refuses a loop, however long, and nesting past the limit', async () => {
    const ref = (id: string) => ({ match_aggregation: 'and', matches: [{ kind: 'audience', audience_id: id }], action_aggregation: 'and', actions: [] })
    await expect(planFilters(parse(ref('a')), sources({ a: ref('b'), b: ref('a') }))).rejects.toThrow(AudienceFilterError)
    await expect(planFilters(parse(ref('b')), sources({ b: ref('c'), c: ref('self') }), ['self'])).rejects.toThrow('An audience cannot include itself, directly or through other audiences')
    const chain = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}`, ref(`n${i + 1}`)]))
    await expect(planFilters(parse(ref('n0')), sources(chain))).rejects.toThrow('Audiences can be nested at most 10 deep')
  })
})
