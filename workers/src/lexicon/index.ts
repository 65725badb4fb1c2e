import type { Bus, Consumer, DeliveredMessage, EventStore } from '@fl0/stores'
import { createDeadLetter, isolatePoison } from '../poison/index.ts'
import { eventRecordForm, parseEventRecord } from '@fl0/contracts'
import { recordKey } from './shape.ts'

export const LEXICON_GROUP = 'lexicon'

export interface LexiconWorkerDeps {
  bus: Bus
  store: EventStore
  logger: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }
  topic?: string
  group?: string
  maxBatchSize?: number
  /**
   * How long a batch waits to fill once its first record is there. Part of the
   * lexicon's delay (an event is to be visible within 2 s of its ingest), so it
   * is short: a batch here costs one small insert.
   */
  maxWaitMs?: number
  /** Called after each batch is in the dictionary, with the number of records it held (tests, the delay benchmark). */
  onIndexed?: (count: number) => void
  /** How many record shapes the worker remembers having sent (see shape.ts); past this it forgets them all and starts again. */
  maxShapes?: number
}

/**
 * The lexicon worker: its own consumer group on 'events', keeping the data
 * dictionary (clickhouse/0002_lexicon.sql) current.
 *
 * It hands records, as they came off the bus, to ClickHouse's lexicon_input;
 * the migration's materialised views turn them into event names, property
 * paths and traits with their inferred types. So:
 * - the types are the ones ClickHouse infers when the event writer stores the
 *   same record, which is what the metric engine reads;
 * - a batch delivered twice writes the same set rows again, which readers
 *   cannot tell apart: at-least-once delivery needs no bookkeeping here.
 * Only records of a shape not sent before go (shape.ts): ClickHouse's JSON
 * inference costs about 0.1 ms a record, as much as storing it in `events`,
 * which a stream of tens of thousands a second cannot pay twice on two cores;
 * a JSON.parse and a walk of the keys cost a few microseconds. The memory of
 * shapes is this process's: after a restart the first records of each shape
 * go again, which changes nothing.
 * Volumes are not the worker's: they are counted from `events` when read.
 *
 * A record ClickHouse cannot parse is skipped (input_format_allow_errors_ratio):
 * the event writer sends it to the dead-letter topic and it never reaches
 * `events`, so the dictionary has nothing to learn from it. Any other failure
 * throws: the bus retries the batch while the store is down, and
 * isolatePoison sets aside a record that fails on its own (workers/src/poison).
 */
export async function startLexiconWorker(deps: LexiconWorkerDeps): Promise<Consumer> {
  const { bus, store, logger } = deps
  const group = deps.group ?? LEXICON_GROUP
  const sent = new Set<string>()
  const maxShapes = deps.maxShapes ?? 50_000
  async function indexEvents(messages: DeliveredMessage<string | undefined>[]) {
    const fresh = new Map<string, Uint8Array>()
    for (const m of messages) {
      const key = m.view
      if (key !== undefined && !sent.has(key) && !fresh.has(key)) fresh.set(key, m.bytes)
    }
    await indexRecords(store, [...fresh.values()])
    // Remembered only once stored: a failed batch is retried whole.
    if (sent.size + fresh.size > maxShapes) sent.clear()
    for (const key of fresh.keys()) sent.add(key)
    deps.onIndexed?.(messages.length)
  }
  return bus.consume({
    topic: deps.topic ?? 'events',
    group,
    maxBatchSize: deps.maxBatchSize ?? 5_000,
    maxWaitMs: deps.maxWaitMs ?? 100,
    // Each record's shape key, made from the publisher's object as it is published (embedded), else from the value;
    // none for a shape already in the dictionary, which nearly every record repeats: the bus then keeps no key of its
    // own for each record while the worker gets to it (the keys were a sixth of what the garbage collector copied).
    view: (m) => {
      const key = recordKey(m.value, m.record)
      return key === undefined || sent.has(key) ? undefined : key
    },
    onBatch: isolatePoison(indexEvents, { store, consumer: group, deadLetter: createDeadLetter({ bus, store, consumer: group, logger }) }),
  })
}

/**
 * Puts stored-event records (bus records: rows or objects, event-row.ts) into
 * the dictionary: what the worker does with each batch, for tests and tools
 * that fill the dictionary without a bus.
 */
export async function indexRecords(store: EventStore, records: ReadonlyArray<string | Uint8Array>): Promise<void> {
  if (records.length === 0) return
  // lexicon_input holds five of a row's columns: a row becomes an object of them. Only records of a shape new to
  // the dictionary come here, a handful a batch, so their parse costs nothing that shows.
  const lines: Array<string | Uint8Array> = []
  for (const r of records) {
    const line = eventRecordForm(r) === 'row' ? lexiconLine(r) : r
    if (line !== undefined) lines.push(line)
  }
  // Settings scoped to this insert (never the session's): errors allowed here would let the event writer drop rows without a word.
  await store.insertLines('lexicon_input', lines, {
    columns: ['org_id', 'type', 'event', 'properties', 'traits'],
    settings: { input_format_skip_unknown_fields: 1, input_format_allow_errors_ratio: 1 },
  })
}

/**
 * A row's columns that lexicon_input holds, as an object line; undefined for one
 * that does not parse or is no event's row (the event writer dead-letters it). Not handed over as it
 * is: JSONEachRow would read a line that opens with '[' as a list of rows.
 */
function lexiconLine(record: string | Uint8Array): string | undefined {
  try {
    const e = parseEventRecord(typeof record === 'string' ? record : Buffer.from(record.buffer, record.byteOffset, record.byteLength).toString('utf8')) as Record<string, unknown>
    if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof e.org_id !== 'string') return undefined
    return JSON.stringify({ org_id: e.org_id, type: e.type, event: e.event, properties: e.properties, traits: e.traits })
  } catch {
    return undefined
  }
}
