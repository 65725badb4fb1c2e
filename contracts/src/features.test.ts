import { describe, expect, it } from 'vitest'
import { createFeatureSchema, updateFeatureSchema } from './features.ts'
import { toFieldErrors } from './errors.ts'

const errorsOf = (schema: typeof createFeatureSchema | typeof updateFeatureSchema, value: unknown) => {
  const r = schema.safeParse(value)
  return r.success ? [] : toFieldErrors(r.error)
}

describe('feature bodies', () => {
  it('trims the name and the event names, keeps each event once in its first place, and defaults events to none', () => {
    expect(createFeatureSchema.parse({ name: '  Checkout ', events: [' Cart Viewed', 'Order Completed', 'Cart Viewed  '] })).toEqual({
      name: 'Checkout',
      events: ['Cart Viewed', 'Order Completed'],
    })
    expect(createFeatureSchema.parse({ name: 'Search' })).toEqual({ name: 'Search', events: [] })
  })

  it.each([
    [{}, 'Name must be provided'],
    [{ name: '   ' }, 'Name must be provided'],
    [{ name: 7 }, 'Name must be provided'],
    [{ name: 'x'.repeat(50) }, 'Name must have less than 50 characters'],
  ])('refuses the name of %j: %s', (body, message) => {
    expect(errorsOf(createFeatureSchema, body)).toEqual([{ name: 'name', message }])
  })

  it('accepts a name of 49 characters, counted after trimming', () => {
    expect(createFeatureSchema.safeParse({ name: ` ${'x'.repeat(49)} ` }).success).toBe(true)
  })

  it('names the event that breaks a rule, and caps the list', () => {
    expect(errorsOf(createFeatureSchema, { name: 'a', events: ['ok', '  '] })).toEqual([{ name: 'events.1', message: 'Event name must not be blank' }])
    expect(errorsOf(createFeatureSchema, { name: 'a', events: ['e'.repeat(201)] })).toEqual([{ name: 'events.0', message: 'Event name must have at most 200 characters' }])
    expect(errorsOf(createFeatureSchema, { name: 'a', events: 'Signed Up' })).toEqual([{ name: 'events', message: 'Events must be a list of event names' }])
    const many = Array.from({ length: 101 }, (_, i) => `e${i}`)
    expect(errorsOf(createFeatureSchema, { name: 'a', events: many })).toEqual([{ name: 'events', message: 'A feature can have at most 100 events' }])
    // Duplicates do not count against the cap.
    expect(createFeatureSchema.safeParse({ name: 'a', events: [...many.slice(0, 100), 'e0'] }).success).toBe(true)
  })

  it('on update, checks only what is sent', () => {
    expect(updateFeatureSchema.parse({ events: ['A'] })).toEqual({ events: ['A'] })
    expect(errorsOf(updateFeatureSchema, { name: '' })).toEqual([{ name: 'name', message: 'Name must be provided' }])
  })
})
