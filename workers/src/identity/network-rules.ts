import type { Consumer, EventStore } from '@fl0/stores'
import { NETWORK_RULES_SQL, orgParams } from '@fl0/query'
import { insert, select } from '../jobs/store.ts'
import { startPeriodic } from '../periodic.ts'

/**
 * The free data's organisation-wide rules (shared addresses, wide networks,
 * networks' learned domains: query/src/identification/resolution.ts,
 * NETWORK_RULES_SQL), kept in network_rules (clickhouse/0017_network_rules.sql)
 * so that a resolution reads a few rows instead of all of the organisation's
 * visits. They change only as the visits and the bots among them do: a pass
 * reads each organisation's fingerprint (its visit rows' count and versions,
 * its bots' number: bots are never unmarked) and works out again the rules of those
 * whose fingerprint changed, writing only the rows that changed.
 */
interface RuleRow {
  org_id: string
  rule: string
  address: string
  day: string
  ip_asn: number
  domain: string
}

export interface NetworkRulesChange {
  org: string
  /** Rules that hold now and did not, or whose domain changed. */
  written: number
  /** Rules that no longer hold (a tombstone each). */
  removed: number
  /** The time the organisation's rules took to work out and write. */
  ms: number
}

const keyOf = (r: RuleRow) => `${r.rule}\t${r.address}\t${r.day}\t${r.ip_asn}`

/**
 * A row's version: microseconds of now, and above every version stored for
 * the organisation, so that what a pass writes wins over what any process
 * wrote before it (in a cluster, one whose clock runs ahead).
 */
const versionOf = (now: Date, storedMax: number) => Math.max(now.getTime() * 1000, storedMax + 1)

/**
 * One working-out of an organisation's rules at a time in this process (the
 * worker's pass and a refresh job's): a working-out that read older visits
 * must not write after one that read newer ones.
 */
const running = new Map<string, Promise<unknown>>()
async function exclusive<T>(org: string, work: () => Promise<T>): Promise<T> {
  const before = running.get(org) ?? Promise.resolve()
  const mine = before.catch(() => {}).then(work)
  running.set(org, mine)
  try {
    return await mine
  } finally {
    if (running.get(org) === mine) running.delete(org)
  }
}

/** Works out the rules of these organisations from their visits as they are now, and writes what changed. */
export async function refreshNetworkRules(store: EventStore, orgs: readonly string[], now = new Date()): Promise<NetworkRulesChange[]> {
  const changes: NetworkRulesChange[] = []
  for (const org of orgs) changes.push(await exclusive(org, () => refreshOrg(store, org, now)))
  return changes
}

async function refreshOrg(store: EventStore, org: string, now: Date): Promise<NetworkRulesChange> {
  const started = performance.now()
  const [fresh, stored, [max]] = await Promise.all([
    select<RuleRow>(store.client, NETWORK_RULES_SQL, orgParams(org)),
    select<RuleRow>(store.client, 'SELECT org_id, rule, address, day, ip_asn, domain FROM network_rules FINAL WHERE org_id = {org:String}', { org }),
    select<{ version: string }>(store.client, 'SELECT max(version) AS version FROM network_rules WHERE org_id = {org:String}', { org }),
  ])
  const version = versionOf(now, Number(max?.version ?? 0))
  const before = new Map(stored.map((r) => [keyOf(r), r]))
  const written: Array<RuleRow & { version: number; is_deleted: number }> = []
  for (const r of fresh) {
    const old = before.get(keyOf(r))
    before.delete(keyOf(r))
    if (!old || old.domain !== r.domain) written.push({ ...r, version, is_deleted: 0 })
  }
  // Tombstones first: were a key ever both (it cannot be, by keyOf), the rule that holds would be the last row.
  const removed = [...before.values()].map((r) => ({ ...r, version, is_deleted: 1 }))
  await insert(store.client, 'network_rules', [...removed, ...written])
  return { org, written: written.length, removed: removed.length, ms: performance.now() - started }
}

/**
 * Each organisation with visits, bots or rules, and what its rules depend on
 * as one string: its visits and its bots (an organisation with rules only,
 * whose visits are gone, has an empty one, and is worked out once more).
 */
