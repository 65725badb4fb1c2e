import { describe, expect, it } from 'vitest'
import { createOrgSchema, orgNameFormSchema, orgNameModalSchema } from './orgs.ts'
import { toFieldErrors } from './errors.ts'

function firstError(schema: { safeParse(v: unknown): { success: boolean; error?: any } }, value: unknown) {
  const r = schema.safeParse(value)
  return r.success ? null : toFieldErrors(r.error)[0]?.message
}

describe('organisation name, version A (the Create your Organization form)', () => {
  it.each([
    [undefined, 'Organization name must be provided'],
    ['', 'Organization name must be provided'],
    ['a'.repeat(40), 'Organization name must have less than 40 characters'],
    ['1acme', 'Organization name must start with a-z (lowercase), or A-Z (uppercase)'],
    ['-acme', 'Organization name must start with a-z (lowercase), or A-Z (uppercase)'],
    ['acme-', 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9'],
    ['acme corp', 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -'],
    ['acmé', 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9'],
    ['ac_me', 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -'],
  ])('%j → %s', (value, message) => {
    expect(firstError(orgNameFormSchema, value)).toBe(message)
  })

  it.each(['a', 'Acme', 'acme-corp-2', 'A' + 'b'.repeat(38)])('accepts %j', (value) => {
    expect(orgNameFormSchema.parse(value)).toBe(value)
  })
})

describe('organisation name, version B (the create modal)', () => {
  it.each([
    [undefined, 'Organization name must be provided'],
    ['', 'Organization name must be provided'],
    ['   ', 'Organization name must be provided'],
    ['a'.repeat(301), 'Organization name must be at most 300 characters'],
    ['acme_corp', 'Organization name must only contain letters, numbers, hyphens and spaces'],
    ['acme.io', 'Organization name must only contain letters, numbers, hyphens and spaces'],
  ])('%j → %s', (value, message) => {
    expect(firstError(orgNameModalSchema, value)).toBe(message)
  })

  it('accepts spaces, hyphens, digits and letters of any script, and trims', () => {
    expect(orgNameModalSchema.parse(' Acme Corp - 2 ')).toBe('Acme Corp - 2')
    expect(orgNameModalSchema.parse('Café Zürich')).toBe('Café Zürich')
    expect(orgNameModalSchema.parse('a'.repeat(300))).toHaveLength(300)
  })
})

describe('POST /api/orgs body', () => {
  it('applies the rule set its variant names', () => {
    expect(createOrgSchema.parse({ name: 'Acme Corp', variant: 'modal' })).toEqual({ name: 'Acme Corp', variant: 'modal' })
    expect(toFieldErrors(createOrgSchema.safeParse({ name: 'Acme Corp', variant: 'form' }).error!)).toEqual([
      { name: 'name', message: 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -' },
    ])
  })

  it('takes rule set A when no variant is given', () => {
    expect(createOrgSchema.parse({ name: 'acme' })).toEqual({ name: 'acme', variant: 'form' })
    expect(createOrgSchema.safeParse({ name: 'acme corp' }).success).toBe(false)
  })

  it('names the variant when it is unknown', () => {
    expect(toFieldErrors(createOrgSchema.safeParse({ name: 'acme', variant: 'popup' }).error!)).toEqual([
      { name: 'variant', message: "variant must be 'form' or 'modal'" },
    ])
  })
})
