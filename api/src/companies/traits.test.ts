import { describe, expect, it } from 'vitest'
import { traitLabel } from '@fl0/contracts'
import { allTraits, mergeTraits } from './traits.ts'

describe('traits', () => {
  it('merges newest first, flattens one level, types the icons', () => {
    const merged = mergeTraits([{ plan: 'pro', tags: ['b2b', 'saas'] }, { plan: 'free', createdAt: '2025-01-02T10:00:00.000Z', active: true, address: { city: 'Berlin' }, empty: '' }])
    expect(merged).toEqual({ plan: 'pro', tags: ['b2b', 'saas'], createdAt: '2025-01-02T10:00:00.000Z', active: true, 'address.city': 'Berlin' })
    expect(allTraits(merged).map((t) => [t.label, t.icon])).toEqual([
      ['Plan', 'string'],
      ['Created', 'date'],
      ['Active', 'boolean'],
      ['Address city', 'string'],
      ['Tags', 'stringArray'],
    ])
  })

  it('humanizes keys', () => {
    expect(traitLabel('employee_count')).toBe('Employee count')
    expect(traitLabel('annualRevenue')).toBe('Annual revenue')
  })
})
