import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Bus, Consumer, EventStore, ViewSource } from '@fl0/stores'
import { createRangeSource, loadNetworks, type IpDataMode, type RangeSource } from './range-source.ts'
import { freeDataSignature, type Networks } from './networks/index.ts'
import { appliedSignature, recordSignature, rematchVisits } from './rematch.ts'
import { storeLinks, parseLinkRecord, type LinkRecord } from './links.ts'
import { foldVisits, hitOf, nextVersion, VISIT_COLUMNS, VISIT_GAP_MS, visitOfRow, visitRow, visitValuesJson, type Hit, type Visit, type VisitRow } from './visits.ts'
import { chTime, parseEventRecord } from '@fl0/contracts'
import { createDeadLetter, isolatePoison } from '../poison/index.ts'
import { KnownVisits } from './known-visits.ts'

export const IDENTITY_GROUP = 'identity'
/** The identity callback's links (ingest/src/callback.ts), consumed here. */
export const LINKS_TOPIC = 'identity-links'

export interface IdentityWorkerDeps {
  bus: Bus
  store: EventStore
  logger: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }
  topic?: string
  linksTopic?: string
  group?: string
  maxBatchSize?: number
  maxWaitMs?: number
  /** Where the ranges come from; by default ip_to_company, rechecked every 10 s, with the free data behind it. */
  ranges?: RangeSource
  /** Whether addresses are also looked up in the free data (FL0_IP_DATA); 'free' by default. */
  ipData?: IpDataMode
  /** Called after each batch of events is in identified_visits, with the number of records it held. */
  onVisits?: (count: number) => void
  /** Called after each batch of links is stored. */
  onLinks?: (count: number) => void
}

/**
 * The identity worker: its own consumer group on 'events', keeping
 * identified_visits (clickhouse/0003_identification.sql) as events are
 * written, and on 'identity-links', storing what the identity callback links.
 *
 * For each batch of events:
 * 1. each record becomes a hit (visitor, time, user id, puid, address, an
 *    identify's e-mail and name); aliases and unreadable records are left
 *    out (the event writer dead-letters what it cannot store);
 * 2. the visitors' stored visits within 30 minutes of the batch's hits are
 *    read (embedded, only those of visitors it does not know already:
 *    known-visits.ts), and the hits folded into them (visits.ts): new
 *    visits, grown ones, and visits a hit joined together;
 * 3. each visit written is matched against the ranges in force (a binary
 *    search in memory, ranges.ts), and a visit that changed its start gets a
 *    tombstone under its old key.
 * A replayed batch folds into the visits it made and writes nothing, so
 * at-least-once delivery needs no bookkeeping. Visits are folded per
 * visitor; two workers folding the same visitor at once (in Kafka, a
 * visitor's calls before and after identify can sit on two partitions) may
 * leave two visits where one belongs: "refresh sessions" rebuilds them
 * exactly from the stored events.
 */
export async function startIdentityWorker(deps: IdentityWorkerDeps): Promise<Consumer> {
  const { bus, store, logger } = deps
  const ranges = deps.ranges ?? createRangeSource(store, { ipData: deps.ipData })
  const group = deps.group ?? IDENTITY_GROUP
  const linksGroup = `${group}-links`
  // Embedded, the worker is its visitors' one writer (known-visits.ts); in a cluster it reads them every time.
  const known = store.kind === 'chdb' ? new KnownVisits() : undefined
  const events = await bus.consume({
    topic: deps.topic ?? 'events',
    group,
    // Up to 20,000 when behind: on chDB each call waits its turn, and with 5,000 a batch the worker
    // fell 95,000 events behind a 20,000 events/s ingest; a fifth of a second's worth when keeping up.
    maxBatchSize: deps.maxBatchSize ?? 20_000,
    maxWaitMs: deps.maxWaitMs ?? 200,
    // Each record's hit, made from the publisher's object as it is published (embedded), else from the value.
    view: readHit,
    onBatch: isolatePoison<Hit | undefined>(
      async function identifyVisits(messages) {
        const hits: Hit[] = []
        for (const m of messages) if (m.view) hits.push(m.view)
        await storeHits(store, await ranges.get(), hits, known)
        deps.onVisits?.(messages.length)
      },
      { store, consumer: group, deadLetter: createDeadLetter({ bus, store, consumer: group, logger }) },
    ),
  })
  const links = await bus.consume({
    topic: deps.linksTopic ?? LINKS_TOPIC,
    group: linksGroup,
    maxBatchSize: 5_000,
    maxWaitMs: 100,
    onBatch: isolatePoison(
      async function storeIdentityLinks(messages) {
        const records: LinkRecord[] = []
        for (const m of messages) {
          const link = parseLinkRecord(m.value)
          if (link) records.push(link)
          else logger.warn({ topic: m.topic, partition: m.partition, offset: m.offset }, 'identity link record skipped: unreadable')
        }
        await storeLinks(store, records)
        deps.onLinks?.(messages.length)
      },
      { store, consumer: linksGroup, deadLetter: createDeadLetter({ bus, store, consumer: linksGroup, logger }) },
    ),
  })
  // Stored visits matched against other data than this (an upgrade, FL0_IP_DATA changed, visits from before 0009)
  // are matched again, in the background: the consumers run meanwhile.
  let stopping = false
  const rematched = rematchIfStale(store, deps.ipData ?? 'free', logger, () => stopping).catch((err: Error) => logger.warn({ err: err.message }, 'visits not matched again with the network data in force'))
  return {
    async stop() {
      stopping = true
      await Promise.all([events.stop(), links.stop(), rematched])
    },
  }
}

