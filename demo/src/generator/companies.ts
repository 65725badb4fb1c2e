import { companyRanges } from './addresses.ts'
import { businessNetworks, officeBlock, type BusinessNetwork } from './networks.ts'
import { COMPANY_SIZES, COUNTRIES, INDUSTRIES, NAME_ENDINGS, NAME_STEMS, NAME_SUFFIXES, type Plan } from './catalog.ts'
import { seededFaker } from './fake.ts'
import { Rng } from './random.ts'
import type { Company } from './types.ts'

/**
 * Companies, each drawn from its own generator (seed, 'company', i): changing
 * the count adds or removes companies at the end and leaves the others as they
 * were (domains and networks aside, which give way to earlier ones on a clash).
 *
 * Each company is a business network of the free data in its country
 * (networks.ts): its name, its office block inside the network's addresses,
 * so that fl0 names it from its visitors' addresses with no data bought. A
 * country with no network left gets an invented company in CORPORATE_V4.
 */
export function buildCompanies(seed: number, count: number, days: number): Company[] {
  const domains = new Set<string>()
  const taken = new Set<string>()
  const companies: Company[] = []
  const byCountry = businessNetworks()
  for (let index = 0; index < count; index++) {
    const rng = new Rng(seed, 'company', index)
    const country = rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const))
    const network = pickNetwork(byCountry.get(country.code) ?? [], rng, taken)
    const name = network ? network.name : rng.chance(0.45) ? seededFaker(country.faker, seed, 'company', index).company.name() : coinedName(rng)
    const domain = uniqueDomain(name, rng.pick(country.tlds), domains)
    const [industry, , revenuePerEmployee] = rng.weighted(INDUSTRIES.map((i) => [i, i[1]] as const))
    const [low, high] = rng.weighted(COMPANY_SIZES)
    // Log-uniform inside the bucket: more 12-person companies than 48-person ones.
    const employees = Math.round(Math.exp(Math.log(low) + rng.next() * (Math.log(high) - Math.log(low))))
    const revenue = roundTo2Significant(employees * revenuePerEmployee * rng.logNormal(1, 0.35))
    const customer = rng.chance(0.6)
    // A little over half of the customers signed up before the window opened.
    const accountDay = customer ? (rng.chance(0.55) ? -rng.int(1, 540) : rng.int(0, Math.max(0, days - 1))) : null
    const basePlan = customer ? firstPlan(rng, employees) : null
    const ranges = network ? networkRanges(network, index, employees) : companyRanges(index, employees)
    companies.push({
      index,
      id: `cmp_${rng.hex(12)}`,
      name,
      domain,
      industry,
      country: country.code,
      employees,
      revenue,
      customer,
      accountDay,
      basePlan,
      plan: basePlan,
      upgrades: [],
      officeShare: 0.15 + rng.next() * 0.7,
      v4: ranges.v4,
      v6: ranges.v6,
    })
  }
  return companies
}

/** A network of the country whose organisation no company has yet (several ASes can share one): a random one, then the next free one after it. */
function pickNetwork(list: readonly BusinessNetwork[], rng: Rng, taken: Set<string>): BusinessNetwork | undefined {
  if (list.length === 0) return undefined
  const start = rng.int(0, list.length - 1)
  for (let k = 0; k < list.length; k++) {
    const n = list[(start + k) % list.length]!
    if (!taken.has(n.name)) {
      taken.add(n.name)
      return n
    }
  }
  return undefined
}

/** The office blocks inside the network: IPv4 sized as companyRanges sizes them, IPv6 a /48 it announces (else the made-up one). */
function networkRanges(network: BusinessNetwork, index: number, employees: number): ReturnType<typeof companyRanges> {
  const bits = employees <= 50 ? 28 : employees <= 500 ? 26 : 24
  const made = companyRanges(index, employees)
  const v6 = network.v6
    ? { cidr: `${network.v6}::/48`, first: `${network.v6}::`, last: `${network.v6}:ffff:ffff:ffff:ffff:ffff` }
    : made.v6
  return { v4: officeBlock(network, bits), v6 }
}

function coinedName(rng: Rng): string {
  const stem = rng.pick(NAME_STEMS)
  const word = rng.chance(0.6) ? stem + rng.pick(NAME_ENDINGS) : `${stem} ${rng.pick(NAME_STEMS)}`
  return word + rng.pick(NAME_SUFFIXES)
}

const STOP_WORDS = new Set(['and', 'inc', 'llc', 'ltd', 'group', 'gmbh', 'sons', 'co', 'sa', 'sarl', 'bv', 'kg', 'ag', 'plc', 'pvt', 'the', 'et', 'und', 'en', 'zoon'])

/** acme-corp-and-sons → acmecorp.com; on a clash, acmecorphq.com, getacmecorp.com, acmecorp2.com… */
function uniqueDomain(name: string, tld: string, taken: Set<string>): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP_WORDS.has(w))
  const stem = (words.slice(0, 2).join('') || 'company').slice(0, 30)
  const candidates = [stem, `${stem}hq`, `get${stem}`, `${stem}app`]
  for (let n = 2; ; n++) {
    const label = candidates.shift() ?? `${stem}${n}`
    const domain = `${label}${tld}`
    if (!taken.has(domain)) {
      taken.add(domain)
      return domain
    }
  }
}

function roundTo2Significant(n: number): number {
  if (n <= 0) return 0
  const magnitude = 10 ** (Math.floor(Math.log10(n)) - 1)
  return Math.round(n / magnitude) * magnitude
}

/** Small companies start on the cheaper plans, large ones on pro (enterprise is reached by upgrading). */
function firstPlan(rng: Rng, employees: number): Plan {
  if (employees <= 50) return rng.weighted([['free', 5], ['starter', 4], ['pro', 1]] as const)
  if (employees <= 1000) return rng.weighted([['free', 2], ['starter', 4], ['pro', 4]] as const)
  return rng.weighted([['starter', 3], ['pro', 7]] as const)
}
