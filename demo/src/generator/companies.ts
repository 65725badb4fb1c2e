import { companyRanges } from './addresses.ts'
import { COMPANY_SIZES, COUNTRIES, INDUSTRIES, NAME_ENDINGS, NAME_STEMS, NAME_SUFFIXES, type Plan } from './catalog.ts'
import { seededFaker } from './fake.ts'
import { Rng } from './random.ts'
import type { Company } from './types.ts'

/**
 * Companies, each drawn from its own generator (seed, 'company', i): changing
 * the count adds or removes companies at the end and leaves the others as they
 * were (domains aside, which give way to earlier ones on a clash).
 */
export function buildCompanies(seed: number, count: number, days: number): Company[] {
  const domains = new Set<string>()
  const companies: Company[] = []
  for (let index = 0; index < count; index++) {
    const rng = new Rng(seed, 'company', index)
    const country = rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const))
    const name = rng.chance(0.45) ? seededFaker(country.faker, seed, 'company', index).company.name() : coinedName(rng)
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
    const ranges = companyRanges(index, employees)
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