async function rematchIfStale(store: EventStore, mode: IpDataMode, logger: IdentityWorkerDeps['logger'], stopped: () => boolean): Promise<void> {
  const signature = freeDataSignature(mode)
  if ((await appliedSignature(store)) === signature) return
  const started = Date.now()
  // Its own load of the ranges: the worker's source rechecks imports on its own clock, which this must not reset.
  const { read, written, complete } = await rematchVisits(store, await loadNetworks(store, mode), stopped)
  if (!complete) return
  await recordSignature(store, signature, written)
  logger.info({ signature, visits: read, rewritten: written, ms: Date.now() - started }, 'visits matched again with the network data in force')
}

function readHit(m: ViewSource): Hit | undefined {
  try {
    return hitOf((m.record ?? parseEventRecord(m.value)) as Parameters<typeof hitOf>[0])
  } catch {
    return undefined
  }
}

/**
 * Visitor ids per query on a ClickHouse server: a bound array stays well inside
 * its URL limit. chDB takes them in process, all in one query: one call fewer
 * waiting its turn (chDB runs one at a time).
 */
const VISITORS_PER_QUERY = 1_000

/**
 * Folds hits (any organisations, any visitors, any order) into identified_visits:
 * the worker's step 2 and 3, for tests and tools too.
 */
export async function storeHits(store: EventStore, networks: Networks, hits: readonly Hit[], known?: KnownVisits): Promise<number> {
  if (hits.length === 0) return 0
  known?.checkEpoch()
  const byOrg = new Map<string, Map<string, Hit[]>>()
  let latest = -Infinity
  for (const h of hits) {
    if (h.at > latest) latest = h.at
    let visitors = byOrg.get(h.orgId)
    if (!visitors) byOrg.set(h.orgId, (visitors = new Map()))
    let list = visitors.get(h.visitorId)
    if (!list) visitors.set(h.visitorId, (list = []))
    list.push(h)
  }
  known?.expire(latest)
  const rows: VisitRow[] = []
  const folded: Array<{ orgId: string; visitorId: string; write: Visit[]; replaced: Visit[]; latest: number }> = []
  const fold = (orgId: string, visitorId: string, stored: readonly Visit[], visitorHits: Hit[]) => {
    const { write, replaced } = foldVisits(stored, visitorHits)
    for (const v of write) rows.push(visitRow(v, networks, nextVersion()))
    for (const v of replaced) rows.push(visitRow(v, networks, nextVersion(), true))
    if (known && (write.length > 0 || replaced.length > 0)) folded.push({ orgId, visitorId, write, replaced, latest: spanOf(visitorHits).latest })
  }
  let folds = 0
  for (const [orgId, visitors] of byOrg) {
    if (known && !known.isCovered(orgId)) await startCovering(store, known, orgId)
    // Visitors whose visits the worker knows (or knows there are none of) are folded with them; the others' are read.
    const unknown: string[] = []
    for (const [id, visitorHits] of visitors) {
      if (++folds % TURN === 0) await nextTurn()
      const stored = known?.get(orgId, id, spanOf(visitorHits).earliest - VISIT_GAP_MS)
      if (stored) fold(orgId, id, stored, visitorHits)
      else unknown.push(id)
    }
    const perQuery = store.kind === 'http' ? VISITORS_PER_QUERY : unknown.length
    for (let i = 0; i < unknown.length; i += perQuery) {
      const chunk = unknown.slice(i, i + perQuery)
      const span = spanOf(chunk.flatMap((id) => visitors.get(id)!))
      // Kept visits must be all the visitor's from `from` on: the read then has no upper bound (later visits are rare: events that came early).
      const from = span.earliest - VISIT_GAP_MS
      const stored = await storedVisits(store, orgId, chunk, from, known ? undefined : span.latest + VISIT_GAP_MS)
      for (const id of chunk) {
        if (++folds % TURN === 0) await nextTurn()
        const visits = stored.get(id) ?? []
        known?.learn(orgId, id, from, visits)
        fold(orgId, id, visits, visitors.get(id)!)
      }
    }
  }
  try {
    // Each row as its values, without the names: 3–4 µs less CPU a row (bench/README.md, issue 19).
    const lines: string[] = new Array(rows.length)
    for (let i = 0; i < rows.length; i++) {
      if (i > 0 && i % TURN === 0) await nextTurn()
      lines[i] = visitValuesJson(rows[i]!)
    }
    if (lines.length > 0) await store.insertLines('identified_visits', lines, { columns: VISIT_COLUMNS, format: 'JSONCompactEachRow' })
  } catch (error) {
    // What was folded is not stored: the visits known may now be wrong, so none are.
    known?.clear()
    throw error
  }
  for (const f of folded) known!.wrote(f.orgId, f.visitorId, f.write, f.replaced, f.latest)
  return rows.length
}

