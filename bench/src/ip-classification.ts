/**
 * Issue 20: how the free network data names the networks a visit can come
 * from. For 30 well-known companies (and universities), 10 consumer internet
 * providers, 10 mobile carriers and 10 clouds, an address is drawn from each
 * network's own ranges in the free data (@ip-location-db/asn) and matched as
 * the identity worker matches a visit's address (workers/src/identity/networks).
 * Reported: companies named (and with the right name), providers wrongly named
 * as a company (the goal: none), each network's kind, and which rule decided
 * it (a known number, the name, the size). Then the cost of the data: the
 * time to load it and the resident memory it adds.
 *
 *   npx tsx bench/src/ip-classification.ts
 */
import { loadavg } from 'node:os'
import { classifyNetwork, freeNetworkData, keyToText, KNOWN_NETWORKS, Networks, RangeTable, V4_MAPPED_BASE } from '@fl0/workers'

type Expect = 'company' | 'isp' | 'mobile' | 'hosting'
const NETWORKS: Array<[Expect, number, string]> = [
  // 30 companies and universities: 15 of them on fl0's list of known networks, 15 left to the rules.
  ['company', 714, 'Apple'], ['company', 521, 'Ford'], ['company', 109, 'Cisco'], ['company', 4983, 'Intel'],
  ['company', 10794, 'Bank of America'], ['company', 6195, 'Goldman Sachs'], ['company', 196, 'Boeing'], ['company', 11971, 'Pfizer'],
  ['company', 14340, 'Salesforce'], ['company', 15224, 'Adobe'], ['company', 204764, 'IBM'], ['company', 6445, 'Siemens'],
  ['company', 35039, 'SAP'], ['company', 14381, 'Caterpillar'], ['company', 32, 'Stanford'],
  ['company', 7116, 'Toyota'], ['company', 31880, 'Nestle'], ['company', 26478, 'Novartis'], ['company', 26395, 'Johnson Controls'],
  ['company', 11251, 'Disney'], ['company', 17168, 'Thomson Reuters'], ['company', 16074, 'Capgemini'], ['company', 26342, 'Deloitte'],
  ['company', 395762, 'Airbnb'], ['company', 55095, 'Netflix'], ['company', 59785, 'Coca-Cola'], ['company', 205505, 'Volkswagen'],
  ['company', 45856, 'Mastercard'], ['company', 13167, 'Merck'], ['company', 44022, 'Barclays'],
  // 10 consumer internet providers: 4 known, 6 left to the rules.
  ['isp', 7922, 'Comcast'], ['isp', 3320, 'Deutsche Telekom'], ['isp', 20115, 'Charter'], ['isp', 2856, 'BT'],
  ['isp', 2119, 'Telenor'], ['isp', 3303, 'Swisscom'], ['isp', 577, 'Bell Canada'], ['isp', 812, 'Rogers'], ['isp', 13285, 'TalkTalk'], ['isp', 5607, 'Sky UK'],
  // 10 mobile carriers: 4 known, 6 left to the rules.
  ['mobile', 21928, 'T-Mobile US'], ['mobile', 22394, 'Verizon Wireless'], ['mobile', 55836, 'Jio'], ['mobile', 9605, 'NTT Docomo'],
  ['mobile', 16135, 'Turkcell'], ['mobile', 33771, 'Safaricom'], ['mobile', 29465, 'MTN Nigeria'], ['mobile', 23693, 'Telkomsel'], ['mobile', 35228, 'O2 UK'], ['mobile', 12714, 'MegaFon'],
  // 10 clouds and hosts: 4 known, 6 left to the rules.
  ['hosting', 16509, 'AWS'], ['hosting', 396982, 'Google Cloud'], ['hosting', 8075, 'Azure'], ['hosting', 14061, 'DigitalOcean'],
  ['hosting', 36007, 'Kamatera'], ['hosting', 202053, 'UpCloud'], ['hosting', 199524, 'Gcore'], ['hosting', 29802, 'Hivelocity'], ['hosting', 59642, 'Cherry Servers'], ['hosting', 197540, 'netcup'],
]

