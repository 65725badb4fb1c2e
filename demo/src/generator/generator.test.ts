import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inCidr4, PROVIDER_POOLS, CORPORATE_V4 } from './addresses.ts'
import { FREE_MAIL_DOMAINS } from './catalog.ts'
import { createDemo, type DemoMessage, type DemoOptions } from './index.ts'

const NOW = new Date('2026-03-18T15:42:10.123Z')
const SMALL: DemoOptions = { seed: 7, companies: 40, people: 400, days: 14, now: NOW }

function all(options: DemoOptions): DemoMessage[] {
  return [...createDemo(options).messages()]
}

function digest(messages: DemoMessage[]): string {
  const h = createHash('sha256')
  for (const m of messages) h.update(JSON.stringify(m))
  return h.digest('hex')
}

describe('createDemo is deterministic', () => {
  it('gives the same world and the same calls for the same seed', () => {
    const a = createDemo(SMALL)
    const b = createDemo(SMALL)
    expect(JSON.stringify(b.world)).toBe(JSON.stringify(a.world))
    expect(b.runId).toBe(a.runId)
    expect(digest([...b.messages()])).toBe(digest([...a.messages()]))
  })

  it('gives a different world for another seed', () => {
    const a = createDemo(SMALL)
    const b = createDemo({ ...SMALL, seed: 8 })
    expect(b.runId).not.toBe(a.runId)
    expect(b.world.companies.map((c) => c.name)).not.toEqual(a.world.companies.map((c) => c.name))
    expect(digest([...b.messages()])).not.toBe(digest([...a.messages()]))
  })

  it('only adds the calls that have since happened when run later the same day', () => {
    const early = all({ ...SMALL, now: new Date('2026-03-18T09:00:00Z') })
    const late = all(SMALL)
    expect(late.length).toBeGreaterThan(early.length)
    expect(digest(late.slice(0, early.length))).toBe(digest(early))
    expect(createDemo({ ...SMALL, now: new Date('2026-03-18T09:00:00Z') }).runId).toBe(createDemo(SMALL).runId)
  })

  it('names another data set on another day', () => {
    expect(createDemo({ ...SMALL, now: new Date('2026-03-19T09:00:00Z') }).runId).not.toBe(createDemo(SMALL).runId)
  })

  it('uses no Math.random', () => {
    const original = Math.random
    Math.random = () => {
      throw new Error('Math.random called')
    }
    try {
      expect(all({ ...SMALL, people: 50, companies: 5, days: 3 }).length).toBeGreaterThan(0)
    } finally {
      Math.random = original
    }
  })
})

