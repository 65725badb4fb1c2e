import { describe, expect, it } from 'vitest'
import { METRIC_DEFAULTS } from '@fl0/contracts/metrics'
import { change, fromDefinition, move, toDefinition, withFilter, withoutFilter, type Draft } from './draft.ts'

const draft = (over: Partial<Draft> = {}): Draft => ({ ...fromDefinition(METRIC_DEFAULTS), ...over })
const ev = (name: string, key = name) => ({ key, name })

describe('the editor draft', () => {
  it('sends filters only with their values, counts as numbers, a range only with its last count when it has one', () => {
    const d = draft({
      events: [
        { ...ev('A'), property: { path: 'plan', operation: 'is', value: '' }, occurring: { operation: 'equals', value: '', value2: '' } },
        { ...ev('B'), property: { path: ' plan ', operation: 'isNot', value: ' pro ' }, occurring: { operation: 'atLeast', value: '2', value2: '9' } },
        { ...ev('C'), occurring: { operation: 'between', value: '2', value2: '' }, property: { path: '', operation: 'is', value: 'x' } },
      ],
    })
    expect(toDefinition(d).events).toEqual([
      { name: 'A' },
      { name: 'B', property: { path: 'plan', operation: 'isNot', value: 'pro' }, occurring: { operation: 'atLeast', value: 2 } },
      { name: 'C', occurring: { operation: 'between', value: 2, value2: undefined } },
    ])
  })

  it('drops traits without a name or a needed value; keeps those whose operator needs none; ranges as pairs', () => {
    const t = (name: string, operation: Draft['audience']['traits'][number]['operation'], value = '', value2 = '') => ({ key: name + operation, name, operation, value, value2 })
    const d = draft({ audience: { aggregate: 'or', traits: [t('plan', 'is'), t('', 'is', 'x'), t('beta', 'is_true'), t('employees', 'between', '10', '50'), t('employees', 'between', '10'), t('plan', 'is', 'pro')] } })
    expect(toDefinition(d).audience).toEqual({
      aggregate: 'or',
      traits: [{ name: 'beta', operation: 'is_true' }, { name: 'employees', operation: 'between', value: ['10', '50'] }, { name: 'plan', operation: 'is', value: 'pro' }],
    })
  })

  it('reads a saved definition back into the same definition', () => {
    const saved = {
      ...METRIC_DEFAULTS,
      events: [{ name: 'A', property: { path: 'p', operation: 'is' as const, value: 'v' }, occurring: { operation: 'notBetween' as const, value: 1, value2: 3 } }],
      audience: { aggregate: 'and' as const, traits: [{ name: 'plan', operation: 'is' as const, value: 'pro' }] },
    }
    expect(toDefinition(fromDefinition(saved))).toEqual(saved)
  })

  it('applies the rules after the change and names what they moved', () => {
    const ordered = draft({ events: [ev('A'), ev('B')], operation: 'ordered', graphType: 'funnel', measureBy: 'conversionRate' })
    const { draft: next, notes } = change(ordered, 'operation', 'any')
    expect(next).toMatchObject({ operation: 'any', measureBy: 'unique', graphType: 'line' })
    expect(notes).toEqual(['Measure changed to Unique: Conversion rate needs the Ordered operation', 'Graph type changed to Line: a funnel needs the Ordered operation'])
    expect(change(ordered, 'description' as keyof Draft, 'x' as never).notes).toEqual([])
  })

  it('moves within bounds; a filter comes with is and equals and goes whole', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b'])
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c'])
    const filtered = withFilter(ev('A'))
    expect(filtered).toEqual({ key: 'A', name: 'A', property: { path: '', operation: 'is', value: '' }, occurring: { operation: 'equals', value: '', value2: '' } })
    expect(withoutFilter(filtered)).toEqual({ key: 'A', name: 'A' })
  })
})

describe('a saved filter read back', () => {
  it('comes back whole: the half that was left empty is empty again', () => {
    const d = fromDefinition({ ...METRIC_DEFAULTS, events: [{ name: 'A', property: { path: 'plan', operation: 'is', value: 'pro' } }, { name: 'B', occurring: { operation: 'atLeast', value: 2 } }] })
    expect(d.events.map(({ key: _key, ...e }) => e)).toEqual([
      { name: 'A', property: { path: 'plan', operation: 'is', value: 'pro' }, occurring: { operation: 'equals', value: '', value2: '' } },
      { name: 'B', property: { path: '', operation: 'is', value: '' }, occurring: { operation: 'atLeast', value: '2', value2: '' } },
    ])
  })
})
