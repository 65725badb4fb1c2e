import { Kafka, logLevel, Partitioners, type Producer, type Consumer as KafkaConsumer } from 'kafkajs'
import type { Bus, BusMessage, ConsumeOptions, Consumer, DeliveredMessage, ViewSource } from './types.ts'
import { makeView } from './view.ts'

/**
 * The cluster bus: Kafka through kafkajs.
 * - The producer is idempotent and waits for all in-sync replicas (acks -1), so a
 *   resolved publish() is durable on the brokers.
 * - Keys pick the partition (murmur2, the same as the Java client), so one
 *   user's events stay in order.
 * - Consumers commit explicitly, after the batch handler resolves; a handler
 *   that throws, whatever it throws, gets the same batch again after a back-off.
 *
 * Proven against a real broker by kafka.cluster.test.ts (`npm run test:cluster`).
 */
export interface KafkaBusOptions {
  brokers: string[]
  clientId?: string
  /**
   * How long the group coordinator waits for a silent consumer before giving
   * its partitions to another member (default 30 s). A worker that dies without
   * leaving the group (kill -9, a lost machine) holds its partitions this long.
   * The broker accepts 6 s to 30 min (group.min/max.session.timeout.ms).
   */
  sessionTimeoutMs?: number
  /**
   * Partitions of a topic this bus creates (it creates the topics it uses
   * before the first publish or subscribe, rather than leave it to the broker's
   * auto-creation, which races a consumer that subscribes first). At most this
   * many workers of one group share a topic's load. Default 12.
   */
  partitions?: number
  /** A batch handler threw (the batch will be retried), or a consumer stopped for good. */
  onError?: (error: unknown, context: { topic: string; group: string }) => void
}

/**
 * kafkajs retries a failed eachBatch only if the error looks retriable to it:
 * a TypeError, RangeError, ReferenceError or SyntaxError (the usual shape of a
 * bug in a handler, or of a message it did not expect) makes it stop the
 * consumer for good, silently, while the process runs on. Wrapping every
 * handler error in this one keeps the bus's promise: the batch is retried.
 */
class BatchHandlerError extends Error {
  readonly retriable = true
  constructor(readonly cause: unknown) {
    super(`batch handler failed: ${cause instanceof Error ? cause.message : String(cause)}`)
    this.name = 'BatchHandlerError'
  }
}

/** The kafkajs error types in `error` and the per-topic errors it carries. */
function errorTypes(error: unknown): string[] {
  const all = [error, ...((error as { errors?: unknown[] }).errors ?? [])]
  return all.map((e) => (e as { type?: string }).type).filter((t): t is string => typeof t === 'string')
}

/** A metadata or creation error worth waiting out: the broker says to retry, and there is time. */
function isTransient(error: unknown, deadline: number): boolean {
  if (Date.now() > deadline) return false
  const retriable = [error, ...((error as { errors?: unknown[] }).errors ?? [])].some((e) => (e as { retriable?: boolean }).retriable)
  const types = errorTypes(error)
  return retriable || types.includes('UNKNOWN_TOPIC_OR_PARTITION') || types.includes('LEADER_NOT_AVAILABLE')
}

/**
 * What one produce request carries at most. kafkajs sends a partition's messages of
 * one sendBatch as one record batch, and the broker refuses a record batch over its
 * message.max.bytes (1 MB by default) whole: a 4 MB ingest batch of one user's
 * events, or a few requests gathered by the group commit, would be refused every
 * time, and ingest would answer 503 for ever. Requests stay under it; a message
 * larger than it alone cannot be sent (ingest's events are at most 32 KB).
 */
const MAX_REQUEST_BYTES = 900 * 1024

type TopicMessages = Array<{ topic: string; messages: BusMessage[] }>

