import { setImmediate as nextTurn } from 'node:timers/promises'
import { EVENT_ROW_COLUMNS, eventRecordForm as formOf, type EventRecordForm } from '@fl0/contracts'
import type { Bus, Consumer, DeliveredMessage, EventStore, ViewSource } from '@fl0/stores'
import { createDeadLetter, isolatePoison, isTransient, type DeadLetter, type PoisonRecord } from '../poison/index.ts'
import { checkRecord, readHead, readHeadBytes, type RecordHead } from './record.ts'
import { existingMessageIds } from './existing-message-ids.ts'
import { createStoredKeys, type KeyHash, type StoredKeys } from './stored-keys.ts'

export { DEAD_LETTER_TOPIC } from '../poison/index.ts'
export const EVENT_WRITER_GROUP = 'event-writer'

export interface EventWriterDeps {
  bus: Bus
  store: EventStore
  logger: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }
  topic?: string
  group?: string
  /** Inserts are batched by size and by time: up to this many events… */
  maxBatchSize?: number
  /** …or whatever arrived within this long of the first one. */
  maxWaitMs?: number
  /** Called after each batch is stored, with the number of rows inserted (tests, lag metrics). */
  onStored?: (count: number) => void
}

type Message = DeliveredMessage<RecordHead | undefined>

interface Row {
  head: RecordHead
  /** The record as ClickHouse takes it: its bytes off the bus, or its text re-serialised by the full check. */
  line: Uint8Array | string
  message: Message
  /** Its key hashed for the filter of stored keys, once: asked before the insert, added after. */
  key?: KeyHash
}

/**
 * The writer's view of a record (ConsumeOptions.view): its organisation and
 * message id, from the publisher's object when the bus has it, else read off
 * the front of its JSON; undefined when neither can be read (then the full check).
 */
function headOf(m: ViewSource): RecordHead | undefined {
  const r = m.record as { org_id?: unknown; message_id?: unknown } | undefined
  if (r !== undefined) {
    return typeof r.org_id === 'string' && r.org_id !== '' && typeof r.message_id === 'string' && r.message_id !== ''
      ? { orgId: r.org_id, messageId: r.message_id }
      : undefined
  }
  // Read back from disk or Kafka: the head off the bytes, not the whole value decoded (which the message would then keep).
  return (m.bytes && readHeadBytes(m.bytes)) || readHead(m.value)
}

/**
 * The event writer: consumes the bus and inserts into `events` in batches.
 *
 * Steps, in this order because each relies on the one before:
 * 1. read each record's head (org, message id, time); a record whose head cannot
 *    be read gets the full check, and poison goes to the dead-letter topic with
 *    its reason instead of blocking the partition;
 * 2. dedupe within the batch on (org, message id), keeping the first;
 * 3. drop ids `events` already holds (event_ids: a replay after a crash between
 *    insert and offset commit, or a client retry, whatever its timestamp);
 * 4. insert the records' JSON as it came off the bus (no parse, no re-serialise):
 *    rows (event-row.ts) by position, records written as objects by their keys;
 *    if ClickHouse refuses the batch, find the poison with the full check, send it
 *    to the dead-letter topic and insert the rest;
 * 5. only then does the bus commit the batch's offsets.
 * A failure none of that explains (a record ClickHouse refuses for a reason the
 * check does not know) is isolated by isolatePoison: the batch is split until the
 * failing record is alone, and that one is set aside. Only a store that is down
 * holds the partition, and then it waits rather than loses anything.
 * One organisation's messages for one user share a partition, and a partition has
 * one consumer at a time, so steps 3 and 4 do not race with another writer.
 */
export async function startEventWriter(deps: EventWriterDeps): Promise<Consumer> {
  const { bus, store, logger } = deps
  const group = deps.group ?? EVENT_WRITER_GROUP
  const deadLetter = createDeadLetter({ bus, store, consumer: group, logger })
  // Records already set aside: isolatePoison may hand writeEvents a failed batch again, in halves, and they are not sent twice.
  const setAside = new WeakSet<DeliveredMessage>()
  // In embedded mode only: there this writer is the one process that stores events (stored-keys.ts).
  const stored = store.kind === 'chdb' ? createStoredKeys(store, logger) : undefined
  async function writeEvents(messages: Message[]) {
    const rows: Row[] = []
    const poison: PoisonRecord[] = []
    for (let i = 0; i < messages.length; i++) {
      if (i > 0 && i % TURN === 0) await nextTurn()
      const message = messages[i]!
      // Set aside already, when the batch comes again (a part of it failed after another dead-lettered its poison).
      if (setAside.has(message)) continue
      const head = message.view
      if (head) {
        rows.push({ head, line: message.bytes, message })
        continue
      }
      const checked = checkRecord(message.value)
      if (checked.ok) rows.push({ head: checked.head, line: checked.value, message })
      else if (!setAside.has(message)) poison.push({ message, reason: checked.reason })
    }
    if (poison.length > 0) {
      await deadLetter(poison)
      for (const p of poison) setAside.add(p.message)
    }
    const fresh = await withoutDuplicates(store, rows, stored)
    let inserted = 0
    // A batch holds one insert per form of record (event-row.ts: rows, and objects written before them), and a large
    // one is inserted in parts side by side, one a write session of the store (EventStore.insertSessions).
    for (const { form, rows: group } of byForm(fresh)) {
      const parts = await Promise.allSettled(
        partsOf(group, store.insertSessions).map(async (part) => {
          const n = await insertOrIsolatePoison(store, part, form, deadLetter, setAside)
          // Added after each insert, so that a batch that fails at another part comes again without this one.
          // Poison set aside is added too: a key the filter holds in excess is only looked up.
          if (stored) for (const row of part) stored.add(row.key!)
          return n
        }),
      )
      for (const p of parts) if (p.status === 'fulfilled') inserted += p.value
      // A transient error first, if a part had one: isolatePoison would split the batch for the other's (the bus retries it whole).
      const failed = parts.filter((p): p is PromiseRejectedResult => p.status === 'rejected').map((p) => p.reason as unknown)
      if (failed.length > 0) throw failed.find(isTransient) ?? failed[0]
    }
    deps.onStored?.(inserted)
  }
  return bus.consume({
    topic: deps.topic ?? 'events',
    group,
    // Up to 20,000 events when behind (an insert has a fixed cost besides its rows': bench/README.md,
    // issue 19); half a second's worth when keeping up, so that events show soon.
    maxBatchSize: deps.maxBatchSize ?? 20_000,
    maxWaitMs: deps.maxWaitMs ?? 500,
    view: headOf,
    onBatch: isolatePoison(writeEvents, { store, deadLetter, consumer: group }),
  })
}

