import { describe, expect, it } from 'vitest'
import { DEFAULT_LOGO_URL, loadConfig } from './config.ts'

/** FL0_LOGO_URL: the company page's logo service (README, configuration). */
describe('FL0_LOGO_URL', () => {
  it('defaults to a logo service by domain, and may be emptied to show initials', () => {
    expect(loadConfig({}).FL0_LOGO_URL).toBe(DEFAULT_LOGO_URL)
    expect(DEFAULT_LOGO_URL).toContain('{domain}')
    expect(loadConfig({ FL0_LOGO_URL: '' }).FL0_LOGO_URL).toBe('')
    expect(loadConfig({ FL0_LOGO_URL: 'https://logos.example/{domain}?size=128' }).FL0_LOGO_URL).toBe('https://logos.example/{domain}?size=128')
  })

  it.each(['https://logos.example/logo.png', 'ftp://logos.example/{domain}', '{domain}'])('refuses %j, saying what it needs', (value) => {
    expect(() => loadConfig({ FL0_LOGO_URL: value })).toThrow(/FL0_LOGO_URL: must be empty, or an http\(s\) address with \{domain\} in it/)
  })
})
