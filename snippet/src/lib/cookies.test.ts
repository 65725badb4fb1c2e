import { describe, expect, it } from 'vitest'
import { widestDomain } from './cookies.ts'

/** A browser that refuses cookies on these public suffixes, as Chromium does. */
const browser = (suffixes: string[]) => (domain: string) => !suffixes.includes(domain)

describe('widestDomain', () => {
  it('takes the registrable domain under a one-label suffix', () => {
    expect(widestDomain('www.shop.example.com', browser(['com']))).toBe('example.com')
  })
  it('goes past a two-label public suffix', () => {
    expect(widestDomain('www.bbc.co.uk', browser(['uk', 'co.uk']))).toBe('bbc.co.uk')
  })
  it('tries from the top-level label down and stops at the first that takes a cookie', () => {
    const tried: string[] = []
    expect(widestDomain('a.b.example.com', (d) => (tried.push(d), d.length > 3))).toBe('example.com')
    expect(tried).toEqual(['com', 'example.com'])
  })
  it('ends with the host itself, and host-only cookies where even that is refused', () => {
    const tried: string[] = []
    expect(widestDomain('user.github.io', (d) => (tried.push(d), false))).toBe('')
    expect(tried).toEqual(['io', 'github.io', 'user.github.io'])
    expect(widestDomain('localhost', () => false)).toBe('')
  })
})
