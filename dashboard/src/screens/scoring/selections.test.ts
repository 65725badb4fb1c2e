import { describe, expect, it } from 'vitest'
import { eventInModel, propertyInModel, sameSelections, toggleEvent, toggleProperty, type Selections } from './selections.ts'

const S: Selections = {
  excludedEvents: ['Page Viewed'],
  includedProperties: [
    { event: 'Signed Up', property: 'plan' },
    { event: 'Signed Up', property: 'source' },
    { event: 'Invite Sent', property: 'role' },
  ],
}

describe('scoring selections (part 3 §4)', () => {
  it('every event is in unless excluded; a property only when included and its event is in', () => {
    expect(eventInModel(S, 'Signed Up')).toBe(true)
    expect(eventInModel(S, 'Page Viewed')).toBe(false)
    expect(propertyInModel(S, 'Signed Up', 'plan')).toBe(true)
    expect(propertyInModel(S, 'Signed Up', 'other')).toBe(false)
    expect(propertyInModel({ ...S, excludedEvents: ['Signed Up'] }, 'Signed Up', 'plan')).toBe(false)
  })

  it('toggling an event off excludes it and removes its included properties, and no other', () => {
    expect(toggleEvent(S, 'Signed Up', false)).toEqual({
      excludedEvents: ['Page Viewed', 'Signed Up'],
      includedProperties: [{ event: 'Invite Sent', property: 'role' }],
    })
    // Twice off stays excluded once.
    expect(toggleEvent(toggleEvent(S, 'Signed Up', false), 'Signed Up', false).excludedEvents).toEqual(['Page Viewed', 'Signed Up'])
  })

  it('toggling an event on un-excludes it; its properties stay as they were (none after an exclusion)', () => {
    expect(toggleEvent(S, 'Page Viewed', true)).toEqual({ excludedEvents: [], includedProperties: S.includedProperties })
  })

  it('toggling a property on includes it and un-excludes its event', () => {
    expect(toggleProperty(S, 'Page Viewed', 'path', true)).toEqual({
      excludedEvents: [],
      includedProperties: [...S.includedProperties, { event: 'Page Viewed', property: 'path' }],
    })
  })

  it('toggling a property off removes only it; the event stays in', () => {
    expect(toggleProperty(S, 'Signed Up', 'plan', false)).toEqual({
      excludedEvents: ['Page Viewed'],
      includedProperties: [
        { event: 'Signed Up', property: 'source' },
        { event: 'Invite Sent', property: 'role' },
      ],
    })
  })

  it('compares selections whatever their order', () => {
    const reordered: Selections = { excludedEvents: [...S.excludedEvents], includedProperties: [...S.includedProperties].reverse() }
    expect(sameSelections(S, reordered)).toBe(true)
    expect(sameSelections(S, toggleEvent(S, 'Page Viewed', true))).toBe(false)
  })
})
