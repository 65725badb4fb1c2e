/**
 * The event bus: one small interface, two adapters (an on-disk log for one
 * machine, Kafka for a cluster). The same contract tests run against both.
 *
 * Semantics, whichever adapter:
 * - publish() resolves only once the messages are durable (fsynced locally, or
 *   acknowledged by all in-sync Kafka replicas). Ingest answers 2xx after that.
 * - A consumer group reads each partition in order. Its position (the committed
 *   offset) moves only after the batch handler resolves, so delivery is at least
 *   once: a crash between handling and committing replays the batch. Consumers
 *   must therefore be idempotent (the event writer is, on organisation and message id).
 * - Messages with the same key go to the same partition, so one user's events stay in order.
 */
export interface BusMessage {
  key: string
  value: string
  /**
   * The value as the publisher had it before JSON.stringify (for a record that
   * is JSON): the embedded bus hands it to consumers in the same process, which
   * then need not parse the value again. Consumers read it as they would
   * JSON.parse(value), never change it, and parse the value when it is absent
   * (a record read back from disk or from Kafka).
   */
  record?: unknown
}

export interface DeliveredMessage extends BusMessage {
  topic: string
  partition: number
  /** Offset within the partition, as a decimal string (Kafka's offsets are 64-bit). */
  offset: string
}

export interface ConsumeOptions {
  topic: string
  group: string
  /** Called with up to maxBatchSize messages; the offsets are committed when it resolves. */
  onBatch: (messages: DeliveredMessage[]) => Promise<void>
  maxBatchSize?: number
  /** How long to wait for a fuller batch once the first message of one is there. */
  maxWaitMs?: number
  /** Start from the earliest retained message when the group has no committed offset (default true). */
  fromBeginning?: boolean
}

export interface Consumer {
  /** Stops after the batch in hand is handled and committed. */
  stop(): Promise<void>
}

export interface Bus {
  readonly kind: 'disk' | 'kafka'
  publish(topic: string, messages: BusMessage[]): Promise<void>
  consume(options: ConsumeOptions): Promise<Consumer>
  close(): Promise<void>
}