/**
 * Rows a batch's loops handle before they let the event loop take requests: a
 * batch of 20,000 in one go held it 100–190 ms, which every request arriving
 * meanwhile waited (the ingest's p99).
 */
const TURN = 2_000

async function withoutDuplicates(store: EventStore, rows: Row[], stored: StoredKeys | undefined): Promise<Row[]> {
  const byOrg = new Map<string, Map<string, Row>>()
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % TURN === 0) await nextTurn()
    const row = rows[i]!
    let unique = byOrg.get(row.head.orgId)
    if (!unique) byOrg.set(row.head.orgId, (unique = new Map()))
    if (!unique.has(row.head.messageId)) unique.set(row.head.messageId, row)
  }
  const out: Row[] = []
  for (const [orgId, unique] of byOrg) {
    // Only the ids the filter of stored keys cannot clear are looked up (stored-keys.ts): about 1 % of new ones.
    const ask: string[] = []
    let n = 0
    for (const row of unique.values()) {
      if (++n % TURN === 0) await nextTurn()
      if (stored) row.key = stored.hash(orgId, row.head.messageId)
      if (!stored || stored.mayHold(row.key!)) ask.push(row.head.messageId)
    }
    const existing = await existingMessageIds(store, orgId, ask)
    for (const row of unique.values()) if (!existing.has(row.head.messageId)) out.push(row)
  }
  return out
}

/**
 * Rows an insert takes at the least when a batch is split into parts: an
 * insert has a fixed cost besides its rows' (bench/README.md, issue 19), and
 * each makes a part that ClickHouse merges later.
 */
const MIN_PART = 5_000

/** The rows in at most `sessions` parts of about equal size, each of at least MIN_PART rows (one part when fewer). */
function partsOf<T>(rows: T[], sessions: number): T[][] {
  if (rows.length === 0) return []
  const count = Math.max(1, Math.min(sessions >= 1 ? Math.floor(sessions) : 1, Math.floor(rows.length / MIN_PART)))
  const size = Math.ceil(rows.length / count)
  const parts: T[][] = []
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size))
  return parts
}

/** The rows of one form and the rows of the other, each group in the batch's order; only the groups that have rows. */
function byForm(rows: Row[]): Array<{ form: EventRecordForm; rows: Row[] }> {
  const groups = { row: [] as Row[], object: [] as Row[] }
  for (const row of rows) groups[formOf(row.line)].push(row)
  return (['row', 'object'] as const).map((form) => ({ form, rows: groups[form] })).filter((group) => group.rows.length > 0)
}

/**
 * Inserts rows of one form in one call: a batch ClickHouse refuses has its
 * poison found and set aside, and the rest of it inserted. A batch that fails
 * for another reason throws and comes again.
 */
async function insertOrIsolatePoison(store: EventStore, rows: Row[], form: EventRecordForm, deadLetter: DeadLetter, setAside: WeakSet<DeliveredMessage>): Promise<number> {
  if (rows.length === 0) return 0
  try {
    await insertEventLines(store, rows.map((r) => r.line), form)
    return rows.length
  } catch (error) {
    const good: string[] = []
    const bad: PoisonRecord[] = []
    for (const row of rows) {
      const checked = checkRecord(row.message.value)
      if (checked.ok) good.push(checked.value)
      else bad.push({ message: row.message, reason: checked.reason })
    }
    // Nothing the check knows is wrong: the store is down, or ClickHouse refuses a record for
    // another reason. Throw: isolatePoison tells the two apart.
    if (bad.length === 0) throw error
    await deadLetter(bad)
    for (const b of bad) setAside.add(b.message)
    // The full check gives every good record back as an object.
    if (good.length > 0) await insertEventLines(store, good, 'object')
    return good.length
  }
}

/** Bus records of one form into `events`, as the writer inserts them: rows by position (the columns named), objects by their keys. Benchmarks call it too. */
export async function insertEventLines(store: EventStore, lines: ReadonlyArray<Uint8Array | string>, form: EventRecordForm): Promise<void> {
  // Events of any month since 1900 may share a batch (an import of years of history);
  // ClickHouse's guard of 100 partitions per insert would refuse such a batch for ever.
  const settings = { input_format_skip_unknown_fields: 1, max_partitions_per_insert_block: 0 }
  if (form === 'row') await store.insertLines('events', lines, { format: 'JSONCompactEachRow', columns: EVENT_ROW_COLUMNS, settings })
  else await store.insertLines('events', lines, { settings })
}