const named = (kind: string) => kind === 'company' || kind === 'education' || kind === 'government'
const mb = () => process.memoryUsage().rss / 2 ** 20

process.stdout.write(`load average: ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
const rssBefore = mb()
const t0 = performance.now()
const free = freeNetworkData()!
const loadMs = performance.now() - t0
const rssAfter = mb()
const networks = new Networks(RangeTable.empty(), free)

const rows: string[] = []
let companiesNamed = 0
let providersNamed = 0
const byRule = { known: 0, rules: 0 }
let kindRight = 0
for (const [expect, asn, label] of NETWORKS) {
  const ranges = free.asns.v4RangesOf(asn)
  if (ranges.length === 0) {
    rows.push(`| ${label} | AS${asn} | (no IPv4 range in the data) | | |`)
    continue
  }
  const [first, last] = ranges[Math.floor(ranges.length / 2)]!
  const n = first + Math.floor((last - first) / 2)
  const address = keyToText(V4_MAPPED_BASE + BigInt(n))
  const m = networks.match(address)
  const isNamed = named(m.kind)
  if (expect === 'company' && isNamed) companiesNamed++
  if (expect !== 'company' && isNamed) providersNamed++
  if ((expect === 'company' && isNamed) || m.kind === expect) kindRight++
  const rule = KNOWN_NETWORKS.has(asn) ? 'known' : 'rules'
  byRule[rule]++
  rows.push(`| ${label} | AS${asn} ${address} | ${m.network} | ${m.kind}${isNamed ? ` → "${m.companyName}"${m.domain ? ` (${m.domain})` : ''}` : ''} | ${rule} | ${expect === 'company' ? (isNamed ? 'named' : 'missed') : isNamed ? '**named wrongly**' : 'not named'} |`)
}
process.stdout.write(`| network | AS, address | published organisation | fl0's kind → name | decided by | result |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n\n`)
process.stdout.write(`companies named: ${companiesNamed} of 30; providers named as a company: ${providersNamed} of 30; kind as expected: ${kindRight} of ${NETWORKS.length}\n`)

// Over the whole data: how its ASes fall into kinds (what a visitor's address can be).
const kinds = new Map<string, number>()
for (const e of free.asns.all()) {
  const k = classifyNetwork(e).kind
  kinds.set(k, (kinds.get(k) ?? 0) + 1)
}
process.stdout.write(`all ${[...kinds.values()].reduce((a, b) => a + b, 0)} ASes of the data: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}\n`)

// The largest networks the rules (not the known list) take for companies: where their misses would weigh most.
const largest = [...free.asns.all()]
  .filter((e) => !KNOWN_NETWORKS.has(e.asn) && classifyNetwork(e).kind === 'company')
  .sort((a, b) => b.v4Size - a.v4Size)
  .slice(0, 50)
process.stdout.write(`the 50 largest networks the rules name as companies: ${largest.map((e) => `${e.name} (AS${e.asn}, ${e.v4Size.toLocaleString('en-US')})`).join('; ')}\n`)

// Look-ups: a million addresses spread over the IPv4 space.
const t1 = performance.now()
let hits = 0
for (let i = 0; i < 1_000_000; i++) {
  const n = Math.imul(i, 2654435761) >>> 0
  if (networks.match(`${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`).asn) hits++
}
const lookupUs = (performance.now() - t1) / 1000
process.stdout.write(`data loaded in ${loadMs.toFixed(0)} ms; resident memory ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB (+${(rssAfter - rssBefore).toFixed(0)} MB); ${free.asns.size} ranges; a look-up (AS and place) ${lookupUs.toFixed(1)} µs (${hits} of 1,000,000 addresses in some AS)\n`)
