import { CORPORATE_V6_PREFIX, officeAddress, officeAddressV6, poolsFor, randomIpv4, randomIpv6 } from './addresses.ts'
import { COUNTRIES, PLAN_MRR } from './catalog.ts'
import { companyPlanOn, individualPlanOn } from './lifecycle.ts'
import { DAY_MS, type SessionPlan } from './plan.ts'
import { buildAction, nextActionName, type Action } from './product.ts'
import { Rng } from './random.ts'
import { arrival, browser, browsePage, campaignSearch, docsPage, landingPage, PAGES } from './site.ts'
import type { Company, DemoMessage, Person, Truth } from './types.ts'
import type { World } from './world.ts'
import { SessionWriter, type Visitor } from './writer.ts'

/**
 * Turns a planned session into its Segment calls. Each session draws from its
 * own generator (run, day, index), so it can be made at the moment the stream
 * needs it, in any order, with the same result.
 */
export interface SessionContext {
  world: World
  runId: string
  windowStart: number
  day: number
  index: number
}

export function renderSession(ctx: SessionContext, plan: SessionPlan): DemoMessage[] {
  const rng = new Rng(ctx.runId, ctx.day, ctx.index)
  const idPrefix = `demo-${ctx.runId}-${ctx.day}-${ctx.index}`
  if (plan.person < 0) return driveBy(rng, ctx, plan, idPrefix)

  const person = ctx.world.people[plan.person]
  const company = person.companyIndex === null ? null : ctx.world.companies[person.companyIndex]
  const device = person.devices[plan.device] ?? person.devices[0]
  const { ip, network } = personAddress(rng, person, company, device.kind, plan.start)
  const visitor: Visitor = { anonymousId: device.anonymousId, puid: device.puid, userAgent: device.userAgent, ip, locale: person.locale, timezone: person.timezone, screen: device.screen }
  const truth: Truth = { personId: person.id, companyId: company?.id ?? null, network }
  const w = new SessionWriter(rng, idPrefix, plan.start, visitor, truth)
  const signedUp = person.life.signupDay !== null && ctx.day > person.life.signupDay
  if (signedUp) w.userId = person.id

  switch (plan.kind) {
    case 'browse':
      if (signedUp) readDocs(w)
      else browse(w, rng.geometric(0.5))
      break
    case 'research':
      browse(w, 1 + rng.geometric(0.65), true)
      break
    case 'demo':
      requestDemo(w, person, company)
      break
    case 'signup':
      signUp(w, ctx, person, company)
      useProduct(w, ctx, person, company, plan)
      break
    case 'app':
      useProduct(w, ctx, person, company, plan)
      break
    default:
      throw new Error(`session kind ${plan.kind} needs no person`)
  }
  return w.messages
}

/** Office address on weekday desktop visits as often as the company works on site; otherwise home or the phone network. */
function personAddress(rng: Rng, person: Person, company: Company | null, kind: 'desktop' | 'mobile', at: number): { ip: string; network: Truth['network'] } {
  if (kind === 'mobile') {
    const pool = rng.pick(poolsFor(person.country, 'mobile'))
    return { ip: rng.chance(0.3) ? randomIpv6(rng, pool.v6) : randomIpv4(rng, pool.v4), network: 'mobile' }
  }
  const localDay = new Date(at + person.utcOffset * 3_600_000).getUTCDay()
  const weekday = localDay !== 0 && localDay !== 6
  if (company && weekday && rng.chance(company.officeShare)) {
    // An office on IPv6 only where its network announces IPv6 (networks.ts); a network without it is an IPv4-only office.
    const v6 = rng.chance(0.15) && !company.v6.first.startsWith(CORPORATE_V6_PREFIX)
    const ip = v6 ? officeAddressV6(company.v6, person.officePick) : officeAddress(company.v4, person.officePick)
    return { ip, network: 'office' }
  }
  return { ip: person.homeIp, network: 'home' }
}

function arrive(w: SessionWriter): void {
  const from = arrival(w.rng)
  w.view(landingPage(w.rng), { referrer: from.referrer, search: campaignSearch(from.campaign, w.rng), campaign: from.campaign })
}

