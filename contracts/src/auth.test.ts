import { describe, expect, it } from 'vitest'
import { localSignInSchema, localSignUpSchema, preferencesPatchSchema, signInSchema } from './auth.ts'
import { toFieldErrors } from './errors.ts'

const errors = (schema: { safeParse(v: unknown): any }, v: unknown) => {
  const r = schema.safeParse(v)
  return r.success ? [] : toFieldErrors(r.error)
}

describe('built-in provider forms', () => {
  it('sign-up names every missing field', () => {
    expect(errors(localSignUpSchema, {})).toEqual([
      { name: 'name', message: 'Name must be provided' },
      { name: 'email', message: 'Email must be provided' },
      { name: 'password', message: 'Password must be provided' },
    ])
  })

  it('sign-up checks the address and the password length', () => {
    expect(errors(localSignUpSchema, { name: 'Ann', email: 'ann', password: 'short' })).toEqual([
      { name: 'email', message: 'Email must be a valid email address' },
      { name: 'password', message: 'Password must have at least 8 characters' },
    ])
    expect(errors(localSignUpSchema, { name: 'Ann', email: 'ann@example.com', password: 'x'.repeat(201) })).toEqual([
      { name: 'password', message: 'Password must have at most 200 characters' },
    ])
    expect(localSignUpSchema.parse({ name: ' Ann ', email: 'Ann@Example.com', password: 'correct horse' })).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      password: 'correct horse',
    })
  })

  it('sign-in only asks for presence', () => {
    expect(errors(localSignInSchema, { email: '', password: '' })).toEqual([
      { name: 'email', message: 'Email must be provided' },
      { name: 'password', message: 'Password must be provided' },
    ])
    expect(errors(localSignInSchema, { email: 'a@b.co', password: 'x' })).toEqual([])
  })

  it('sign-in with a token needs the token', () => {
    expect(errors(signInSchema, {})).toEqual([{ name: 'token', message: 'Token must be provided' }])
  })
})

describe('preferences', () => {
  it('takes either key and refuses others', () => {
    expect(preferencesPatchSchema.parse({ isMenuCollapsed: true })).toEqual({ isMenuCollapsed: true })
    expect(preferencesPatchSchema.parse({ defaultOrgUrlCode: null })).toEqual({ defaultOrgUrlCode: null })
    expect(errors(preferencesPatchSchema, { isMenuCollapsed: 'yes' })).toEqual([{ name: 'isMenuCollapsed', message: 'isMenuCollapsed must be true or false' }])
    expect(errors(preferencesPatchSchema, { theme: 'dark' })[0]?.message).toMatch(/Unrecognized key/)
  })
})
