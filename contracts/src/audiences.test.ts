import { describe, expect, it } from 'vitest'
import { audienceFiltersSchema, createAudienceSchema, previewAudienceSchema, updateAudienceSchema, valueKindOf, OPERATORS, MATCH_TYPES, opField } from './audiences.ts'
import { toFieldErrors } from './errors.ts'

const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const r = schema.safeParse(value) as { success: boolean; error?: Parameters<typeof toFieldErrors>[0] }
  return r.success ? [] : toFieldErrors(r.error!)
}
const filters = (matches: unknown[] = [], actions: unknown[] = []) => ({ match_aggregation: 'and', matches, action_aggregation: 'and', actions })

describe('audience name and description (part 3 §5)', () => {
  it.each([
    [{}, 'name', 'Name must be provided'],
    [{ name: '   ' }, 'name', 'Name must be provided'],
    [{ name: 'x'.repeat(50) }, 'name', 'Name must have less than 50 characters'],
    [{ name: 'ok', description: 'x'.repeat(300) }, 'description', 'Description must have less than 300 characters'],
  ])('refuses %j', (body, name, message) => {
    expect(errorsOf(createAudienceSchema, body)).toEqual([{ name, message }])
  })

  it('accepts 49 characters of name (after trimming) and 299 of description', () => {
    expect(createAudienceSchema.parse({ name: ` ${'x'.repeat(49)} `, description: 'd'.repeat(299) })).toEqual({ name: 'x'.repeat(49), description: 'd'.repeat(299) })
    expect(createAudienceSchema.parse({ name: 'Trial' })).toEqual({ name: 'Trial', description: '' })
  })

  it('takes a PATCH of filters, of name and description, or of all three; refuses one of nothing', () => {
    expect(updateAudienceSchema.parse({ filters: filters() })).toEqual({ filters: filters() })
    expect(updateAudienceSchema.parse({ name: 'a', description: 'b' })).toEqual({ name: 'a', description: 'b' })
    expect(errorsOf(updateAudienceSchema, {})).toEqual([{ name: 'filters', message: 'Name, description or filters must be given' }])
  })
})

