import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

/** FL0_CALLBACK_RATE_LIMIT and FL0_CALLBACK_RATE_WINDOW_SECONDS: the identity callback's limit per address. */
describe('the identity callback limit', () => {
  it('defaults to 60 a minute, and may be changed or turned off with 0', () => {
    expect(loadConfig({})).toMatchObject({ FL0_CALLBACK_RATE_LIMIT: 60, FL0_CALLBACK_RATE_WINDOW_SECONDS: 60 })
    expect(loadConfig({ FL0_CALLBACK_RATE_LIMIT: '600', FL0_CALLBACK_RATE_WINDOW_SECONDS: '3600' })).toMatchObject({ FL0_CALLBACK_RATE_LIMIT: 600, FL0_CALLBACK_RATE_WINDOW_SECONDS: 3600 })
    expect(loadConfig({ FL0_CALLBACK_RATE_LIMIT: '0' }).FL0_CALLBACK_RATE_LIMIT).toBe(0)
  })

  it.each([
    ['FL0_CALLBACK_RATE_LIMIT', '-1'],
    ['FL0_CALLBACK_RATE_LIMIT', '1.5'],
    ['FL0_CALLBACK_RATE_LIMIT', 'many'],
    ['FL0_CALLBACK_RATE_WINDOW_SECONDS', '0'],
    ['FL0_CALLBACK_RATE_WINDOW_SECONDS', '86401'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration:\\n  ${name}: `))
  })
})