/**
 * Visitors folded, or rows written, before the event loop may take requests:
 * a batch of 20,000 hits in one go held it about 200 ms (about 9 µs a hit),
 * which every request arriving meanwhile waited (the ingest's p99).
 */
const TURN = 1_000

/** The earliest and latest time of some hits. */
function spanOf(hits: readonly Hit[]): { earliest: number; latest: number } {
  let earliest = Infinity
  let latest = -Infinity
  for (const h of hits) {
    if (h.at < earliest) earliest = h.at
    if (h.at > latest) latest = h.at
  }
  return { earliest, latest }
}

/**
 * Where KnownVisits' coverage of an organisation starts: after the latest end
 * of its stored visits that ended by now. The visitors with a visit ending
 * after now (events stamped in the future) are learned first, so that their
 * visits need not push coverage into the future; past AHEAD_MAX of them,
 * the organisation is not covered (read as before).
 */
async function startCovering(store: EventStore, known: KnownVisits, orgId: string): Promise<void> {
  const now = chTime(new Date())
  const result = await store.client.query({
    query: `SELECT toUnixTimestamp64Milli(maxIf(ended_at, ended_at <= {now:DateTime64(3, 'UTC')})) AS latest,
                   groupUniqArrayIf(${AHEAD_MAX + 1})(visitor_id, ended_at > {now:DateTime64(3, 'UTC')}) AS ahead
            FROM identified_visits WHERE org_id = {org:String}`,
    query_params: { org: orgId, now },
    format: 'JSONEachRow',
  })
  const [row] = await result.json<{ latest: string | number; ahead: string[] }>()
  const from = Number(row?.latest ?? 0) + 1
  const ahead = row?.ahead ?? []
  if (ahead.length > AHEAD_MAX) return known.coverFrom(orgId, Infinity)
  if (ahead.length > 0) {
    const stored = await storedVisits(store, orgId, ahead, from, undefined)
    for (const id of ahead) known.learn(orgId, id, from, stored.get(id) ?? [])
  }
  known.coverFrom(orgId, from)
}

/** Visitors with visits in the future an organisation may have and still be covered. */
const AHEAD_MAX = 1_000

async function storedVisits(store: EventStore, orgId: string, visitorIds: string[], from: number, to: number | undefined): Promise<Map<string, Visit[]>> {
  const result = await store.client.query({
    query: `SELECT org_id, visitor_id, started_at, ended_at, anonymous_id, user_id, puid, ip, email, name
            FROM identified_visits FINAL
            WHERE org_id = {org:String} AND visitor_id IN {visitors:Array(String)}
              AND ended_at >= {from:DateTime64(3, 'UTC')}${to === undefined ? '' : ` AND started_at <= {to:DateTime64(3, 'UTC')}`}`,
    query_params: { org: orgId, visitors: visitorIds, from: chTime(new Date(from)), ...(to === undefined ? {} : { to: chTime(new Date(to)) }) },
    format: 'JSONEachRow',
  })
  const out = new Map<string, Visit[]>()
  for (const r of await result.json<Parameters<typeof visitOfRow>[0]>()) {
    const v = visitOfRow(r)
    const list = out.get(v.visitorId)
    if (list) list.push(v)
    else out.set(v.visitorId, [v])
  }
  return out
}
