import { describe, expect, it } from 'vitest'
import { companyRanges, CORPORATE_V4, inCidr4, intToIpv4, ipv4ToInt, officeAddress, parseCidr4, poolsFor, PROVIDER_POOLS, randomIpv4, randomIpv6 } from './addresses.ts'
import { Rng } from './random.ts'

describe('the address plan', () => {
  it('gives companies disjoint blocks inside the corporate range, away from every provider pool', () => {
    const blocks = Array.from({ length: 5000 }, (_, i) => companyRanges(i, [5, 120, 3000][i % 3]).v4)
    const starts = new Set(blocks.map((b) => b.first))
    expect(starts.size).toBe(blocks.length)
    for (const b of blocks) {
      expect(inCidr4(b.first, CORPORATE_V4)).toBe(true)
      expect(inCidr4(b.last, CORPORATE_V4)).toBe(true)
      expect(ipv4ToInt(b.last) - ipv4ToInt(b.first) + 1).toBe(2 ** (32 - Number(b.cidr.split('/')[1])))
    }
    const corp = parseCidr4(CORPORATE_V4)
    for (const pool of PROVIDER_POOLS) {
      const p = parseCidr4(pool.v4)
      expect(p.base + p.size <= corp.base || p.base >= corp.base + corp.size).toBe(true)
    }
  })

  it('keeps provider pools from overlapping each other', () => {
    const pools = PROVIDER_POOLS.map((p) => parseCidr4(p.v4)).sort((a, b) => a.base - b.base)
    for (let i = 1; i < pools.length; i++) expect(pools[i].base).toBeGreaterThanOrEqual(pools[i - 1].base + pools[i - 1].size)
  })

  it('puts office and random addresses inside their ranges', () => {
    const rng = new Rng('ips')
    const { v4 } = companyRanges(17, 12)
    for (let pick = 0; pick < 50; pick++) expect(inCidr4(officeAddress(v4, pick), v4.cidr)).toBe(true)
    for (let i = 0; i < 1000; i++) {
      const ip = randomIpv4(rng, '86.128.0.0/10')
      expect(inCidr4(ip, '86.128.0.0/10')).toBe(true)
      expect(ip.endsWith('.0') || ip.endsWith('.255')).toBe(false)
      const v6 = randomIpv6(rng, '2a00:23c0::/28')
      const groups = v6.split(':')
      expect(groups).toHaveLength(8)
      expect(groups[0]).toBe('2a00')
      expect(parseInt(groups[1], 16) & 0xfff0).toBe(0x23c0)
    }
  })

  it('converts addresses both ways and refuses bad ones', () => {
    expect(intToIpv4(ipv4ToInt('45.1.2.3'))).toBe('45.1.2.3')
    expect(() => ipv4ToInt('1.2.3')).toThrow()
    expect(() => ipv4ToInt('1.2.3.256')).toThrow()
  })

  it('finds pools for every country, falling back to the shared ones', () => {
    expect(poolsFor('US', 'mobile').map((p) => p.name)).toEqual(['Skyline Mobile'])
    expect(poolsFor('IN', 'mobile').map((p) => p.name)).toEqual(['Pacific Mobile'])
    expect(poolsFor('DE', 'isp').map((p) => p.name)).toEqual(['Rheinnetz'])
  })
})