function browse(w: SessionWriter, morePages: number, research = false): void {
  arrive(w)
  for (let i = 0; i < morePages; i++) {
    w.wait(40)
    // Researchers head for pricing; nobody reloads the page they are on.
    let next = research && i === 0 ? PAGES.pricing : browsePage(w.rng)
    for (let tries = 0; next.path === w.path && tries < 5; tries++) next = browsePage(w.rng)
    w.view(next)
  }
  if (w.rng.chance(research ? 0.25 : 0.08)) {
    w.wait(15)
    w.track('snippet', 'CTA Clicked', {
      cta: w.rng.weighted([['Start free trial', 5], ['Book a demo', 2], ['See pricing', 3]] as const),
      location: w.rng.pick(['hero', 'nav', 'footer', 'pricing-table']),
    })
  }
}

function readDocs(w: SessionWriter): void {
  w.view(docsPage(w.rng), { referrer: w.rng.chance(0.5) ? 'https://www.google.com/' : '' })
  for (let i = w.rng.geometric(0.45); i > 0; i--) {
    w.wait(60)
    w.view(docsPage(w.rng))
  }
}

function requestDemo(w: SessionWriter, person: Person, company: Company | null): void {
  browse(w, w.rng.int(0, 2))
  w.wait(30)
  w.view(PAGES.demo)
  w.wait(70)
  w.track('snippet', 'Demo Requested', {
    company_size: company ? sizeBucket(company.employees) : '1',
    interest: w.rng.pick(['Visitor identification', 'Product analytics', 'AI scoring']),
  })
  // The form names the visitor: an identify without a userId, as analytics.js does for leads.
  w.identify('snippet', { name: person.name, firstName: person.firstName, lastName: person.lastName, email: person.email, role: person.role, ...(company ? { company: company.name, employees: company.employees } : {}) })
}

function signUp(w: SessionWriter, ctx: SessionContext, person: Person, company: Company | null): void {
  const invited = person.life.invitedBy !== null
  if (invited) {
    w.view(PAGES.signup, { search: `?invite=${w.rng.hex(12)}` })
  } else {
    arrive(w)
    if (w.rng.chance(0.6)) {
      w.wait(45)
      w.view(PAGES.pricing)
    }
    w.wait(20)
    w.view(PAGES.signup)
  }
  w.wait(50)
  w.userId = person.id
  w.track('segment', 'Signed Up', {
    method: w.rng.weighted([['email', 5], ['google', 4], ['github', 1]] as const),
    plan: planOn(person, company, ctx.day),
    invited,
  })
  identifyAndGroup(w, ctx, person, company)
  w.wait(5)
  w.view(PAGES.onboarding)
  w.wait(90)
}

function useProduct(w: SessionWriter, ctx: SessionContext, person: Person, company: Company | null, plan: SessionPlan): void {
  const { rng } = w
  if (plan.kind === 'app') {
    if (rng.chance(0.3)) {
      w.view(PAGES.login)
      w.wait(12)
      w.track('snippet', 'Logged In', { method: rng.weighted([['password', 5], ['google', 4], ['sso', 1]] as const) })
      identifyAndGroup(w, ctx, person, company)
      w.wait(3)
    }
    w.view(PAGES.appHome, { referrer: '' })
    w.wait(20)
  }
  const doAction = (name: string, inviteeIndex?: number) => {
    const action = buildAction(name, {
      rng,
      features: person.life.features,
      inviteeEmail: () => (inviteeIndex !== undefined ? ctx.world.people[inviteeIndex].email : colleagueEmail(rng, ctx, person, company)),
      plan: name === 'Plan Upgraded' ? upgradeOf(person, company, ctx.day) : null,
    })
    emitAction(w, action)
  }
  for (const item of plan.agenda) {
    if (item.kind === 'invite') doAction('Invite Sent', item.invitee)
    else if (item.kind === 'habit') doAction(item.event)
    else if (item.kind === 'convert') {
      doAction('Plan Upgraded')
      identifyAndGroup(w, ctx, person, company)
    }
    w.wait(40)
  }
  for (let n = 1 + rng.geometric(0.75); n > 0; n--) {
    doAction(nextActionName(rng, person.life.habits, ctx.day))
    w.wait(45, 0.9)
  }
}

function emitAction(w: SessionWriter, action: Action): void {
  if (action.page) {
    w.view(action.page)
    w.wait(8)
  }
  w.track(action.source, action.event, action.properties)
}

/** The browser identifies the user; the backend reports the company (Segment's usual split). */
function identifyAndGroup(w: SessionWriter, ctx: SessionContext, person: Person, company: Company | null): void {
  w.identify('snippet', personTraits(ctx, person, company))
  if (company) w.group('segment', company.id, companyTraits(ctx, company))
}

