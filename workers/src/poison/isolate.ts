import type { DeliveredMessage, EventStore } from '@fl0/stores'
import type { DeadLetter } from './dead-letter.ts'

export type BatchHandler<V = unknown> = (messages: DeliveredMessage<V>[]) => Promise<void>

export interface IsolateDeps {
  store: EventStore
  deadLetter: DeadLetter
  /** The consumer's name, written into each reason. */
  consumer: string
}

/**
 * Wraps a consumer's batch handler so that no record, whatever it holds, can
 * stop its partition.
 *
 * The bus retries a batch whose handler throws, for ever: right when the store
 * is down (nothing is lost, the consumer waits), wrong when one record in the
 * batch makes the handler fail every time (the partition stops for every
 * organisation behind it). So when a batch fails:
 * - if the store is unreachable, or the error is one ClickHouse gives for load
 *   or resources (too many parts, memory, timeouts), the batch is retried whole:
 *   the failure is not the records';
 * - otherwise the batch is split in halves, each handled on its own, down to
 *   the single records that fail by themselves, which are set aside to the
 *   dead-letter topic with the error as their reason, and the partition moves on.
 * Halves are handled in order, so a user's events stay in order. Handlers are
 * idempotent (every consumer's is: the bus delivers at least once), so the part
 * of a failed batch that was handled before it failed is handled again harmlessly.
 * A batch with one poison record among n costs about 2·log2(n) more calls.
 */
export function isolatePoison<V = unknown>(handle: BatchHandler<V>, deps: IsolateDeps): BatchHandler<V> {
  async function retryWholeUnlessPoison(error: unknown): Promise<void> {
    if (isTransient(error) || !(await reachable(deps.store))) throw error
  }

  async function bisect(messages: DeliveredMessage<V>[], error: unknown): Promise<void> {
    await retryWholeUnlessPoison(error)
    if (messages.length === 1) {
      await deps.deadLetter([{ message: messages[0], reason: `${deps.consumer}: ${describe(error)}` }])
      return
    }
    const middle = Math.ceil(messages.length / 2)
    for (const half of [messages.slice(0, middle), messages.slice(middle)]) {
      try {
        await handle(half)
      } catch (halfError) {
        await bisect(half, halfError)
      }
    }
  }

  return async function handleIsolatingPoison(messages) {
    try {
      await handle(messages)
    } catch (error) {
      await bisect(messages, error)
    }
  }
}

async function reachable(store: EventStore): Promise<boolean> {
  try {
    const result = await store.client.ping()
    return result.success
  } catch {
    return false
  }
}

/**
 * ClickHouse's errors that say "not now" rather than "not this": the same
 * records succeed once the server has merged, freed memory or come back.
 * Names as ClickHouse gives them in `type` (chDB's and the HTTP client's errors alike).
 */
const TRANSIENT_TYPES = new Set([
  'TOO_MANY_PARTS',
  'MEMORY_LIMIT_EXCEEDED',
  'TIMEOUT_EXCEEDED',
  'TOO_MANY_SIMULTANEOUS_QUERIES',
  'SOCKET_TIMEOUT',
  'NETWORK_ERROR',
  'ALL_CONNECTION_TRIES_FAILED',
  'NOT_ENOUGH_SPACE',
  'TABLE_IS_READ_ONLY',
  'QUERY_WAS_CANCELLED',
  'ABORTED',
  'KEEPER_EXCEPTION',
  'UNKNOWN_TABLE',
  'UNKNOWN_DATABASE',
  'CANNOT_ALLOCATE_MEMORY',
  'TOO_MANY_QUERIES',
  'SERVER_OVERLOADED',
])
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOSPC'])

export function isTransient(error: unknown): boolean {
  const e = error as { type?: unknown; code?: unknown; cause?: unknown }
  if (typeof e?.type === 'string' && TRANSIENT_TYPES.has(e.type)) return true
  if (typeof e?.code === 'string' && TRANSIENT_CODES.has(e.code)) return true
  return e?.cause !== undefined && e.cause !== error ? isTransient(e.cause) : false
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text
}
