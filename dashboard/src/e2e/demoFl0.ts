import { createDemo, ensureDemoOrganisation, sendMessages, type Demo, type DemoOptions, type DemoOrganisation } from '@fl0/demo'
import { startEmptyFl0, type EmptyTestFl0 } from '@fl0/server/testing'
import type { Page } from 'playwright-core'
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

/** Signs up the first account (Ada Lovelace, staff): it adopts the demo organisation and lands on its People page. */
export async function signUpToDemo(page: Page, fl0: DemoFl0) {
  await signUp(page, fl0.url, 'Ada Lovelace', 'ada@example.com')
  await page.waitForURL(/\/organizations\/demo\/people$/)
}

/** Waits until the lexicon, which its worker builds in its own consumer group, has every track event name the writer stored. */
export async function waitForLexicon(fl0: DemoFl0) {
  const org = fl0.organisation.org.id
  const [{ n }] = await fl0.query<{ n: string }>("SELECT uniqExact(event) AS n FROM events WHERE org_id = {org:String} AND type = 'track' AND event != ''", { org })
  await fl0.waitForCount('SELECT uniqExact(event) AS n FROM lexicon_events WHERE org_id = {org:String}', { org }, Number(n))
}
