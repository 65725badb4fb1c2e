import { join } from 'node:path'
import { DiskLog, OffsetStore, type LogRecord } from './disk-log.ts'
import type { Bus, BusMessage, ConsumeOptions, Consumer, DeliveredMessage, ViewSource } from './types.ts'

/**
 * The embedded bus: one DiskLog per topic under `dir`, one partition each, and
 * consumer-group offsets in files beside it. One process owns the directory;
 * within it, each group has one consumer at a time (a second one is refused
 * rather than silently splitting or doubling the work).
 */
export interface DiskBusOptions {
  dir: string
  segmentBytes?: number
  /** Called when a batch handler throws; the batch is retried after a back-off. */
  onError?: (error: unknown, context: { topic: string; group: string }) => void
}

export function createDiskBus(options: DiskBusOptions): Bus & { lag(topic: string, group: string): number } {
  const logs = new Map<string, { log: DiskLog; offsets: OffsetStore }>()
  const active = new Set<string>()
  const consumers = new Set<Consumer>()

  function topic(name: string) {
    let t = logs.get(name)
    if (!t) {
      const dir = join(options.dir, encodeURIComponent(name))
      t = { log: new DiskLog({ dir, segmentBytes: options.segmentBytes }), offsets: new OffsetStore(join(dir, 'groups')) }
      logs.set(name, t)
    }
    return t
  }

  return {
    kind: 'disk',

    publish(name: string, messages: BusMessage[]): Promise<void> {
      return topic(name).log.append(messages)
    },

    stoppedBy(): Error | undefined {
      for (const t of logs.values()) if (t.log.stoppedBy) return t.log.stoppedBy
      return undefined
    },

    lag(name: string, group: string): number {
      const t = topic(name)
      return t.log.endOffset - (t.offsets.read(group) ?? t.log.startOffset)
    },

    async consume<V>(consumeOptions: ConsumeOptions<V>): Promise<Consumer> {
      const { topic: name, group, onBatch } = consumeOptions
      const maxBatchSize = consumeOptions.maxBatchSize ?? 1000
      const maxWaitMs = consumeOptions.maxWaitMs ?? 200
      const id = `${name}\u0000${group}`
      if (active.has(id)) throw new Error(`consumer group ${group} already consumes ${name} in this process`)
      active.add(id)
      const { log, offsets } = topic(name)
      const start = offsets.read(group) ?? (consumeOptions.fromBeginning === false ? log.endOffset : log.startOffset)
      const reader = log.openReader(start, consumeOptions.view)
      let stopped = false
      /** Ends the back-off in hand, if any (stop). */
      let wake: (() => void) | undefined
      let lastRetention = 0

      async function loop(): Promise<void> {
        while (!stopped) {
          let records = await reader.read(maxBatchSize)
          if (records.length === 0) {
            await log.waitFor(reader.offset, 250)
            continue
          }
          if (records.length < maxBatchSize && maxWaitMs > 0) {
            // A fuller batch makes for fewer, larger inserts downstream.
            const deadline = Date.now() + maxWaitMs
            while (records.length < maxBatchSize && Date.now() < deadline && !stopped) {
              await log.waitFor(reader.offset, deadline - Date.now())
              records = records.concat(await reader.read(maxBatchSize - records.length))
            }
          }
          const delivered: DiskMessage[] = new Array(records.length)
          for (let i = 0; i < records.length; i++) {
            const m = new DiskMessage(name, records[i]!)
            m.view = reader.viewOf(records[i]!, m)
            delivered[i] = m
          }
          await untilDone(() => onBatch(delivered as DeliveredMessage<V>[]))
          const next = records[records.length - 1].offset + 1
          await untilDone(() => offsets.write(group, next))
          if (Date.now() - lastRetention > 10_000) {
            lastRetention = Date.now()
            const min = offsets.minimum()
            if (min !== undefined) log.truncateBefore(min)
          }
        }
      }

      /**
       * Runs `step` until it succeeds, after a back-off each time it throws: the batch's handler (a store that
       * fails), and the group's offset (a disk full: a consumer that stopped there would never let the log free
       * its segments, and the disk would stay full).
       */
      async function untilDone(step: () => Promise<void>): Promise<void> {
        for (let attempt = 0; ; attempt++) {
          try {
            await step()
            return
          } catch (error) {
            options.onError?.(error, { topic: name, group })
            if (stopped) throw error
            // The back-off ends early when the consumer is stopped: a stop waits for no retry.
            await new Promise<void>((r) => {
              const timer = setTimeout(r, Math.min(30_000, 100 * 2 ** attempt))
              wake = () => {
                clearTimeout(timer)
                r()
              }
            })
            wake = undefined
            if (stopped) throw error
          }
        }
      }

      const running = loop().catch((error) => {
        if (!stopped) options.onError?.(error, { topic: name, group })
      })
      const consumer: Consumer = {
        async stop() {
          stopped = true
          wake?.()
          await running
          await reader.close()
          active.delete(id)
          consumers.delete(consumer)
        },
      }
      consumers.add(consumer)
      return consumer
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.stop()))
      await Promise.all([...logs.values()].map((t) => t.log.close()))
      logs.clear()
    },
  }
}

/**
 * A delivered record of the disk log: its bytes as the log holds them, the text
 * decoded only if a consumer reads it (the event writer hands the bytes on), the
 * offset printed only if asked for. Also the source of a view made on delivery.
 */
class DiskMessage implements DeliveredMessage<unknown>, ViewSource {
  readonly partition = 0
  view: unknown = undefined
  private text: string | undefined = undefined

  constructor(
    readonly topic: string,
    private readonly record_: LogRecord,
  ) {}

  get offset(): string {
    return String(this.record_.offset)
  }

  get key(): string {
    return this.record_.key
  }

  get bytes(): Buffer {
    return this.record_.value
  }

  get value(): string {
    return (this.text ??= this.record_.value.toString('utf8'))
  }

  /** ViewSource's: delivered, the publisher's object is gone. */
  get record(): undefined {
    return undefined
  }
}
