/**
 * Identification measured on the demo world (issue 9; bench/README.md,
 * "Identification"): the share of visits resolved to a company and to a
 * person, how many of those are right (precision) against the generator's
 * ground truth, and how many of the visits that could be resolved were.
 *
 *   npx tsx bench/src/identification.ts [--companies N --people N --days N --end DATE] [--dir DIR] [--free-only]
 *
 * On a fresh data directory (DIR, default a new temporary one):
 * 1. the demo's partner files are written and imported into the event store
 *    before any traffic (IP ranges, universal table, cookies, intents), with
 *    the admin jobs' own import functions; with --free-only, nothing is
 *    imported: the free network data that ships with fl0 alone (issue 20);
 * 2. the demo's traffic goes through fl0's ingest (`runDemo`), and the
 *    identity worker folds it into visits as it is written;
 * 3. the visits as the worker left them are measured, then "refresh sessions"
 *    rebuilds them from the stored events, and they are measured again (the
 *    two must agree), and a second refresh must write nothing.
 */
import { createReadStream, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { loadConfig } from '@fl0/server'
import { migrateEvents, openEventStore, type EventStore } from '@fl0/stores'
import { cookieSynced, createDemo, inUniversalTable, runDemo, upIdOf, writePartnerFiles, type DemoOptions, type Truth } from '@fl0/demo'
import { importBusinessIntents, importCookies, importIpToCompany, importUniversalTable, loadNetworks, Progress, refreshNetworkRules, refreshSessions } from '@fl0/workers'
import { orgParams, resolvedVisitsSql } from '@fl0/query'

const { values } = parseArgs({
  options: {
    companies: { type: 'string' },
    people: { type: 'string' },
    days: { type: 'string' },
    end: { type: 'string' },
    dir: { type: 'string' },
    'free-only': { type: 'boolean', default: false },
  },
})
const freeOnly = values['free-only']!
const options: DemoOptions = {
  companies: values.companies ? Number(values.companies) : undefined,
  people: values.people ? Number(values.people) : undefined,
  days: values.days ? Number(values.days) : undefined,
  now: values.end ? new Date(/^\d{4}-\d\d-\d\d$/.test(values.end) ? `${values.end}T23:59:59.999Z` : values.end) : new Date(),
}
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'fl0-identification-'))
const log = (line: string) => process.stderr.write(`${line}\n`)
const demo = createDemo(options)
const clickhouse = { kind: 'chdb' as const, path: join(dir, 'clickhouse'), database: 'fl0' }

// 1. Partner files, imported before any traffic.
const partners = join(dir, 'partners')
const files = await writePartnerFiles(demo, partners)
log(`partner files: ${files.map((f) => `${f.file} ${f.rows}`).join(', ')}${freeOnly ? ' (not imported: --free-only)' : ''}`)
if (!freeOnly) {
  const store = await openEventStore(clickhouse)
  await migrateEvents(store)
  const now = new Date()
  for (const [file, run] of [
    ['ip-to-company.csv', importIpToCompany],
    ['universal.csv', importUniversalTable],
    ['cookies.csv', importCookies],
    ['business-intents.csv', importBusinessIntents],
  ] as const) {
    const progress = new Progress()
    const message = await run(store.client, createReadStream(join(partners, file)), file, progress, now)
    log(message)
  }
  await store.close()
}

// 2. The traffic, through the ingest; the identity worker folds it as it is written.
const config = { ...loadConfig({ ...process.env, FL0_DATA_DIR: dir, PORT: '0' }) }
const logger = pino({ level: 'warn' }, pino.destination(2))
const started = Date.now()
const result = await runDemo({ config, logger, demo: options, log: (l) => log(`  ${l}`) })
log(`demo: ${result.events} events in ${((Date.now() - started) / 1000).toFixed(0)} s`)

// The ground truth, from the same world and calls.
const truthOf = new Map<string, Truth>()
const anonUser = new Map<string, string>()
const identified = new Set<string>() // user ids and anonymous ids an identify with an e-mail names
for (const { message, truth } of demo.messages()) {
  truthOf.set(message.messageId, truth)
  if (message.anonymousId && message.userId && !anonUser.has(message.anonymousId)) anonUser.set(message.anonymousId, message.userId)
  if (message.type === 'identify' && typeof message.traits?.email === 'string') {
    if (message.userId) identified.add(message.userId)
    else if (message.anonymousId) identified.add(message.anonymousId)
  }
}
const people = new Map(demo.world.people.map((p) => [p.id, p]))
const companies = new Map(demo.world.companies.map((c) => [c.id, c]))

// 3. Measure the worker's visits, refresh, measure again, refresh again.
const store = await openEventStore(clickhouse)
try {
  // The network rules as they follow the worker's visits (the rules worker's pass may not have come since the last of them).
  await refreshNetworkRules(store, [result.org_id])
  const before = await measure(store)
  const refreshed = new Progress()
  const t0 = Date.now()
  log(await refreshSessions(store, await loadNetworks(store, config.FL0_IP_DATA), [result.org_id], refreshed, new Date()))
  const refreshSeconds = (Date.now() - t0) / 1000
  const after = await measure(store)
  const again = new Progress()
  log(await refreshSessions(store, await loadNetworks(store, config.FL0_IP_DATA), [result.org_id], again, new Date()))
  process.stdout.write(`${JSON.stringify({ demo: { companies: demo.companies, people: demo.people, days: demo.days, events: result.events }, worker: before, refreshed: after, refreshSeconds, refresh: refreshed.counts, secondRefresh: again.counts }, null, 2)}\n`)
} finally {
  await store.close()
}

