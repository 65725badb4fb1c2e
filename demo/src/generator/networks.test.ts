import { describe, expect, it } from 'vitest'
import { freeNetworkData, NAMED_KINDS, Networks, RangeTable } from '@fl0/workers'
import { officeAddress, officeAddressV6, PROVIDER_POOLS, randomIpv4, randomIpv6 } from './addresses.ts'
import { buildCompanies } from './companies.ts'
import { Rng } from './random.ts'

/**
 * Issue 20: the demo's world is one the free data knows. Every company's
 * offices sit in a business network that fl0, with no data bought, names as
 * that company; no provider pool's address is ever named as a company.
 */
const networks = new Networks(RangeTable.empty(), freeNetworkData())

describe("the demo's address plan against the free data", () => {
  it("places each company's offices in a network that fl0 names as that company", () => {
    const companies = buildCompanies(42, 300, 90)
    expect(new Set(companies.map((c) => c.name)).size).toBe(300)
    for (const c of companies) {
      for (const pick of [0, 3, 5]) {
        const m = networks.match(officeAddress(c.v4, pick))
        expect(m, `${c.name} ${c.v4.cidr}`).toMatchObject({ source: 'free', kind: 'company', companyName: c.name })
      }
      const v6 = networks.match(officeAddressV6(c.v6, 1))
      if (v6.asn) expect(v6).toMatchObject({ kind: 'company', companyName: c.name })
    }
    // Most companies announce IPv6 too, so their offices' IPv6 visits are named as well.
    expect(companies.filter((c) => networks.match(officeAddressV6(c.v6, 1)).asn).length).toBeGreaterThan(100)
  })

  it('never names a home or mobile visitor from the provider pools', () => {
    const rng = new Rng(7, 'pools', 0)
    for (const pool of PROVIDER_POOLS) {
      for (let i = 0; i < 200; i++) {
        for (const ip of [randomIpv4(rng, pool.v4), randomIpv6(rng, pool.v6)]) expect(NAMED_KINDS.has(networks.match(ip).kind), `${pool.name} ${ip} ${networks.match(ip).network}`).toBe(false)
      }
    }
  })
})
