import { CORPORATE_V4, PROVIDER_POOLS } from './addresses.ts'
import { hashSeed } from './random.ts'
import type { Company, Person } from './types.ts'
import type { World } from './world.ts'

/**
 * The identity partners' files for the demo world, so that identification
 * (docs/identification.md) has something to import and a ground truth to be
 * measured against (bench/src/identification.ts):
 *
 * - ip-to-company.csv: every company's IPv4 and IPv6 blocks (kind company),
 *   every provider pool of PROVIDER_POOLS (kind isp or mobile: never anyone's
 *   company), and a hosting block over the whole corporate /8, so that the
 *   companies' blocks inside it win only by being narrower;
 * - universal.csv: the universal person table: a partner knows most people,
 *   not all (UNIVERSAL_SHARE);
 * - cookies.csv: puid ↔ up_id pairs for the devices the partner has synced
 *   (COOKIE_SHARE of the known people's devices);
 * - business-intents.csv: a few research topics per company over the last
 *   days of the window.
 * Pure: the same world gives the same files. Who is in them is drawn from the
 * person's or device's own hash, not a shared generator, so it does not
 * depend on the order anything is written in.
 */
export const UNIVERSAL_SHARE = 0.8
export const COOKIE_SHARE = 0.7
export const HOSTING_BLOCK = { name: 'Atlas Hosting', network: CORPORATE_V4 }
const TOPICS = ['Visitor identification', 'Product analytics', 'Customer data platform', 'Intent data', 'A/B testing', 'Session replay']

/** A deterministic draw in [0, 1) from a key. */
const draw = (...key: Array<string | number>) => hashSeed('partners', ...key.map(String)) / 2 ** 32

/** The universal person id of a person: 5x5- and 32 digits. */
export function upIdOf(person: Person): string {
  return `5x5-${String(person.index + 1).padStart(32, '0')}`
}

export function inUniversalTable(person: Person): boolean {
  return draw('universal', person.id) < UNIVERSAL_SHARE
}

export function cookieSynced(person: Person, puid: string): boolean {
  return inUniversalTable(person) && draw('cookie', puid) < COOKIE_SHARE
}

const csv = (cells: Array<string | number | null | undefined>) =>
  cells.map((c) => (c === null || c === undefined ? '' : /[",\n]/.test(String(c)) ? `"${String(c).replaceAll('"', '""')}"` : String(c))).join(',')

export function* ipToCompanyCsv(world: World): Generator<string> {
  yield csv(['network', 'company_name', 'domain', 'kind'])
  yield csv([HOSTING_BLOCK.network, HOSTING_BLOCK.name, '', 'hosting'])
  for (const c of world.companies) {
    yield csv([c.v4.cidr, c.name, c.domain, 'company'])
    yield csv([c.v6.cidr, c.name, c.domain, 'company'])
  }
  for (const p of PROVIDER_POOLS) {
    yield csv([p.v4, p.name, '', p.kind])
    yield csv([p.v6, p.name, '', p.kind])
  }
}

export function* universalCsv(world: World): Generator<string> {
  yield csv(['up_id', 'first_name', 'last_name', 'job_title', 'company_name', 'company_domain', 'linkedin_url', 'business_email', 'personal_email', 'employees', 'revenue', 'country'])
  for (const p of world.people) {
    if (!inUniversalTable(p)) continue
    const c: Company | null = p.companyIndex === null ? null : world.companies[p.companyIndex]!
    yield csv([
      upIdOf(p), p.firstName, p.lastName, p.role, c?.name, c?.domain, p.linkedinUrl,
      p.emailKind === 'business' ? p.email : '', p.emailKind === 'personal' ? p.email : '', c?.employees, c?.revenue, p.country,
    ])
  }
}

export function* cookiesCsv(world: World): Generator<string> {
  yield csv(['puid', 'upid'])
  for (const p of world.people) for (const d of p.devices) if (cookieSynced(p, d.puid)) yield csv([d.puid, upIdOf(p)])
}

export function* businessIntentsCsv(world: World, windowEnd: Date): Generator<string> {
  yield csv(['company_domain', 'topic', 'score', 'date'])
  const end = Math.floor(windowEnd.getTime() / 86_400_000)
  for (const c of world.companies) {
    for (let back = 0; back < 14; back++) {
      const day = new Date((end - back) * 86_400_000).toISOString().slice(0, 10)
      for (const topic of TOPICS) {
        const d = draw('intent', c.id, day, topic)
        if (d < 0.12) yield csv([c.domain, topic, Math.round(40 + d * 500), day])
      }
    }
  }
}

export const PARTNER_FILES = {
  'ip-to-company.csv': (world: World) => ipToCompanyCsv(world),
  'universal.csv': (world: World) => universalCsv(world),
  'cookies.csv': (world: World) => cookiesCsv(world),
  'business-intents.csv': (world: World, end: Date) => businessIntentsCsv(world, end),
} as const
