import { poolsFor, randomIpv4, randomIpv6 } from './addresses.ts'
import { COUNTRIES, COUNTRY_BY_CODE, ROLES, type Country } from './catalog.ts'
import { seededFaker } from './fake.ts'
import { Rng } from './random.ts'
import { browser } from './site.ts'
import type { Company, Device, Person } from './types.ts'

/**
 * People: who they are, where they work, their browsers and home connection.
 * What they do over the window (signing up, habits…) is added by lifecycle.ts.
 *
 * The first people go one to each customer company (its champion), so every
 * customer has someone to sign it up; the rest join companies in proportion to
 * employees^0.6 (bigger companies have more visitors, not linearly more), and
 * about 15% belong to no company at all.
 */
export const INDIVIDUAL_SHARE = 0.15

export function buildPeople(seed: number, count: number, companies: Company[]): Person[] {
  const customers = companies.filter((c) => c.customer)
  const cumulative: number[] = []
  let total = 0
  for (const c of companies) cumulative.push((total += c.employees ** 0.6))
  const emails = new Set<string>()
  const people: Person[] = []
  for (let index = 0; index < count; index++) {
    const rng = new Rng(seed, 'person', index)
    let company: Company | null
    if (index < customers.length) company = customers[index]
    else if (companies.length === 0 || rng.chance(INDIVIDUAL_SHARE)) company = null
    else company = companies[lowerBound(cumulative, rng.next() * total)]
    const country = company && rng.chance(0.9) ? COUNTRY_BY_CODE.get(company.country)! : rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const))
    const faker = seededFaker(country.faker, seed, 'person', index)
    const firstName = faker.person.firstName()
    const lastName = faker.person.lastName()
    const champion = index < customers.length
    const role = pickRole(rng, champion)
    const emailKind = company && rng.chance(0.85) ? 'business' : 'personal'
    const email = uniqueEmail(rng, firstName, lastName, emailKind === 'business' ? company!.domain : rng.pick(country.freeMail), emailKind, company?.employees ?? 1, emails)
    const [timezone, utcOffset] = rng.pick(country.zones)
    const devices: Device[] = [device(rng, 'desktop')]
    if (rng.chance(0.35)) devices.push(device(rng, 'mobile'))
    people.push({
      index,
      id: `usr_${rng.hex(16)}`,
      firstName,
      lastName,
      name: `${firstName} ${lastName}`,
      email,
      emailKind,
      role,
      linkedinUrl: rng.chance(0.85) ? `https://www.linkedin.com/in/${slug(firstName)}-${slug(lastName)}-${rng.hex(6)}` : null,
      companyIndex: company?.index ?? null,
      country: country.code,
      timezone,
      utcOffset,
      locale: country.locale,
      homeIp: homeAddress(rng, country),
      officePick: rng.int(0, 1_000_000),
      devices,
      life: {
        signupDay: null,
        invitedBy: null,
        researchDays: [],
        demoDay: null,
        churnDay: null,
        activity: 0,
        interest: 0,
        habits: {},
        conversionDay: null,
        features: [],
        invites: [],
      },
    })
  }
  return people
}

function lowerBound(sorted: number[], value: number): number {
  let lo = 0
  let hi = sorted.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid] <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

function pickRole(rng: Rng, buyer: boolean): string {
  const roles = buyer ? ROLES.filter((r) => r[2]) : ROLES
  return rng.weighted(roles.map((r) => [r[0], r[1]] as const))
}

function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
}

function uniqueEmail(rng: Rng, first: string, last: string, domain: string, kind: 'business' | 'personal', employees: number, taken: Set<string>): string {
  const f = slug(first) || 'user'
  const l = slug(last) || 'mail'
  let local: string
  if (kind === 'business') {
    // Small companies often use first names only.
    local = employees <= 20 && rng.chance(0.5) ? f : rng.weighted([[`${f}.${l}`, 6], [`${f[0]}${l}`, 3], [`${f}${l[0]}`, 1], [`${f}_${l}`, 1]] as const)
  } else {
    local = rng.weighted([[`${f}.${l}`, 4], [`${f}${l}`, 3], [`${f}.${l}${rng.int(1, 99)}`, 3], [`${f[0]}${l}${rng.int(70, 99)}`, 2]] as const)
  }
  let email = `${local}@${domain}`
  for (let n = 2; taken.has(email); n++) email = `${local}${n}@${domain}`
  taken.add(email)
  return email
}

function device(rng: Rng, kind: 'desktop' | 'mobile'): Device {
  const { userAgent, screen } = browser(rng, kind)
  return { kind, anonymousId: rng.uuid(), puid: rng.uuid(), userAgent, screen }
}

/** Home broadband from a provider of the person's country; a quarter of homes are on IPv6. */
function homeAddress(rng: Rng, country: Country): string {
  const pool = rng.pick(poolsFor(country.code, 'isp'))
  return rng.chance(0.25) ? randomIpv6(rng, pool.v6) : randomIpv4(rng, pool.v4)
}
