import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import type { Bus, DeliveredMessage } from './types.ts'

/**
 * The bus contract: what ingest and the workers rely on, run against every
 * adapter that can be reached (disk always; Kafka under `npm run test:cluster`).
 * `makeBus` opens a bus on the same underlying storage each time it is called,
 * so a test can close one and reopen it as a restarted process would.
 */
export function busContract(name: string, makeBus: () => Promise<Bus>) {
  describe(`bus contract: ${name}`, () => {
    const open: Bus[] = []
    const bus = async () => {
      const b = await makeBus()
      open.push(b)
      return b
    }
    afterAll(async () => {
      await Promise.all(open.map((b) => b.close().catch(() => {})))
    })

    const fresh = () => `t-${randomUUID().slice(0, 8)}`

    /** Consumes until `count` messages arrived (or the timeout), then stops the consumer. */
    async function collect(b: Bus, topic: string, group: string, count: number, opts: { failFirst?: boolean; timeoutMs?: number } = {}) {
      const got: DeliveredMessage[] = []
      let failed = false
      let resolveDone!: () => void
      const done = new Promise<void>((r) => (resolveDone = r))
      const consumer = await b.consume({
        topic,
        group,
        maxBatchSize: 50,
        maxWaitMs: 20,
        onBatch: async (messages) => {
          if (opts.failFirst && !failed) {
            failed = true
            throw new Error('handler failed once')
          }
          got.push(...messages)
          if (got.length >= count) resolveDone()
        },
      })
      await Promise.race([done, new Promise((r) => setTimeout(r, opts.timeoutMs ?? 30_000))])
      await consumer.stop()
      return got
    }

    it('delivers what was published, keys and values intact', async () => {
      const b = await bus()
      const topic = fresh()
      await b.publish(topic, [
        { key: 'k1', value: 'v1' },
        { key: 'k2', value: '{"ünïcødé":"✓"}' },
      ])
      const got = await collect(b, topic, 'g', 2)
      // Order holds within a key only (Kafka orders per partition), so compare as a set.
      const pairs = got.map((m) => [m.key, m.value]).sort((a, b) => a[0].localeCompare(b[0]))
      expect(pairs).toEqual([
        ['k1', 'v1'],
        ['k2', '{"ünïcødé":"✓"}'],
      ])
      expect(got.every((m) => m.topic === topic)).toBe(true)
      // Working, it is not stopped: /healthz answers 200.
      expect(b.stoppedBy()).toBeUndefined()
    })

    it("gives each consumer its own view of each message, and the value's bytes", async () => {
      const b = await bus()
      const topic = fresh()
      const objects = [{ n: 1, text: 'ünïcødé ✓' }, { n: 2, text: 'plain' }]
      await b.publish(topic, objects.map((o) => ({ key: 'k', value: JSON.stringify(o), record: o })))
      const views = await Promise.all(
        [2, 3].map(async (factor, i) => {
          const got: DeliveredMessage<number>[] = []
          let resolveDone!: () => void
          const done = new Promise<void>((r) => (resolveDone = r))
          const consumer = await b.consume<number>({
            topic,
            group: `g${i}`,
            maxBatchSize: 50,
            maxWaitMs: 20,
            // From the publisher's object where the bus has it, else from the value: the same either way.
            view: (m) => ((m.record ?? JSON.parse(m.value)) as { n: number }).n * factor,
            onBatch: async (messages) => {
              got.push(...messages)
              if (got.length >= 2) resolveDone()
            },
          })
          await Promise.race([done, new Promise((r) => setTimeout(r, 30_000))])
          await consumer.stop()
          for (const m of got) expect(Buffer.from(m.bytes).toString('utf8')).toBe(m.value)
          return got.map((m) => m.view)
        }),
      )
      expect(views).toEqual([
        [2, 4],
        [3, 6],
      ])
    })

    it("keeps one key's messages in publish order", async () => {
      const b = await bus()
      const topic = fresh()
      const messages = Array.from({ length: 300 }, (_, i) => ({ key: `user-${i % 3}`, value: String(i) }))
      for (let i = 0; i < messages.length; i += 30) await b.publish(topic, messages.slice(i, i + 30))
      const got = await collect(b, topic, 'g', 300)
      expect(got).toHaveLength(300)
      for (const key of ['user-0', 'user-1', 'user-2']) {
        const values = got.filter((m) => m.key === key).map((m) => Number(m.value))
        expect(values).toEqual([...values].sort((a, b) => a - b))
        expect(values).toHaveLength(100)
      }
    })

    it('redelivers a batch whose handler failed (at least once)', async () => {
      const b = await bus()
      const topic = fresh()
      await b.publish(topic, [{ key: 'a', value: '1' }])
      const got = await collect(b, topic, 'g', 1, { failFirst: true })
      expect(got.map((m) => m.value)).toEqual(['1'])
    })

    it('resumes a group from its committed offset after a restart', async () => {
      const topic = fresh()
      const first = await bus()
      await first.publish(topic, [1, 2, 3].map((i) => ({ key: 'k', value: String(i) })))
      expect((await collect(first, topic, 'g', 3)).map((m) => m.value)).toEqual(['1', '2', '3'])
      await first.publish(topic, [4, 5].map((i) => ({ key: 'k', value: String(i) })))
      await first.close()

      const second = await bus()
      const got = await collect(second, topic, 'g', 2)
      expect(got.map((m) => m.value)).toEqual(['4', '5'])
    })

    it('gives each group its own position', async () => {
      const b = await bus()
      const topic = fresh()
      await b.publish(topic, [{ key: 'k', value: 'x' }])
      const [one, two] = [await collect(b, topic, 'g1', 1), await collect(b, topic, 'g2', 1)]
      expect(one.map((m) => m.value)).toEqual(['x'])
      expect(two.map((m) => m.value)).toEqual(['x'])
    })

    it('delivers messages published after the consumer started', async () => {
      const b = await bus()
      const topic = fresh()
      await b.publish(topic, [{ key: 'k', value: 'early' }])
      const pending = collect(b, topic, 'g', 2)
      await new Promise((r) => setTimeout(r, 300))
      await b.publish(topic, [{ key: 'k', value: 'late' }])
      expect((await pending).map((m) => m.value)).toEqual(['early', 'late'])
    })
  })
}
