import { Kafka, logLevel, type Producer, type Consumer as KafkaConsumer } from 'kafkajs'
import type { Bus, BusMessage, ConsumeOptions, Consumer, DeliveredMessage } from './types.ts'

/**
 * The cluster bus: Kafka through kafkajs.
 * - The producer is idempotent and waits for all in-sync replicas (acks -1), so a
 *   resolved publish() is durable on the brokers.
 * - Keys pick the partition (kafkajs' default murmur2 partitioner, the same as the
 *   Java client), so one user's events stay in order.
 * - Consumers commit explicitly, after the batch handler resolves.
 */
export interface KafkaBusOptions {
  brokers: string[]
  clientId?: string
  onError?: (error: unknown, context: { topic: string; group: string }) => void
}

export function createKafkaBus(options: KafkaBusOptions): Bus {
  const kafka = new Kafka({
    clientId: options.clientId ?? 'fl0',
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    retry: { retries: 8 },
  })
  let producer: Producer | undefined
  let connecting: Promise<Producer> | undefined
  const consumers = new Set<Consumer>()

  function getProducer(): Promise<Producer> {
    if (producer) return Promise.resolve(producer)
    connecting ??= (async () => {
      const p = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true })
      await p.connect()
      producer = p
      return p
    })()
    return connecting
  }

  return {
    kind: 'kafka',

    async publish(topic: string, messages: BusMessage[]): Promise<void> {
      if (messages.length === 0) return
      const p = await getProducer()
      await p.send({ topic, acks: -1, messages: messages.map((m) => ({ key: m.key, value: m.value })) })
    },

    async consume(consumeOptions: ConsumeOptions): Promise<Consumer> {
      const { topic, group, onBatch } = consumeOptions
      const maxBatchSize = consumeOptions.maxBatchSize ?? 1000
      const consumer: KafkaConsumer = kafka.consumer({
        groupId: group,
        maxWaitTimeInMs: consumeOptions.maxWaitMs ?? 200,
        allowAutoTopicCreation: true,
      })
      await consumer.connect()
      await consumer.subscribe({ topic, fromBeginning: consumeOptions.fromBeginning ?? true })
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
          for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += maxBatchSize) {
            const slice = batch.messages.slice(i, i + maxBatchSize)
            const delivered: DeliveredMessage[] = slice.map((m) => ({
              topic: batch.topic,
              partition: batch.partition,
              offset: m.offset,
              key: m.key?.toString('utf8') ?? '',
              value: m.value?.toString('utf8') ?? '',
            }))
            try {
              await onBatch(delivered)
            } catch (error) {
              options.onError?.(error, { topic, group })
              // Throwing makes kafkajs back off and fetch the same offsets again.
              throw error
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
}
