import type { Bus, Consumer, DeliveredMessage, EventStore } from '@fl0/stores'
import type { IngestedEvent } from '@fl0/contracts'
import { parseEvent, toRow, type EventRow } from './row.ts'
import { existingMessageIds } from './existing-message-ids.ts'

export const DEAD_LETTER_TOPIC = 'events.dlq'

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
  /** Called after each batch is stored (tests and lag metrics). */
  onStored?: (count: number) => void
}

/**
 * The event writer: consumes the bus and inserts into `events` in batches.
 *
 * Steps, in this order because each relies on the one before:
 * 1. parse: poison messages go to the dead-letter topic with their reason and never
 *    block the batch (they would otherwise be retried forever);
 * 2. dedupe within the batch on (org, message id), keeping the first;
 * 3. drop ids `events` already holds (a replay after a crash between insert and
 *    offset commit, or a client retry);
 * 4. insert; only then does the bus commit the batch's offsets.
 * Because one organisation's messages for one user share a partition, and each
 * partition has one consumer at a time, steps 3 and 4 do not race.
 */
export async function startEventWriter(deps: EventWriterDeps): Promise<Consumer> {
  const { bus, store, logger } = deps
  return bus.consume({
    topic: deps.topic ?? 'events',
    group: deps.group ?? 'event-writer',
    maxBatchSize: deps.maxBatchSize ?? 10_000,
    maxWaitMs: deps.maxWaitMs ?? 500,
    onBatch: async function writeEvents(messages) {
      const events = await parseOrDeadLetter(bus, messages, logger)
      const rows = await withoutDuplicates(store, events)
      if (rows.length > 0) {
        await store.client.insert({
          table: 'events',
          values: rows,
          format: 'JSONEachRow',
          clickhouse_settings: { input_format_skip_unknown_fields: 1 },
        })
      }
      deps.onStored?.(rows.length)
    },
  })
}

async function parseOrDeadLetter(bus: Bus, messages: DeliveredMessage[], logger: EventWriterDeps['logger']): Promise<IngestedEvent[]> {
  const events: IngestedEvent[] = []
  const dead: Array<{ key: string; value: string }> = []
  for (const m of messages) {
    const parsed = parseEvent(m.value)
    if (parsed.ok) events.push(parsed.event)
    else dead.push({ key: m.key, value: JSON.stringify({ reason: parsed.reason, topic: m.topic, partition: m.partition, offset: m.offset, value: m.value }) })
  }
  if (dead.length > 0) {
    logger.warn({ count: dead.length }, 'poison messages sent to the dead-letter topic')
    await bus.publish(DEAD_LETTER_TOPIC, dead)
  }
  return events
}

async function withoutDuplicates(store: EventStore, events: IngestedEvent[]): Promise<EventRow[]> {
  const byOrg = new Map<string, Map<string, IngestedEvent>>()
  for (const e of events) {
    let m = byOrg.get(e.orgId)
    if (!m) byOrg.set(e.orgId, (m = new Map()))
    if (!m.has(e.messageId)) m.set(e.messageId, e)
  }
  const rows: EventRow[] = []
  for (const [orgId, unique] of byOrg) {
    let min = Infinity
    let max = -Infinity
    for (const e of unique.values()) {
      const t = Date.parse(e.timestamp)
      if (t < min) min = t
      if (t > max) max = t
    }
    const existing = await existingMessageIds(store, orgId, [...unique.keys()], min, max)
    for (const e of unique.values()) if (!existing.has(e.messageId)) rows.push(toRow(e))
  }
  return rows
}
