import { describe, expect, it } from 'vitest'
import { addressKey, cidrKeys, cidrOf, keyToText, parseIpv4 } from './ip.ts'
import { RangeTable, type IpRange, type RangeKind } from './ranges.ts'
import { Networks } from './networks/index.ts'

const range = (spec: string, companyName: string, kind: RangeKind = 'company', domain = '', importedAt?: number): IpRange => {
  const keys = spec.includes('/') ? cidrKeys(spec) : (() => {
    const [a, b] = spec.split('-')
    return { first: addressKey(a!)!, last: addressKey(b!)! }
  })()
  if (!keys) throw new Error(`bad range ${spec}`)
  return { ...keys, companyName, domain, kind, importedAt }
}
const name = (t: RangeTable, ip: string) => t.match(ip)?.companyName ?? null

describe('addresses', () => {
  it('reads IPv4 strictly and IPv6 with IPv4-mapped addresses as their IPv4 address', () => {
    expect(parseIpv4('45.12.3.0')).toBe(0x2d0c0300)
    for (const bad of ['45.12.3', '45.12.3.256', '45.12.3.0.1', '0x2d.1.1.1', '1..2.3', '', '1.2.3.4 ']) expect(parseIpv4(bad)).toBeUndefined()
    expect(addressKey('::ffff:45.12.3.9')).toBe(addressKey('45.12.3.9'))
    expect(addressKey('::ffff:2d0c:309')).toBe(addressKey('45.12.3.9'))
    expect(addressKey('[2001:db8::1]')).toBe(addressKey('2001:DB8:0:0::1'))
    expect(addressKey('not an address')).toBeUndefined()
    expect(addressKey('127.1')).toBeUndefined()
    expect(keyToText(addressKey('2001:db8:0:0::1')!)).toBe('2001:db8::1')
    expect(keyToText(addressKey('::ffff:10.0.0.1')!)).toBe('10.0.0.1')
  })

  it('reads CIDR blocks in both families, IPv4-mapped ones as IPv4, and names a range that is one block', () => {
    expect(cidrKeys('45.12.3.7/24')).toEqual({ first: addressKey('45.12.3.0'), last: addressKey('45.12.3.255') })
    expect(cidrKeys('::ffff:45.12.3.0/120')).toEqual(cidrKeys('45.12.3.0/24'))
    expect(cidrKeys('2001:db8::/32')).toEqual({ first: addressKey('2001:db8::'), last: addressKey('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff') })
    expect(cidrKeys('45.12.3.0/33')).toBeUndefined()
    expect(cidrKeys('45.12.3.0')).toBeUndefined()
    const block = cidrKeys('45.12.3.0/24')!
    expect(cidrOf(block.first, block.last)).toBe('45.12.3.0/24')
    const v6 = cidrKeys('2001:db8:1f::/48')!
    expect(cidrOf(v6.first, v6.last)).toBe('2001:db8:1f::/48')
    expect(cidrOf(addressKey('45.12.4.0')!, addressKey('45.12.4.99')!)).toBeUndefined()
  })
})

