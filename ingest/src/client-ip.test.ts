import { describe, expect, it } from 'vitest'
import ipaddr from 'ipaddr.js'
import { clientIp, fromTrustedProxy, normalizeIp, parseTrustedProxies } from './client-ip.ts'

describe('clientIp', () => {
  const trusted = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, ::1')
  it.each([
    ['the connection when no proxy is trusted', '198.51.100.1', '1.2.3.4', '', '198.51.100.1'],
    ['the connection when the peer is not trusted', '198.51.100.1', '1.2.3.4', '10.0.0.0/8', '198.51.100.1'],
    ['the first untrusted hop from the right', '10.0.0.5', '9.9.9.9, 1.2.3.4, 10.0.0.7', '10.0.0.0/8', '1.2.3.4'],
    ['IPv4-mapped IPv6 as plain IPv4', '::ffff:10.0.0.5', '2001:db8::1', '10.0.0.0/8', '2001:db8::1'],
    ['loopback proxies', '127.0.0.1', '203.0.113.4', '127.0.0.1', '203.0.113.4'],
    ['garbage in the header skipped', '10.0.0.5', 'nonsense, 203.0.113.5', '10.0.0.0/8', '203.0.113.5'],
  ])('uses %s', (_, remote, xff, list, expected) => {
    expect(clientIp(remote, xff, parseTrustedProxies(list))).toBe(expected)
  })

  it('returns the connection address normalised', () => {
    expect(clientIp('::ffff:203.0.113.9', undefined, trusted)).toBe('203.0.113.9')
  })
})

describe('normalizeIp', () => {
  // The IPv4 short cut must answer what ipaddr answers, and leave to ipaddr whatever is not plain dotted IPv4.
  const byIpaddr = (a: string) => (a && ipaddr.isValid(a) ? ipaddr.process(a).toString() : '')
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['0.0.0.0', '0.0.0.0'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['::ffff:0:203.0.113.9', '::ffff:0:cb00:7109'],
    ['256.1.1.1', ''],
    ['::ffff:256.1.1.1', ''],
    ['not an address', ''],
    ['', ''],
  ])('%s as %j', (address, expected) => {
    expect(normalizeIp(address)).toBe(expected)
    expect(byIpaddr(address)).toBe(expected)
  })

  it('answers as ipaddr does for odd IPv4 forms too', () => {
    for (const a of ['010.1.1.1', '1.2.3', '0x7f.0.0.1', '127.1', '::ffff:010.1.1.1', '1.2.3.4 ', ' 1.2.3.4']) expect(normalizeIp(a), a).toBe(byIpaddr(a))
  })
})

describe('fromTrustedProxy', () => {
  const trusted = parseTrustedProxies('10.0.0.0/8, ::1')
  it.each([
    ['10.1.2.3', true],
    ['::ffff:10.1.2.3', true],
    ['::1', true],
    ['203.0.113.9', false],
    ['', false],
    [undefined, false],
  ])('%s: %s', (remote, expected) => {
    expect(fromTrustedProxy(remote, trusted)).toBe(expected)
  })

  it('trusts no one when no proxy is listed', () => {
    expect(fromTrustedProxy('127.0.0.1', parseTrustedProxies(''))).toBe(false)
  })
})