const FINGERPRINTS_SQL = `
  SELECT org_id, arrayStringConcat(arraySort(arrayFilter(p -> p != '', groupArray(part))), ' ') AS fingerprint FROM (
    SELECT org_id, concat('visits ', toString(count()), ' ', toString(sum(version))) AS part FROM identified_visits GROUP BY org_id
    UNION ALL
    SELECT org_id, concat('bots ', toString(uniqExact(anonymous_id))) AS part FROM bot_visitors GROUP BY org_id
    UNION ALL
    SELECT DISTINCT org_id, '' AS part FROM network_rules
  )
  GROUP BY org_id`

/**
 * Between two workings-out of one organisation's rules, at least this many
 * times what the last took: an organisation whose visits change all the time
 * (every batch of the identity worker) has its rules worked out at most 1 %
 * of the time, about every 50 s at 1.3 million visits (0.5 s each). At 30
 * times, an ingest of 10,000 events/s into that organisation cost about 4 µs
 * of CPU an event more (bench/README.md).
 */
export const BUSY_FACTOR = 100
/** The rules of the wide networks read the last 30 days: worked out again at least this often, changed or not. */
export const MAX_AGE_MS = 60 * 60_000

export interface NetworkRulesWorkerDeps {
  /** The store it reads and writes (the workers' background store). */
  store: EventStore
  logger: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }
  /** Between passes; 5 s by default. A pass that finds nothing changed reads one small aggregate. */
  intervalMs?: number
  now?: () => Date
  /** Called after each pass (tests), with the organisations whose rules it worked out. */
  onPass?: (changes: NetworkRulesChange[]) => void
}

/**
 * The organisations' rules, worked out again as their visits change: what a
 * pass decides is due. Its memory is this process's: a start works out every
 * organisation's rules once. In a cluster every workers process keeps them
 * (each works out every organisation's); their writes are the same rows, the
 * latest winning.
 */
export class NetworkRulesKeeper {
  private readonly known = new Map<string, { fingerprint: string; at: number; ms: number }>()
  /** What the last pass's read of the fingerprints took (it grows with the visits stored: 20 ms at 1.3 million). */
  fingerprintMs = 0
  constructor(
    private readonly store: EventStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async pass(): Promise<NetworkRulesChange[]> {
    const at = this.now()
    const started = performance.now()
    const fingerprints = await select<{ org_id: string; fingerprint: string }>(this.store.client, FINGERPRINTS_SQL)
    this.fingerprintMs = performance.now() - started
    const due = fingerprints.filter(({ org_id, fingerprint }) => {
      const last = this.known.get(org_id)
      if (!last) return true
      const since = at.getTime() - last.at
      return since >= MAX_AGE_MS || (last.fingerprint !== fingerprint && since >= BUSY_FACTOR * last.ms)
    })
    const changes = await refreshNetworkRules(this.store, due.map((f) => f.org_id), at)
    for (const [i, change] of changes.entries()) this.known.set(change.org, { fingerprint: due[i]!.fingerprint, at: at.getTime(), ms: change.ms })
    return changes
  }
}

/**
 * The network rules worker: a pass every `intervalMs` (NetworkRulesKeeper),
 * so that the resolution's rules follow the visits within seconds; less
 * often where reading the fingerprints takes more than 1 % of that time (a
 * store of many millions of visits), so that an idle fl0 spends at most that.
 */
export function startNetworkRulesWorker(deps: NetworkRulesWorkerDeps): Consumer {
  const keeper = new NetworkRulesKeeper(deps.store, deps.now)
  const intervalMs = deps.intervalMs ?? 5_000
  return startPeriodic(
    async () => {
      const changes = await keeper.pass()
      const changed = changes.filter((c) => c.written + c.removed > 0)
      if (changed.length > 0) deps.logger.info({ changed }, 'network rules: rules changed')
      deps.onPass?.(changes)
      return Math.max(intervalMs, BUSY_FACTOR * keeper.fingerprintMs)
    },
    intervalMs,
    (err) => deps.logger.warn({ err }, 'network rules: pass failed; trying again'),
  )
}