describe('RangeTable', () => {
  it('matches exactly at both edges of a range and nothing just outside', () => {
    const t = RangeTable.build([range('45.12.3.0/24', 'Acme'), range('45.12.4.0-45.12.4.99', 'Globex')])
    expect(name(t, '45.12.2.255')).toBeNull()
    expect(name(t, '45.12.3.0')).toBe('Acme')
    expect(name(t, '45.12.3.255')).toBe('Acme')
    expect(name(t, '45.12.4.0')).toBe('Globex')
    expect(name(t, '45.12.4.99')).toBe('Globex')
    expect(name(t, '45.12.4.100')).toBeNull()
    expect(name(t, '0.0.0.0')).toBeNull()
    expect(name(t, '255.255.255.255')).toBeNull()
  })

  it('matches IPv6 ranges at their edges, and IPv4-mapped IPv6 addresses against IPv4 ranges', () => {
    const t = RangeTable.build([range('2001:db8:1f::/48', 'Acme'), range('45.12.3.0/24', 'Acme v4')])
    expect(name(t, '2001:db8:1e:ffff:ffff:ffff:ffff:ffff')).toBeNull()
    expect(name(t, '2001:db8:1f::')).toBe('Acme')
    expect(name(t, '2001:db8:1f:ffff:ffff:ffff:ffff:ffff')).toBe('Acme')
    expect(name(t, '2001:db8:20::')).toBeNull()
    expect(name(t, '::ffff:45.12.3.200')).toBe('Acme v4')
    expect(name(t, '::ffff:45.12.4.1')).toBeNull()
    expect(name(t, '::1')).toBeNull()
  })

  it('lets the narrowest of overlapping ranges win, whatever their order, and the wider one hold around it', () => {
    const wide = range('45.0.0.0/8', 'Hosting block', 'hosting')
    const mid = range('45.12.0.0-45.12.255.255', 'Carrier', 'isp')
    const narrow = range('45.12.3.0/24', 'Acme', 'company', 'acme.com')
    const narrower = range('45.12.3.16-45.12.3.31', 'Acme Lab', 'company', 'lab.acme.com')
    for (const input of [[wide, mid, narrow, narrower], [narrower, narrow, mid, wide], [mid, narrower, wide, narrow]]) {
      const t = RangeTable.build(input)
      expect(name(t, '45.12.3.15')).toBe('Acme')
      expect(name(t, '45.12.3.16')).toBe('Acme Lab')
      expect(name(t, '45.12.3.31')).toBe('Acme Lab')
      expect(name(t, '45.12.3.32')).toBe('Acme')
      expect(name(t, '45.12.2.255')).toBe('Carrier')
      expect(name(t, '45.12.4.0')).toBe('Carrier')
      expect(name(t, '45.13.0.0')).toBe('Hosting block')
      expect(name(t, '45.255.255.255')).toBe('Hosting block')
      expect(name(t, '46.0.0.0')).toBeNull()
    }
  })

  it('judges a range that is not a CIDR block by its size: a /24 loses to a 100-address range inside it', () => {
    const t = RangeTable.build([range('10.0.0.0-10.0.1.127', 'Wide, not a block'), range('10.0.0.0/24', 'A /24'), range('10.0.0.10-10.0.0.109', 'A hundred')])
    expect(name(t, '10.0.0.9')).toBe('A /24')
    expect(name(t, '10.0.0.10')).toBe('A hundred')
    expect(name(t, '10.0.0.109')).toBe('A hundred')
    expect(name(t, '10.0.0.110')).toBe('A /24')
    expect(name(t, '10.0.1.0')).toBe('Wide, not a block')
    expect(name(t, '10.0.1.128')).toBeNull()
  })

  it('gives a tie of equal ranges to the newest import', () => {
    const t = RangeTable.build([range('10.0.0.0/24', 'Old', 'company', '', 1), range('10.0.0.0/24', 'New', 'company', '', 2), range('10.0.0.0/24', 'Older', 'company', '', 0)])
    expect(name(t, '10.0.0.1')).toBe('New')
  })

  it('keeps the families apart: ::/0 holds IPv6 and IPv4 alike, but loses to any narrower range', () => {
    const t = RangeTable.build([range('::/0', 'Everything', 'hosting'), range('0.0.0.0/0', 'All IPv4', 'isp'), range('2001:db8::/32', 'Docs', 'company')])
    expect(name(t, '2001:db8::5')).toBe('Docs')
    expect(name(t, '2001:db9::5')).toBe('Everything')
    expect(name(t, '8.8.8.8')).toBe('All IPv4')
    expect(name(t, '::ffff:8.8.8.8')).toBe('All IPv4')
    expect(name(t, '::1')).toBe('Everything')
  })

  it('answers nothing for no ranges or no address', () => {
    expect(RangeTable.empty().match('1.2.3.4')).toBeUndefined()
    const t = RangeTable.build([range('0.0.0.0/0', 'All', 'isp')])
    expect(t.match('')).toBeUndefined()
    expect(t.match('garbage')).toBeUndefined()
  })

  it('agrees with a brute-force narrowest search on random overlapping ranges', () => {
    let seed = 7
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const ranges: IpRange[] = []
    for (let i = 0; i < 300; i++) {
      const first = rnd(5000)
      const last = first + rnd(i % 10 === 0 ? 3000 : 200)
      ranges.push({ first: addressKey(`10.0.${first >> 8}.${first & 255}`)!, last: addressKey(`10.0.${Math.min(last, 65535) >> 8}.${Math.min(last, 65535) & 255}`)!, companyName: `r${i}`, domain: '', kind: 'company', importedAt: rnd(3) })
    }
    const t = RangeTable.build(ranges)
    for (let probe = 0; probe < 8000; probe += 7) {
      const key = addressKey(`10.0.${probe >> 8}.${probe & 255}`)!
      const holding = ranges.map((r, i) => ({ r, i })).filter(({ r }) => r.first <= key && key <= r.last)
      holding.sort((a, b) => {
        const sa = a.r.last - a.r.first
        const sb = b.r.last - b.r.first
        if (sa !== sb) return sa < sb ? -1 : 1
        if (a.r.importedAt !== b.r.importedAt) return b.r.importedAt! - a.r.importedAt!
        return b.i - a.i
      })
      expect(t.matchKey(key)?.companyName ?? null).toBe(holding[0]?.r.companyName ?? null)
    }
  })
})

describe('Networks', () => {
  it("answers an address asked again with the match it made, and the ranges' match once new ranges come (a new Networks)", () => {
    const before = new Networks(RangeTable.empty(), undefined)
    const first = before.match('45.12.3.9')
    expect(first).toMatchObject({ companyName: '', source: '' })
    expect(before.match('45.12.3.9')).toBe(first)
    // What is kept is frozen: no caller can change the match the next visit gets.
    expect(Object.isFrozen(first)).toBe(true)
    // Ranges uploaded: the range source makes a new Networks, which matches them.
    const after = new Networks(RangeTable.build([range('45.12.3.0/24', 'Acme', 'company', 'acme.example')]), undefined)
    expect(after.match('45.12.3.9')).toMatchObject({ companyName: 'Acme', domain: 'acme.example', source: 'partner' })
    expect(after.match('45.12.4.1')).toMatchObject({ companyName: '', source: '' })
    expect(before.match('45.12.3.9')).toBe(first)
  })
})
