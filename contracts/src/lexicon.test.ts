import { describe, expect, it } from 'vitest'
import { LEXICON_ERRORS, saveMappingSchema, SELECTIONS_MAX, toFieldErrors } from './index.ts'

const parse = (body: unknown) => {
  const r = saveMappingSchema.safeParse(body)
  return r.success ? { ok: r.data } : { errors: toFieldErrors(r.error) }
}

describe('mapping selections', () => {
  it('keeps names as sent, drops duplicates, and drops the properties of an excluded event', () => {
    expect(
      parse({
        featureSelections: {
          excludedEvents: ['Signed Up', 'Signed Up', ' Spaced '],
          includedProperties: [
            { event: 'Order Completed', property: 'total' },
            { event: 'Order Completed', property: 'total' },
            { event: 'Signed Up', property: 'plan' },
            { event: 'Order Completed', property: 'shipping.method' },
          ],
        },
      }),
    ).toEqual({
      ok: {
        featureSelections: {
          excludedEvents: ['Signed Up', ' Spaced '],
          includedProperties: [
            { event: 'Order Completed', property: 'total' },
            { event: 'Order Completed', property: 'shipping.method' },
          ],
        },
      },
    })
  })

  it('names the field and the rule of a bad body', () => {
    expect(parse({})).toEqual({ errors: [{ name: 'featureSelections', message: LEXICON_ERRORS.selections }] })
    expect(parse({ featureSelections: { excludedEvents: 'x', includedProperties: [] } })).toEqual({
      errors: [{ name: 'featureSelections.excludedEvents', message: LEXICON_ERRORS.excludedEvents }],
    })
    expect(parse({ featureSelections: { excludedEvents: ['  '], includedProperties: [{ event: 'E', property: '' }, { event: 'E' }] } })).toEqual({
      errors: [
        { name: 'featureSelections.excludedEvents.0', message: LEXICON_ERRORS.eventBlank },
        { name: 'featureSelections.includedProperties.0.property', message: LEXICON_ERRORS.propertyBlank },
        { name: 'featureSelections.includedProperties.1.property', message: LEXICON_ERRORS.propertyBlank },
      ],
    })
    expect(parse({ featureSelections: { excludedEvents: ['x'.repeat(201)], includedProperties: 'no' } })).toEqual({
      errors: [
        { name: 'featureSelections.excludedEvents.0', message: LEXICON_ERRORS.eventTooLong },
        { name: 'featureSelections.includedProperties', message: LEXICON_ERRORS.includedProperties },
      ],
    })
    const many = Array.from({ length: SELECTIONS_MAX + 1 }, (_, i) => `e${i}`)
    expect(parse({ featureSelections: { excludedEvents: many, includedProperties: [] } })).toEqual({
      errors: [{ name: 'featureSelections.excludedEvents', message: LEXICON_ERRORS.tooManyEvents }],
    })
  })
})