export function personTraits(ctx: Pick<SessionContext, 'day' | 'windowStart'>, person: Person, company: Company | null): Record<string, unknown> {
  const traits: Record<string, unknown> = {
    name: person.name,
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    role: person.role,
    plan: planOn(person, company, ctx.day),
    createdAt: dayTime(ctx.windowStart, person.life.signupDay ?? ctx.day),
  }
  if (company) Object.assign(traits, { company: company.name, companyId: company.id, employees: company.employees, revenue: company.revenue })
  if (person.linkedinUrl) traits.linkedinUrl = person.linkedinUrl
  return traits
}

export function companyTraits(ctx: Pick<SessionContext, 'day' | 'windowStart'>, company: Company): Record<string, unknown> {
  return {
    name: company.name,
    domain: company.domain,
    website: `https://www.${company.domain}`,
    industry: company.industry,
    employees: company.employees,
    revenue: company.revenue,
    plan: companyPlanOn(company, ctx.day),
    country: company.country,
    createdAt: dayTime(ctx.windowStart, company.accountDay ?? ctx.day),
  }
}

function planOn(person: Person, company: Company | null, day: number): string {
  return (company ? companyPlanOn(company, day) : individualPlanOn(person, day)) ?? 'free'
}

function upgradeOf(person: Person, company: Company | null, day: number): { previous: string; next: string; mrr: number } {
  const u = company?.upgrades.find((x) => x.personIndex === person.index && x.day === day)
  if (u) return { previous: u.from, next: u.to, mrr: PLAN_MRR[u.to] }
  return { previous: 'free', next: individualPlanOn(person, day), mrr: PLAN_MRR.starter }
}

/** Someone at the company who has not joined yet, else a made-up new hire. */
function colleagueEmail(rng: Rng, ctx: SessionContext, person: Person, company: Company | null): string {
  const pool = company ? ctx.world.members[company.index].filter((p) => p.life.signupDay === null || p.life.signupDay > ctx.day) : []
  if (pool.length) return rng.pick(pool).email
  const domain = company?.domain ?? person.email.split('@')[1]
  return `${rng.pick(['alex', 'sam', 'jordan', 'taylor', 'morgan', 'casey', 'robin', 'jamie'])}.${rng.pick(['lee', 'smith', 'garcia', 'patel', 'nguyen', 'muller', 'martin', 'kim'])}@${domain}`
}

/** A one-off visitor: nobody the world knows, on a home or phone network, or now and then at some company's office. */
function driveBy(rng: Rng, ctx: SessionContext, plan: SessionPlan, idPrefix: string): DemoMessage[] {
  const country = rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const))
  const kind = rng.chance(0.25) ? 'mobile' : 'desktop'
  const { userAgent, screen } = browser(rng, kind)
  let ip: string
  let network: Truth['network']
  let companyId: string | null = null
  const where = kind === 'mobile' ? 'mobile' : rng.weighted([['home', 80], ['office', ctx.world.companies.length ? 20 : 0]] as const)
  if (where === 'office') {
    const company = rng.pick(ctx.world.companies)
    ip = officeAddress(company.v4, rng.int(0, 1000))
    network = 'office'
    companyId = company.id
  } else {
    const pool = rng.pick(poolsFor(country.code, where === 'mobile' ? 'mobile' : 'isp'))
    ip = rng.chance(0.25) ? randomIpv6(rng, pool.v6) : randomIpv4(rng, pool.v4)
    network = where
  }
  const [timezone] = rng.pick(country.zones)
  const visitor: Visitor = { anonymousId: rng.uuid(), puid: rng.uuid(), userAgent, ip, locale: country.locale, timezone, screen }
  const w = new SessionWriter(rng, idPrefix, plan.start, visitor, { personId: null, companyId, network })
  browse(w, rng.geometric(0.45))
  return w.messages
}

function sizeBucket(employees: number): string {
  if (employees <= 10) return '1-10'
  if (employees <= 50) return '11-50'
  if (employees <= 200) return '51-200'
  if (employees <= 1000) return '201-1000'
  return '1000+'
}

/** 10:00 UTC on a window day, as the ISO time of an account or sign-up. */
function dayTime(windowStart: number, day: number): string {
  return new Date(windowStart + day * DAY_MS + 10 * 3_600_000).toISOString()
}