describe('filters: unfinished ones left out (part 3 §4), finished ones normalised', () => {
  it('leaves out a match with no trait, no operator or no value, an audience match with no audience and an action with no event', () => {
    const parsed = audienceFiltersSchema.parse(
      filters(
        [
          { kind: 'user', string_op: 'is', value: 'pro' },
          { kind: 'user', trait: 'plan', value: 'pro' },
          { kind: 'user', trait: 'plan', string_op: 'is', value: '  ' },
          { kind: 'user', trait: 'n', number_op: 'between', value1: 3 },
          { kind: 'audience', audience_op: 'is' },
          { kind: 'company', trait: 'plan', string_op: 'is_set' },
        ],
        [{ kind: 'event', event_name: '', occurrence_op: 'equals', value: 1, date_range: { kind: 'last', value: 7, unit: 'day' } }],
      ),
    )
    expect(parsed).toEqual(filters([{ kind: 'company', trait: 'plan', string_op: 'is_set' }]))
  })

  it('keeps only the fields an operator uses, numbers as numbers and days as YYYY-MM-DD', () => {
    const parsed = audienceFiltersSchema.parse(
      filters([
        { kind: 'user', trait: 'seats', number_op: 'between', value: 'stale', value1: '2', value2: '10.5' },
        { kind: 'user', trait: 'createdAt', date_op: 'on', value: '2026-01-15T10:00:00Z', unit: 'week' },
        { kind: 'user', trait: 'createdAt', date_op: 'last', value: '7' },
        { kind: 'user', trait: 'beta', boolean_op: 'is', value: 'true' },
        { kind: 'user', trait: 'beta', boolean_op: 'is_false', value: 'x' },
      ]),
    )
    expect(parsed.matches).toEqual([
      { kind: 'user', trait: 'seats', number_op: 'between', value1: 2, value2: 10.5 },
      { kind: 'user', trait: 'createdAt', date_op: 'on', value: '2026-01-15' },
      { kind: 'user', trait: 'createdAt', date_op: 'last', value: 7, unit: 'day' },
      { kind: 'user', trait: 'beta', boolean_op: 'is', value: true },
      { kind: 'user', trait: 'beta', boolean_op: 'is_false' },
    ])
  })

  it('gives an action the default range and operator: at least once in the last 7 days', () => {
    expect(audienceFiltersSchema.parse(filters([], [{ kind: 'feature', feature_id: 'f1', value: '1' }])).actions).toEqual([
      { kind: 'feature', feature_id: 'f1', measurement: 'total', occurrence_op: 'greater_than_or_equal_to', value: 1, date_range: { kind: 'last', value: 7, unit: 'day' } },
    ])
  })

  it.each([
    [{ kind: 'user', trait: 'plan', number_op: 'contains', value: 'x' }, 'matches.0.number_op', 'This operator cannot be used on a number trait'],
    [{ kind: 'user', trait: 'plan', string_op: 'is', number_op: 'equals', value: 'x' }, 'matches.0', 'A filter must have exactly one operator'],
    [{ kind: 'user', trait: 'n', number_op: 'equals', value: 'seven' }, 'matches.0.value', 'Value must be a number'],
    [{ kind: 'user', trait: 'n', number_op: 'between', value1: 5, value2: 5 }, 'matches.0.value2', 'The second value must be greater than the first'],
    [{ kind: 'user', trait: 'd', date_op: 'between', value1: '2026-02-01', value2: '2026-01-01' }, 'matches.0.value2', 'The second value must be greater than the first'],
    [{ kind: 'user', trait: 'd', date_op: 'before', value: '2026-02-30' }, 'matches.0.value', 'Value must be a valid date (YYYY-MM-DD)'],
    [{ kind: 'user', trait: 'd', date_op: 'last', value: -1 }, 'matches.0.value', 'Value must be a whole number of 0 or more'],
    [{ kind: 'user', trait: 'd', date_op: 'last', value: 3, unit: 'year' }, 'matches.0.unit', 'Unit must be hour, day, week or month'],
    [{ kind: 'user', trait: 'b', boolean_op: 'is', value: 'yes' }, 'matches.0.value', 'Value must be true or false'],
    [{ kind: 'person', trait: 'b' }, 'matches.0.kind', 'Kind must be user, company or audience'],
  ])('refuses %j', (match, name, message) => {
    expect(errorsOf(audienceFiltersSchema, filters([match]))).toEqual([{ name, message }])
  })

  it('refuses an action whose range is inverted or whose count is negative', () => {
    const base = { kind: 'event', event_name: 'Signed Up', date_range: { kind: 'last', value: 7, unit: 'day' } }
    expect(errorsOf(audienceFiltersSchema, filters([], [{ ...base, occurrence_op: 'between', value1: 4, value2: 2 }]))).toEqual([
      { name: 'actions.0.value2', message: 'The second value must be greater than the first' },
    ])
    expect(errorsOf(audienceFiltersSchema, filters([], [{ ...base, occurrence_op: 'equals', value: -2 }]))).toEqual([
      { name: 'actions.0.value', message: 'Value must be a whole number of 0 or more' },
    ])
  })

  it('has a value kind for every operator of every type', () => {
    for (const type of MATCH_TYPES) for (const op of OPERATORS[type]) expect(valueKindOf(type, op), `${opField(type)} ${op}`).toBeTruthy()
  })

  it('reads the preview page, 1 by default', () => {
    expect(previewAudienceSchema.parse({ filters: filters() }).page).toBe(1)
    expect(errorsOf(previewAudienceSchema, { filters: filters(), page: 0 })).toEqual([{ name: 'page', message: 'Page must be a whole number from 1' }])
  })
})
