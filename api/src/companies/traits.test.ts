import { describe, expect, it } from 'vitest'
import { traitLabel } from '@fl0/contracts'
import { allTraits, mergeTraits, panelTraits, withIpPlace } from './traits.ts'

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

  it('adds the address’s place as Location after Country, unless the group calls name a location', () => {
    const merged = { country: 'US', plan: 'pro' }
    expect(panelTraits(withIpPlace(merged, 'Cupertino, United States')).map((t) => [t.key, t.label, t.value, t.icon])).toEqual([
      ['country', 'Country', 'US', 'string'],
      ['location', 'Location', 'Cupertino, United States', 'string'],
      ['plan', 'Plan', 'pro', 'string'],
    ])
    expect(withIpPlace(merged, null)).toBe(merged)
    expect(panelTraits(withIpPlace({ location: 'HQ: Berlin' }, 'Cupertino, United States')).map((t) => t.value)).toEqual(['HQ: Berlin'])
  })

  it('humanizes keys', () => {
    expect(traitLabel('employee_count')).toBe('Employee count')
    expect(traitLabel('annualRevenue')).toBe('Annual revenue')
  })
})
