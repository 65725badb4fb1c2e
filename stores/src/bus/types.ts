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
   * The object the value was serialised from, as the publisher had it (for a
   * record that is JSON: the ingest's IngestedEvent, whose value is its row). In the embedded bus, the consumers' views (ConsumeOptions.view)
   * are made from it as it is published, so that no consumer parses the value
   * again; the object itself is not kept. Never read from Kafka.
   */
  record?: unknown
}

/** What a consumer's view is made from: the message, with the publisher's object while the bus has it. */
export interface ViewSource {
  readonly key: string
  /** The value as text (decoded when first read, where the bus holds bytes). */
  readonly value: string
  /** The publisher's object, when the view is made in the process that published it; else undefined. */
  readonly record?: unknown
  /** The value's UTF-8 bytes, when the view is made on delivery: a view that needs only part of the value can read it without decoding it all. */
  readonly bytes?: Uint8Array
}

export interface DeliveredMessage<V = unknown> {
  readonly topic: string
  readonly partition: number
  /** Offset within the partition, as a decimal string (Kafka's offsets are 64-bit). */
  readonly offset: string
  readonly key: string
  /** The value as text, decoded from `bytes` when first read. */
  readonly value: string
  /** The value's UTF-8 bytes, as the bus holds them: what a consumer that passes the value on (to ClickHouse) hands over. */
  readonly bytes: Uint8Array
  /** The consumer's view of the message (ConsumeOptions.view); undefined when it has none. */
  readonly view: V | undefined
}

export interface ConsumeOptions<V = unknown> {
  topic: string
  group: string
  /** Called with up to maxBatchSize messages; the offsets are committed when it resolves. */
  onBatch: (messages: DeliveredMessage<V>[]) => Promise<void>
  maxBatchSize?: number
  /** How long to wait for a fuller batch once the first message of one is there. */
  maxWaitMs?: number
  /** Start from the earliest retained message when the group has no committed offset (default true). */
  fromBeginning?: boolean
  /**
   * What this consumer reads of a message, made once per message: in the
   * embedded bus when it is published (from the publisher's object, if any),
   * so that a consumer keeping up parses nothing and the bus keeps neither the
   * object nor the text, only the bytes it wrote and the small views; else
   * (read back from disk, from Kafka) as it is delivered, from the value.
   * It must not throw (a view that throws is taken as undefined) and must
   * not change the record.
   */
  view?: (message: ViewSource) => V
}

export interface Consumer {
  /** Stops after the batch in hand is handled and committed. */
  stop(): Promise<void>
}

export interface Bus {
  readonly kind: 'disk' | 'kafka'
  publish(topic: string, messages: BusMessage[]): Promise<void>
  consume<V>(options: ConsumeOptions<V>): Promise<Consumer>
  /**
   * Why the bus takes no more events until fl0 restarts, if it does not (the
   * embedded log after a failed fdatasync: `/healthz` then answers 503, so that
   * a liveness probe can restart fl0 rather than let every event be refused). A bus
   * that recovers on its own (Kafka's client reconnects) answers undefined.
   */
  stoppedBy(): Error | undefined
  close(): Promise<void>
}