describe('the stream', () => {
  const demo = createDemo(SMALL)
  const messages = [...demo.messages()]

  it('is in timestamp order, inside the window, never in the future', () => {
    let last = -Infinity
    for (const { message } of messages) {
      const t = Date.parse(message.timestamp)
      expect(t).toBeGreaterThanOrEqual(last)
      last = t
    }
    expect(Date.parse(messages[0].message.timestamp)).toBeGreaterThanOrEqual(demo.window.start.getTime())
    expect(last).toBeLessThanOrEqual(NOW.getTime())
    expect(demo.window.start.toISOString()).toBe('2026-03-05T00:00:00.000Z')
  })

  it('covers every day of the window', () => {
    const days = new Set(messages.map((m) => m.message.timestamp.slice(0, 10)))
    expect(days.size).toBe(14)
  })

  it('has unique message ids that name the data set', () => {
    const ids = new Set(messages.map((m) => m.message.messageId))
    expect(ids.size).toBe(messages.length)
    for (const id of ids) expect(id.startsWith(`demo-${demo.runId}-`)).toBe(true)
  })

  it('holds every call type from both sources, and the product events', () => {
    const kinds = new Set(messages.map((m) => `${m.source}:${m.message.type}`))
    expect([...kinds].sort()).toEqual(['segment:group', 'segment:track', 'snippet:identify', 'snippet:page', 'snippet:track'])
    const events = new Set(messages.filter((m) => m.message.type === 'track').map((m) => m.message.event))
    for (const e of ['Signed Up', 'Logged In', 'Report Created', 'Dashboard Viewed', 'Feature Used', 'Invite Sent', 'Integration Connected', 'Export Downloaded']) {
      expect(events).toContain(e)
    }
  })

  it('gives identify calls the person traits and group calls the company traits', () => {
    const identifies = messages.filter((m) => m.message.type === 'identify' && m.message.userId)
    expect(identifies.length).toBeGreaterThan(0)
    for (const { message } of identifies) {
      expect(message.traits).toEqual(expect.objectContaining({ name: expect.any(String), email: expect.stringContaining('@'), role: expect.any(String), plan: expect.any(String) }))
    }
    const withCompany = identifies.filter((m) => m.message.traits!.company)
    expect(withCompany.length).toBeGreaterThan(identifies.length / 2)
    for (const { message } of withCompany) {
      expect(message.traits).toEqual(expect.objectContaining({ company: expect.any(String), employees: expect.any(Number), revenue: expect.any(Number) }))
    }
    const groups = messages.filter((m) => m.message.type === 'group')
    expect(groups.length).toBeGreaterThan(0)
    const companies = new Map(demo.world.companies.map((c) => [c.id, c]))
    for (const { message } of groups) {
      const company = companies.get(message.groupId!)!
      expect(message.traits).toEqual(expect.objectContaining({ name: company.name, domain: company.domain, industry: company.industry, employees: company.employees, revenue: company.revenue, plan: expect.any(String) }))
    }
  })

  it('gives browser calls a page, a browser, an address and the visitor id', () => {
    const pages = messages.filter((m) => m.message.type === 'page')
    for (const { message } of pages.slice(0, 500)) {
      const page = message.context.page as Record<string, string>
      expect(page.url).toMatch(/^https:\/\/demo\.fl0\.dev\//)
      expect(page.url).toBe(`https://demo.fl0.dev${page.path}${page.search}`)
      expect(typeof page.referrer).toBe('string')
      expect(page.title.length).toBeGreaterThan(0)
      expect(message.properties).toEqual(page)
      expect(message.context.userAgent).toMatch(/^Mozilla\/5\.0/)
      expect(message.context.ip).toMatch(/^[0-9a-f.:]+$/)
      expect(message.context.puid).toMatch(/^[0-9a-f-]{36}$/)
      expect(message.anonymousId).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(pages.some((m) => (m.message.context.page as Record<string, string>).search.includes('utm_source='))).toBe(true)
    expect(pages.some((m) => m.message.context.campaign)).toBe(true)
  })

  it('has anonymous-only visitors as well as identified ones', () => {
    const identified = new Set(messages.filter((m) => m.message.userId && m.message.anonymousId).map((m) => m.message.anonymousId))
    const anonymous = new Set(messages.filter((m) => !m.message.userId).map((m) => m.message.anonymousId))
    const neverIdentified = [...anonymous].filter((a) => a && !identified.has(a))
    expect(identified.size).toBeGreaterThan(10)
    expect(neverIdentified.length).toBeGreaterThan(identified.size)
  })
})

describe('sizes', () => {
  it('follows companies, people and days', () => {
    const demo = createDemo({ seed: 3, companies: 25, people: 180, days: 5, now: NOW })
    expect(demo.world.companies).toHaveLength(25)
    expect(demo.world.people).toHaveLength(180)
    expect(new Set(demo.world.companies.map((c) => c.domain)).size).toBe(25)
    expect(new Set(demo.world.people.map((p) => p.email)).size).toBe(180)
    const days = new Set([...demo.messages()].map((m) => m.message.timestamp.slice(0, 10)))
    expect([...days].sort()).toEqual(['2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17', '2026-03-18'])
  })

  it('scales visits to about the asked number of events', () => {
    for (const events of [20_000, 120_000]) {
      const demo = createDemo({ ...SMALL, events })
      let n = 0
      for (const _ of demo.messages()) n++
      expect(Math.abs(n - events) / events).toBeLessThan(0.08)
    }
  })

  it('grows the traffic with the number of people', () => {
    const count = (people: number) => [...createDemo({ ...SMALL, people }).messages()].length
    expect(count(800)).toBeGreaterThan(count(400) * 1.5)
  })
})

describe('ground truth', () => {
  const demo = createDemo({ ...SMALL, people: 800, days: 30 })
  const messages = [...demo.messages()]
  const companies = new Map(demo.world.companies.map((c) => [c.id, c]))
  const people = new Map(demo.world.people.map((p) => [p.id, p]))

  it('puts office visits inside the company block and other visits outside every company block', () => {
    let office = 0
    for (const { message, truth } of messages) {
      const ip = message.context.ip as string
      if (truth.network === 'office') {
        office++
        const company = companies.get(truth.companyId!)!
        if (ip.includes(':')) expect(ip.startsWith(company.v6.first.replace(/::$/, ':'))).toBe(true)
        else expect(inCidr4(ip, company.v4.cidr)).toBe(true)
      } else if (!ip.includes(':')) {
        expect(inCidr4(ip, CORPORATE_V4)).toBe(false)
        expect(PROVIDER_POOLS.some((p) => inCidr4(ip, p.v4))).toBe(true)
      }
    }
    expect(office).toBeGreaterThan(messages.length * 0.05)
  })

  it('gives each device one person and each user id its person', () => {
    const owner = new Map<string, string | null>()
    for (const { message, truth } of messages) {
      if (message.userId) expect(truth.personId).toBe(message.userId)
      if (message.anonymousId) {
        if (!owner.has(message.anonymousId)) owner.set(message.anonymousId, truth.personId)
        expect(truth.personId).toBe(owner.get(message.anonymousId))
      }
      if (truth.personId) {
        const person = people.get(truth.personId)!
        expect(truth.companyId).toBe(person.companyIndex === null ? null : demo.world.companies[person.companyIndex].id)
      }
    }
  })

  it('uses business e-mails on company domains and personal ones on free-mail domains', () => {
    for (const p of demo.world.people) {
      const domain = p.email.split('@')[1]
      if (p.emailKind === 'personal') expect(FREE_MAIL_DOMAINS.has(domain)).toBe(true)
      else expect(domain).toBe(demo.world.companies[p.companyIndex!].domain)
    }
  })

  it('plants the rule: people with both given habits convert far more often, and only after using them', () => {
    const big = createDemo({ seed: 11, companies: 300, people: 4000, days: 90, now: NOW })
    const signedUp = big.world.people.filter((p) => p.life.signupDay !== null && p.life.signupDay < 80)
    const withRule = signedUp.filter((p) => big.world.rule.given.every((e) => e in p.life.habits))
    const without = signedUp.filter((p) => !big.world.rule.given.every((e) => e in p.life.habits))
    const rate = (list: typeof signedUp) => list.filter((p) => p.life.conversionDay !== null).length / list.length
    expect(withRule.length).toBeGreaterThan(100)
    expect(rate(withRule)).toBeGreaterThan(0.3)
    expect(rate(without)).toBeLessThan(0.1)

    // In the calls themselves: a converter's rule events come before the upgrade.
    const firstUse = new Map<string, number>()
    let upgrades = 0
    for (const { message } of big.messages()) {
      if (message.type !== 'track' || !message.userId) continue
      const t = Date.parse(message.timestamp)
      if (big.world.rule.given.includes(message.event!)) {
        const key = `${message.userId}:${message.event}`
        if (!firstUse.has(key)) firstUse.set(key, t)
      }
      if (message.event === 'Plan Upgraded') {
        upgrades++
        const person = big.world.people.find((p) => p.id === message.userId)!
        if (big.world.rule.given.every((e) => e in person.life.habits)) {
          for (const e of big.world.rule.given) expect(firstUse.get(`${message.userId}:${e}`)).toBeLessThan(t)
        }
      }
    }
    // Every conversion before today is in the calls; today's only if it happened before NOW.
    const converted = big.world.people.filter((p) => p.life.conversionDay !== null)
    expect(upgrades).toBeGreaterThanOrEqual(converted.filter((p) => p.life.conversionDay! < big.days - 1).length)
    expect(upgrades).toBeLessThanOrEqual(converted.length)
  })
})
