import { chTime } from '@fl0/contracts'
import type { Bus, DeliveredMessage, EventStore } from '@fl0/stores'

/** Where every consumer sets aside the records it cannot process: one topic, each record with its reason. */
export const DEAD_LETTER_TOPIC = 'events.dlq'

export interface PoisonRecord {
  message: DeliveredMessage
  reason: string
}

export type DeadLetter = (items: PoisonRecord[]) => Promise<void>

export interface DeadLetterDeps {
  bus: Bus
  store: EventStore
  /** The consumer group that sets the records aside: named in each dead letter and counted apart. */
  consumer: string
  logger: { warn: (o: object, m: string) => void }
  now?: () => Date
}

const STORED_VALUE_BYTES = 64 * 1024

/**
 * Sets records aside: the whole record goes to the dead-letter topic with its
 * reason (for a replay once the cause is fixed), a row to `dead_letters`
 * (clickhouse/0006) for operators and the admin summary, and a warning to the
 * log. Both writes resolve before the consumer's offset moves past the
 * records, so none is lost: a failure here throws and the batch is retried.
 */
export function createDeadLetter(deps: DeadLetterDeps): DeadLetter {
  const now = deps.now ?? (() => new Date())
  return async function deadLetter(items) {
    if (items.length === 0) return
    const at = now()
    deps.logger.warn(
      { consumer: deps.consumer, count: items.length, reasons: [...new Set(items.map((i) => i.reason))].slice(0, 10) },
      'records set aside to the dead-letter topic',
    )
    await deps.bus.publish(
      DEAD_LETTER_TOPIC,
      items.map(({ message: m, reason }) => ({
        key: m.key,
        value: JSON.stringify({ reason, consumer: deps.consumer, topic: m.topic, partition: m.partition, offset: m.offset, at: at.toISOString(), value: m.value }),
      })),
    )
    await deps.store.client.insert({
      table: 'dead_letters',
      format: 'JSONEachRow',
      values: items.map(({ message: m, reason }) => ({
        at: chTime(at),
        consumer: deps.consumer,
        topic: m.topic,
        partition: m.partition,
        offset: m.offset,
        org_id: orgOfKey(m.key),
        reason,
        key: m.key,
        value: truncate(m.value),
        value_bytes: Buffer.byteLength(m.value),
      })),
    })
  }
}

/** Events are keyed `{org}:{user}` (ingest/src/app.ts); any other key names no organisation. */
function orgOfKey(key: string): string {
  const colon = key.indexOf(':')
  return colon > 0 ? key.slice(0, colon) : ''
}

function truncate(value: string): string {
  if (value.length * 3 <= STORED_VALUE_BYTES) return value
  const bytes = Buffer.from(value)
  return bytes.length <= STORED_VALUE_BYTES ? value : bytes.subarray(0, STORED_VALUE_BYTES).toString('utf8')
}
