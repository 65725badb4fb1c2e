import { describe, expect, it } from 'vitest'
import { isFreeMailDomain, normalizeDomain } from './domain.ts'

describe('normalizeDomain', () => {
  it.each([
    ['acme.com', 'acme.com'],
    ['  ACME.com ', 'acme.com'],
    ['www.acme.com', 'acme.com'],
    ['https://www.Acme.co.uk:8443/about?x=1', 'acme.co.uk'],
    ['eu.acme.com.', 'eu.acme.com'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ])('%s → %s', (input, domain) => expect(normalizeDomain(input)).toBe(domain))

  it.each(['', 'acme', 'not a domain', 'acme..com', '-acme.com', 'acme.c'])('refuses %j', (input) => expect(normalizeDomain(input)).toBeUndefined())
})

describe('free mail', () => {
  it('knows the big providers and no company domain', () => {
    expect(['gmail.com', 'outlook.com', 'gmx.de', 'yahoo.co.in'].every(isFreeMailDomain)).toBe(true)
    expect(isFreeMailDomain('acme.com')).toBe(false)
  })
})