async function measure(s: EventStore) {
  const query = `WITH v AS (${resolvedVisitsSql()})
    SELECT v.visitor_id AS visitor_id, v.anonymous_id AS anonymous_id, v.user_id AS user_id, v.puid AS puid, v.person AS person,
      v.person_via AS person_via, v.up_id AS up_id, v.person_name AS person_name, v.company_domain AS company_domain, v.company_via AS company_via,
      v.company_name AS company_name, v.ip_company AS ip_company, v.ip_domain AS ip_domain, v.ip_kind AS ip_kind, v.ip_source AS ip_source,
      e.message_id AS message_id
    FROM v
    ASOF LEFT JOIN (
      SELECT org_id, if(anonymous_id != '', anonymous_id, concat('user:', user_id)) AS visitor_id, timestamp, message_id
      FROM events WHERE org_id = {org:String} AND type != 'alias'
    ) AS e ON e.org_id = v.org_id AND e.visitor_id = v.visitor_id AND e.timestamp >= v.started_at`
  const t = Date.now()
  const rows = await (await s.client.query({ query, query_params: orgParams(result.org_id), format: 'JSONEachRow' })).json<Record<string, string>>()
  const seconds = (Date.now() - t) / 1000
  const missed: object[] = []
  // Company from the address alone (issue 20): of the visits whose address named a company, how many named the right
  // one (by domain, or by name where the network has no domain); of the visits from an office, how many were named.
  const ip = { named: 0, right: 0, officeVisits: 0, officeNamedRight: 0, nonOfficeNamed: 0, sources: {} as Record<string, number> }
  const m = { visits: rows.length, queryMs: Math.round(seconds * 1000), company: { truth: 0, resolvable: 0, resolved: 0, right: 0, resolvableResolved: 0, via: {} as Record<string, number> }, person: { truth: 0, resolvable: 0, resolved: 0, right: 0, resolvableResolved: 0, via: {} as Record<string, number> }, unmatched: 0 }
  for (const r of rows) {
    const truth = truthOf.get(r.message_id!)
    if (!truth) {
      m.unmatched++
      continue
    }
    const person = truth.personId ? people.get(truth.personId) : undefined
    const company = truth.companyId ? companies.get(truth.companyId) : undefined
    // What fl0 could know of this visitor: a synced cookie of a person the universal table has, or an identify naming them.
    // The visitor's user: its own, or the one its anonymous id is linked to anywhere in the traffic.
    const userKey = r.user_id || anonUser.get(r.anonymous_id!) || ''
    // An e-mail known for them: an identify with an e-mail by that user, or by the anonymous id (a lead's form).
    const identifiedHere = userKey ? identified.has(userKey) : identified.has(r.anonymous_id!)
    const synced = !!person && !!r.puid && cookieSynced(person, r.puid)
    const personResolvable = !!person && (synced || identifiedHere || !!userKey)
    const personCompanyKnown = !!person && !!company && person.companyIndex === company.index && (synced || (identifiedHere && (person.emailKind === 'business' || inUniversalTable(person))))
    const companyResolvable = !!company && (truth.network === 'office' || personCompanyKnown)
    const ipNamed = ['company', 'education', 'government'].includes(r.ip_kind!) && !!(r.ip_company || r.ip_domain)
    const ipRight = ipNamed && !!company && (r.ip_domain ? r.ip_domain === company.domain : r.ip_company === company.name)
    if (ipNamed) {
      ip.named++
      ip.sources[r.ip_source!] = (ip.sources[r.ip_source!] ?? 0) + 1
      if (ipRight && truth.network === 'office') ip.right++
      if (truth.network !== 'office') ip.nonOfficeNamed++
    }
    if (truth.network === 'office') {
      ip.officeVisits++
      if (ipRight) ip.officeNamedRight++
    }
    if (company) m.company.truth++
    if (person) m.person.truth++
    if (companyResolvable) m.company.resolvable++
    if (personResolvable) m.person.resolvable++
    if (companyResolvable && !r.company_domain && missed.length < 12) missed.push({ ...r, network: truth.network, office: truth.network === 'office', personCompanyKnown, synced, identifiedHere, emailKind: person?.emailKind, inUniversal: person ? inUniversalTable(person) : null })
    if (r.company_domain || r.company_via === 'ip') {
      m.company.resolved++
      m.company.via[r.company_via!] = (m.company.via[r.company_via!] ?? 0) + 1
      if (company && (r.company_domain === company.domain || (!r.company_domain && r.company_name === company.name))) m.company.right++
      if (companyResolvable) m.company.resolvableResolved++
    }
    if (r.person_via) {
      m.person.resolved++
      m.person.via[r.person_via] = (m.person.via[r.person_via] ?? 0) + 1
      if (person && (r.up_id === upIdOf(person) || r.person === person.id || r.person_name === person.name)) m.person.right++
      if (personResolvable) m.person.resolvableResolved++
    }
  }
  if (missed.length) log(`company-resolvable visits left unresolved (first ${missed.length}): ${JSON.stringify(missed, null, 1)}`)
  const pct = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 100 : null)
  return {
    ...m,
    ip: { ...ip, precision: pct(ip.right, ip.named), recallOfOfficeVisits: pct(ip.officeNamedRight, ip.officeVisits) },
    companyShare: pct(m.company.resolved, m.visits),
    companyPrecision: pct(m.company.right, m.company.resolved),
    companyRecallOfResolvable: pct(m.company.resolvableResolved, m.company.resolvable),
    personShare: pct(m.person.resolved, m.visits),
    personPrecision: pct(m.person.right, m.person.resolved),
    personRecallOfResolvable: pct(m.person.resolvableResolved, m.person.resolvable),
  }
}
