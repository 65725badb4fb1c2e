import { describe, expect, it } from 'vitest'
import { UP_ID_PATTERN } from '@fl0/contracts'
import { createDemo } from './index.ts'
import { PROVIDER_POOLS } from './addresses.ts'
import { businessIntentsCsv, cookiesCsv, inUniversalTable, ipToCompanyCsv, universalCsv, upIdOf } from './partners.ts'

/** The partner files are a pure function of the world, and say what the ground truth says. */
const demo = createDemo({ seed: 7, companies: 30, people: 300, days: 7, now: new Date('2026-03-02T12:00:00Z') })

describe('partner files', () => {
  it('name every company block, and mark every provider pool as isp or mobile', () => {
    const lines = [...ipToCompanyCsv(demo.world)]
    expect(lines[0]).toBe('network,company_name,domain,kind')
    for (const c of demo.world.companies) expect(lines).toContain(`${c.v4.cidr},${c.name.includes(',') ? `"${c.name}"` : c.name},${c.domain},company`)
    for (const p of PROVIDER_POOLS) {
      expect(lines).toContain(`${p.v4},${p.name},,${p.kind}`)
      expect(lines).toContain(`${p.v6},${p.name},,${p.kind}`)
    }
  })

  it('know most people, by up_ids of the right shape, and sync only known people\'s devices', () => {
    const universal = [...universalCsv(demo.world)].slice(1)
    const known = demo.world.people.filter(inUniversalTable)
    expect(universal).toHaveLength(known.length)
    expect(known.length / demo.world.people.length).toBeGreaterThan(0.7)
    for (const p of known) expect(upIdOf(p)).toMatch(UP_ID_PATTERN)
    const upIds = new Set(known.map(upIdOf))
    const cookies = [...cookiesCsv(demo.world)].slice(1)
    expect(cookies.length).toBeGreaterThan(0)
    for (const line of cookies) expect(upIds.has(line.split(',')[1]!)).toBe(true)
  })

  it('are the same for the same world', () => {
    const again = createDemo({ seed: 7, companies: 30, people: 300, days: 7, now: new Date('2026-03-02T12:00:00Z') })
    expect([...businessIntentsCsv(again.world, again.window.end)]).toEqual([...businessIntentsCsv(demo.world, demo.window.end)])
    expect([...cookiesCsv(again.world)]).toEqual([...cookiesCsv(demo.world)])
  })
})