function requestsOf(group: Array<{ topic: string; messages: BusMessage[] }>): TopicMessages[] {
  const requests: TopicMessages[] = []
  let current = new Map<string, BusMessage[]>()
  let bytes = 0
  const flush = () => {
    if (current.size > 0) requests.push([...current].map(([topic, messages]) => ({ topic, messages })))
    current = new Map()
    bytes = 0
  }
  for (const g of group) {
    for (const m of g.messages) {
      // The record's own framing (offsets, lengths, headers) is a few dozen bytes.
      const size = Buffer.byteLength(m.key) + Buffer.byteLength(m.value) + 64
      if (bytes > 0 && bytes + size > MAX_REQUEST_BYTES) flush()
      let list = current.get(g.topic)
      if (!list) current.set(g.topic, (list = []))
      list.push(m.record === undefined ? m : { key: m.key, value: m.value })
      bytes += size
    }
  }
  flush()
  return requests
}

export function createKafkaBus(options: KafkaBusOptions): Bus {
  const kafka = new Kafka({
    clientId: options.clientId ?? 'fl0',
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    retry: { retries: 8 },
  })
  const sessionTimeout = options.sessionTimeoutMs ?? 30_000
  // A third of the session, at most kafkajs' default 3 s: two lost heartbeats are survivable.
  const heartbeatInterval = Math.min(3_000, Math.floor(sessionTimeout / 3))
  let producer: Producer | undefined
  let connecting: Promise<Producer> | undefined
  const topics = new Map<string, Promise<void>>()

  /**
   * Creates `topic` once, if the cluster lacks it, and waits until its partitions have leaders.
   * Processes starting side by side race to create the same topics: the loser sees
   * TOPIC_ALREADY_EXISTS, and for a moment after either may see the topic unknown or
   * leaderless in the broker's metadata. Those are waited out, not fatal.
   */
  function ensureTopic(topic: string): Promise<void> {
    let ready = topics.get(topic)
    if (!ready) {
      ready = (async () => {
        const admin = kafka.admin()
        await admin.connect()
        try {
          const deadline = Date.now() + 60_000
          for (let attempt = 0; ; attempt++) {
            try {
              await admin.createTopics({ topics: [{ topic, numPartitions: options.partitions ?? 12 }], waitForLeaders: true })
            } catch (error) {
              if (!errorTypes(error).includes('TOPIC_ALREADY_EXISTS') && !isTransient(error, deadline)) throw error
            }
            try {
              const { topics: [meta] } = await admin.fetchTopicMetadata({ topics: [topic] })
              if (meta && meta.partitions.length > 0 && meta.partitions.every((p) => p.leader >= 0)) return
            } catch (error) {
              if (!isTransient(error, deadline)) throw error
            }
            if (Date.now() > deadline) throw new Error(`kafka: topic ${topic} has no leaders after 60 s`)
            await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)))
          }
        } finally {
          await admin.disconnect()
        }
      })()
      ready.catch(() => topics.delete(topic)) // the next call tries again
      topics.set(topic, ready)
    }
    return ready
  }
  const consumers = new Set<Consumer>()

  function getProducer(): Promise<Producer> {
    if (producer) return Promise.resolve(producer)
    connecting ??= (async () => {
      const p = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: true,
        // Named, not defaulted: this is the Java client's partitioner, so a key
        // lands on the same partition whichever client wrote it.
        createPartitioner: Partitioners.DefaultPartitioner,
      })
      try {
        await p.connect()
      } catch (error) {
        connecting = undefined // let the next publish try again
        throw error
      }
      producer = p
      return p
    })()
    return connecting
  }

  /**
   * Group commit, as the disk log does with fsync: the idempotent producer has
   * one request in flight at a time, so publishes that arrive while a send is
   * on its way wait and go together in the next one (one round trip for all
   * of them), each resolving or failing with the send that carried it.
   */
  interface Pending {
    topic: string
    messages: BusMessage[]
    resolve: () => void
    reject: (error: unknown) => void
  }
  let waiting: Pending[] = []
  let sending = false

  function groupSend(topic: string, messages: BusMessage[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      waiting.push({ topic, messages, resolve, reject })
      if (!sending) void drain()
    })
  }

  async function drain(): Promise<void> {
    sending = true
    while (waiting.length > 0) {
      const group = waiting
      waiting = []
      try {
        const p = await getProducer()
        // In order, one request at a time: the idempotent producer keeps them in order on each partition.
        for (const request of requestsOf(group)) await p.sendBatch({ acks: -1, topicMessages: request })
        for (const g of group) g.resolve()
      } catch (error) {
        for (const g of group) g.reject(error)
      }
    }
    sending = false
  }

  return {
    kind: 'kafka',

    stoppedBy: () => undefined,

    async publish(topic: string, messages: BusMessage[]): Promise<void> {
      if (messages.length === 0) return
      await ensureTopic(topic)
      await groupSend(topic, messages)
    },

    async consume<V>(consumeOptions: ConsumeOptions<V>): Promise<Consumer> {
      const { topic, group } = consumeOptions
      await ensureTopic(topic)
      const consumer: KafkaConsumer = kafka.consumer({
        groupId: group,
        sessionTimeout,
        heartbeatInterval,
        maxWaitTimeInMs: consumeOptions.maxWaitMs ?? 200,
        allowAutoTopicCreation: true,
      })
      // kafkajs restarts a crashed consumer by itself when it deems the error
      // retriable; when it does not, the consumer is gone for good: say so.
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (!payload.restart) options.onError?.(payload.error, { topic, group })
      })
      await consumer.connect()
      try {
        await consumer.subscribe({ topic, fromBeginning: consumeOptions.fromBeginning ?? true })
        await runConsumer(consumer, consumeOptions)
      } catch (error) {
        await consumer.disconnect().catch(() => {})
        throw error
      }
      const handle: Consumer = {
        async stop() {
          consumers.delete(handle)
          await consumer.disconnect()
        },
      }
      consumers.add(handle)
      return handle
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.stop()))
      await producer?.disconnect()
      producer = undefined
      connecting = undefined
    },
  }

  /** Hands batches to the handler; commits each one only after the handler resolves. */
  function runConsumer<V>(consumer: KafkaConsumer, consumeOptions: ConsumeOptions<V>): Promise<void> {
    const { topic, group, onBatch } = consumeOptions
    const maxBatchSize = consumeOptions.maxBatchSize ?? 1000
    return consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
        for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += maxBatchSize) {
          const slice = batch.messages.slice(i, i + maxBatchSize)
          const delivered = slice.map((m) => {
            const message = new KafkaMessage<V>(batch.topic, batch.partition, m.offset, m.key?.toString('utf8') ?? '', m.value ?? EMPTY)
            message.view = makeView(consumeOptions.view, message)
            return message
          })
          // kafkajs heartbeats only from its fetch loop. A handler slower than
          // the session timeout (a slow insert downstream) would otherwise get
          // this consumer thrown out of the group mid-batch: its commit refused,
          // its partitions handed on, the batch handled twice.
          const beating = setInterval(() => void heartbeat().catch(() => {}), heartbeatInterval)
          try {
            await onBatch(delivered)
          } catch (error) {
            options.onError?.(error, { topic, group })
            // Throwing makes kafkajs back off and fetch the same offsets again.
            throw new BatchHandlerError(error)
          } finally {
            clearInterval(beating)
          }
          const last = slice[slice.length - 1].offset
          resolveOffset(last)
          await commitOffsetsIfNecessary({
            topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(last) + 1n).toString() }] }],
          })
          await heartbeat()
        }
      },
    })
  }
}

const EMPTY = Buffer.alloc(0)

/** A delivered Kafka message: the value's bytes as kafkajs read them, decoded only if a consumer reads the text. */
class KafkaMessage<V> implements DeliveredMessage<V>, ViewSource {
  view: V | undefined = undefined
  private text: string | undefined = undefined

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    readonly key: string,
    readonly bytes: Buffer,
  ) {}

  get value(): string {
    return (this.text ??= this.bytes.toString('utf8'))
  }

  /** ViewSource's: nothing of the publisher's travels through Kafka. */
  get record(): undefined {
    return undefined
  }
}
