import { describe, expect, it } from 'vitest'
import { hashPassword, verifyPassword } from './passwords.ts'

describe('passwords (scrypt)', () => {
  it('verifies the right password only, with a salt of its own each time', async () => {
    const a = await hashPassword('correct horse')
    const b = await hashPassword('correct horse')
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(a).not.toBe(b)
    expect(await verifyPassword('correct horse', a)).toBe(true)
    expect(await verifyPassword('correct horse', b)).toBe(true)
    expect(await verifyPassword('correct horsf', a)).toBe(false)
    expect(await verifyPassword('', a)).toBe(false)
  })

  it('reads its parameters from the stored hash', async () => {
    const stored = await hashPassword('pw with params')
    const [, , , , salt, hash] = stored.split('$')
    // Altering N changes the derived key: the parameters are used, not assumed.
    expect(await verifyPassword('pw with params', `scrypt$16384$8$1$${salt}$${hash}`)).toBe(false)
  })

  it('treats Unicode forms of one password alike', async () => {
    const stored = await hashPassword('caf\u00e9 au lait')
    expect(await verifyPassword('cafe\u0301 au lait', stored)).toBe(true)
  })

  it('refuses a stored value that is not a scrypt hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false)
    expect(await verifyPassword('x', 'bcrypt$2b$10$abc')).toBe(false)
  })
})
