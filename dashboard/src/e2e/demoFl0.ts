import { createDemo, ensureDemoOrganisation, sendMessages, type Demo, type DemoOptions, type DemoOrganisation } from '@fl0/demo'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import type { Page } from 'playwright-core'
import { NETWORK_RULES_SQL, orgParams } from '@fl0/query'
import { signUp } from './harness.ts'

/**
 * A real fl0 filled by the demo generator through its real HTTP ingest: the
 * demo organisation ('demo', with its js-snippet and segment sources) and a
 * small, seeded data set, stored before this returns. The first account that
 * signs up is staff and adopts the demo organisation (it has no member yet).
 * `demo.world` is the ground truth the screens are checked against.
 */
export interface DemoFl0 extends EmptyTestFl0 {
  demo: Demo
  organisation: DemoOrganisation
  /** Calls the ingest accepted, all stored. */
  stored: number
}

export const SMALL_DEMO: DemoOptions = { seed: 7, companies: 12, people: 60, days: 35 }

export async function startDemoFl0(options: DemoOptions = SMALL_DEMO, env: Record<string, string> = {}): Promise<DemoFl0> {
  const fl0 = await startEmptyFl0(env)
  try {
    const organisation = await ensureDemoOrganisation(fl0.stores.metadata!)
    const demo = createDemo(options)
    const sent = await sendMessages(demo.messages(), {
      url: fl0.url,
      writeKeys: { snippet: organisation.snippet.write_key, segment: organisation.segment.write_key },
    })
    if (sent.failed > 0) throw new Error(`the ingest refused ${sent.failed} demo calls: ${sent.errors.join('; ')}`)
    await fl0.waitForCount('SELECT count() AS n FROM events WHERE org_id = {org:String}', { org: organisation.org.id }, sent.accepted, 60_000)
    return { ...fl0, demo, organisation, stored: sent.accepted }
  } catch (error) {
    await fl0.stop()
    throw error
  }
}

/** The demo organisation's address in the dashboard, and a path in it ('/metrics'). */
export const demoUrl = (fl0: DemoFl0, path = '') => `${fl0.url}/organizations/${fl0.organisation.org.url_code}${path}`

/**
 * Signs up the first account (Ada Lovelace, staff): it adopts the demo
 * organisation and lands on its home (screens/home); then opens its People
 * page, where the tests start.
 */
export async function signUpToDemo(page: Page, fl0: DemoFl0) {
  await signUp(page, fl0, 'Ada Lovelace', 'ada@example.com')
  await page.waitForURL(/\/organizations\/demo$/)
  await page.goto(demoUrl(fl0, '/people'))
  await page.waitForURL(/\/organizations\/demo\/people$/)
}

/** The bus topic the ingest publishes to (EVENTS_TOPIC, ingest) and the lexicon and identity workers' consumer groups (workers). */
const EVENTS_TOPIC = 'events'
const LEXICON_GROUP = 'lexicon'
const IDENTITY_GROUP = 'identity'

/**
 * Waits until the lexicon worker, in its own consumer group, has indexed every
 * record on the bus so far: the names, properties and traits of every call the
 * ingest has answered (it publishes before it answers). Counting names is not
 * enough: the last new name comes long before the last record, and later
 * records still bring property paths, traits and the types they were seen
 * with: on a busy machine a test could compare a half-built dictionary with
 * the store. The embedded bus knows each group's lag: 0 once the batch
 * holding the last record is in the dictionary and committed.
 */
export function waitForLexicon(fl0: DemoFl0, timeoutMs = 60_000) {
  return waitForGroup(fl0, LEXICON_GROUP, 'the lexicon worker', timeoutMs)
}

/**
 * Waits until the identity worker has folded every record on the bus so far into visits (what the company pages and
 * people read of addresses), and the network rules worker has worked out the organisation's rules from them (the
 * shared addresses and the networks' domains learned from their people: workers/src/identity/network-rules.ts).
 */
export async function waitForIdentity(fl0: DemoFl0, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  await waitForGroup(fl0, IDENTITY_GROUP, 'the identity worker', timeoutMs)
  const columns = 'org_id, rule, address, toString(day) AS day, ip_asn, domain'
  const rulesOf = async (sql: string) =>
    JSON.stringify((await fl0.query(`SELECT ${columns} FROM (${sql}) ORDER BY rule, address, day, ip_asn`, orgParams(fl0.organisation.org.id))))
  for (;;) {
    const [fresh, kept] = await Promise.all([rulesOf(NETWORK_RULES_SQL), rulesOf('SELECT * FROM network_rules FINAL WHERE org_id = {org:String}')])
    if (fresh === kept) return
    if (Date.now() > deadline) throw new Error(`the network rules worker has not kept the rules of the visits after ${timeoutMs} ms: ${kept} against ${fresh}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function waitForGroup(fl0: DemoFl0, group: string, who: string, timeoutMs: number) {
  const bus = fl0.stores.bus as { lag?: (topic: string, group: string) => number } | undefined
  if (!bus?.lag) throw new Error(`waiting for ${who} needs the embedded bus (its lag)`)
  const deadline = Date.now() + timeoutMs
  let lag = bus.lag(EVENTS_TOPIC, group)
  while (lag > 0) {
    if (Date.now() > deadline) throw new Error(`${who} still has ${lag} records to take after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
    lag = bus.lag(EVENTS_TOPIC, group)
  }
}
