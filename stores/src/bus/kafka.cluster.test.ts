import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { busContract } from './bus.contract.ts'
import { createKafkaBus, type KafkaBusOptions } from './kafka.ts'
import type { Bus, Consumer, DeliveredMessage } from './types.ts'

/**
 * The bus contract on a real Kafka broker (scripts/cluster/kafka.sh), then what
 * only Kafka can show: a consumer process killed mid-batch, a handler slower
 * than the session timeout, consumers of one group sharing partitions.
 */
const KAFKA_BROKERS = process.env.KAFKA_BROKERS
if (!KAFKA_BROKERS) throw new Error('KAFKA_BROKERS is not set: run `npm run test:cluster`, which starts a broker')
const brokers = KAFKA_BROKERS.split(',').map((b) => b.trim())

// Consumer groups are global to a Kafka cluster, not per topic: every group
// name gets this run's id, so a rerun on the same broker starts clean.
const run = randomUUID().slice(0, 8)
function withRunGroups(bus: Bus): Bus {
  return { kind: bus.kind, publish: bus.publish, close: bus.close, stoppedBy: bus.stoppedBy, consume: (o) => bus.consume({ ...o, group: `${run}-${o.group}` }) }
}

busContract('kafka', async () => withRunGroups(createKafkaBus({ brokers, clientId: `fl0-test-${run}` })))

describe('kafka adapter on a real broker', () => {
  const admin = new Kafka({ brokers, clientId: `fl0-test-admin-${run}`, logLevel: logLevel.NOTHING }).admin()
  const open: Bus[] = []
  beforeAll(() => admin.connect())
  afterAll(async () => {
    await Promise.all(open.map((b) => b.close().catch(() => {})))
    await admin.disconnect()
  })

  const fresh = (what: string) => `${what}-${run}-${randomUUID().slice(0, 8)}`
  function bus(options: Partial<KafkaBusOptions> = {}): Bus {
    const b = createKafkaBus({ brokers, clientId: `fl0-test-${run}`, ...options })
    open.push(b)
    return b
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
      await sleep(100)
    }
  }

  /** The group's committed offsets on the topic, summed over partitions: how many messages it has done. */
  async function committed(group: string, topic: string): Promise<number> {
    const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] })
    return t.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0)
  }

  /** Consumes until `count` messages arrived, then stops. */
  async function collect(b: Bus, topic: string, group: string, count: number, timeoutMs = 60_000) {
    const got: DeliveredMessage[] = []
    const consumer = await b.consume({ topic, group, maxWaitMs: 20, onBatch: async (ms) => void got.push(...ms) })
    try {
      await waitFor(`${count} messages on ${topic}`, () => got.length >= count, timeoutMs)
    } finally {
      await consumer.stop()
    }
    return got
  }

  it("publishes more than the broker's 1 MB request limit for one partition at once, in order", async () => {
    const topic = fresh('big')
    const b = bus()
    // 4 MB of one user's events: what one ingest batch at its limit publishes, all to one partition.
    const values = Array.from({ length: 128 }, (_, i) => `${String(i).padStart(3, '0')}:${'x'.repeat(32 * 1024)}`)
    await b.publish(topic, values.map((value) => ({ key: 'user-1', value })))
    const got = await collect(b, topic, fresh('g'), values.length)
    expect(got.map((m) => m.value.slice(0, 3))).toEqual(values.map((v) => v.slice(0, 3)))
    expect(new Set(got.map((m) => m.partition)).size).toBe(1)
  })

  it('redelivers the batch of a consumer killed mid-batch, and only that batch', async () => {
    const topic = fresh('t')
    const group = fresh('g')
    const b = bus()
    await b.publish(topic, ['a1', 'a2', 'a3'].map((value) => ({ key: 'user-1', value })))

    // A consumer in a process of its own, as a worker role runs: it prints each
    // batch it gets and hangs on the one that holds "h1", until killed.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
        import { createKafkaBus } from ${JSON.stringify(fileURLToPath(new URL('./kafka.ts', import.meta.url)))}
        const bus = createKafkaBus({ brokers: ${JSON.stringify(brokers)}, sessionTimeoutMs: 6000 })
        await bus.consume({
          topic: ${JSON.stringify(topic)},
          group: ${JSON.stringify(group)},
          maxWaitMs: 20,
          onBatch: async (messages) => {
            console.log(JSON.stringify(messages.map((m) => m.value)))
            if (messages.some((m) => m.value === 'h1')) await new Promise(() => {})
          },
        })`,
      ],
      { cwd: fileURLToPath(new URL('../../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const exited = new Promise((r) => child.once('exit', r))
    const seen: string[] = []
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('[')) seen.push(...(JSON.parse(line) as string[]))
    })
    try {
      await waitFor('the child to commit a1..a3', async () => (await committed(group, topic)) === 3)
      await b.publish(topic, ['h1', 'h2'].map((value) => ({ key: 'user-1', value })))
      await waitFor('the child to hold h1', () => seen.includes('h1'))
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    expect(seen.slice(0, 3)).toEqual(['a1', 'a2', 'a3'])

    // The group gives the dead member's partitions away once its 6 s session
    // expires; the new member starts at the last commit: h1 again, a1..a3 not.
    const got = await collect(bus(), topic, group, 2)
    expect(got.map((m) => m.value)).toEqual(['h1', 'h2'])
  })

  it('stop() lets the batch in hand finish and commits it', async () => {
    const topic = fresh('t')
    const group = fresh('g')
    const b = bus()
    await b.publish(topic, ['x1', 'x2', 'x3'].map((value) => ({ key: 'k', value })))
    let entered!: () => void
    const inHandler = new Promise<void>((r) => (entered = r))
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const handled: string[] = []
    const consumer: Consumer = await b.consume({
      topic,
      group,
      maxWaitMs: 20,
      onBatch: async (ms) => {
        entered()
        await gate
        handled.push(...ms.map((m) => m.value))
      },
    })
    await inHandler
    let stopped = false
    const stopping = consumer.stop().then(() => (stopped = true))
    await sleep(500)
    expect(stopped).toBe(false)
    release()
    await stopping
    expect(handled).toEqual(['x1', 'x2', 'x3'])
    expect(await committed(group, topic)).toBe(3)

    await b.publish(topic, [{ key: 'k', value: 'x4' }])
    expect((await collect(b, topic, group, 1)).map((m) => m.value)).toEqual(['x4'])
  })

  it('keeps a consumer whose handler outlasts the session timeout in the group', async () => {
    const topic = fresh('t')
    const group = fresh('g')
    const b = bus({ sessionTimeoutMs: 6_000 })
    await b.publish(topic, [{ key: 'k', value: 'slow' }])
    let calls = 0
    const consumer = await b.consume({
      topic,
      group,
      maxWaitMs: 20,
      onBatch: async () => {
        calls++
        if (calls === 1) await sleep(9_000) // half as long again as the session
      },
    })
    try {
      await waitFor('the slow batch to be committed', async () => (await committed(group, topic)) === 1)
      await sleep(500)
      expect(calls).toBe(1)
    } finally {
      await consumer.stop()
    }
  })

  it('retries a batch whose handler threw a TypeError', async () => {
    // kafkajs treats TypeError and its kin as unrecoverable and would stop the
    // consumer for good; the bus promises a retry whatever the handler throws.
    const topic = fresh('t')
    const group = fresh('g')
    const b = bus()
    await b.publish(topic, [{ key: 'k', value: 'poison?' }])
    let calls = 0
    const got: string[] = []
    const errors: unknown[] = []
    const withErrors = bus({ onError: (e) => void errors.push(e) })
    const consumer = await withErrors.consume({
      topic,
      group,
      maxWaitMs: 20,
      onBatch: async (ms) => {
        if (calls++ === 0) (undefined as unknown as { x: number }).x
        got.push(...ms.map((m) => m.value))
      },
    })
    try {
      await waitFor('the retried batch', () => got.length === 1, 30_000)
    } finally {
      await consumer.stop()
    }
    expect(got).toEqual(['poison?'])
    expect(errors[0]).toBeInstanceOf(TypeError)
  })

  it('shares partitions among the consumers of a group, each message once, each key in order', async () => {
    const topic = fresh('t')
    const group = fresh('g')
    await admin.createTopics({ topics: [{ topic, numPartitions: 4 }] })
    const received = [[], []] as DeliveredMessage[][]
    // Two buses: two worker processes, as far as the broker can tell.
    const consumers = await Promise.all(
      [0, 1].map((i) => bus().consume({ topic, group, maxWaitMs: 20, onBatch: async (ms) => void received[i].push(...ms) })),
    )
    try {
      await waitFor('both members to be assigned partitions', async () => {
        const [g] = (await admin.describeGroups([group])).groups
        return g.state === 'Stable' && g.members.length === 2
      })
      const b = bus()
      const messages = Array.from({ length: 400 }, (_, i) => ({ key: `user-${i % 40}`, value: String(i) }))
      for (let i = 0; i < messages.length; i += 50) await b.publish(topic, messages.slice(i, i + 50))
      await waitFor('all 400 messages', () => received[0].length + received[1].length >= 400)
      await sleep(500) // room for a duplicate to show up
    } finally {
      await Promise.all(consumers.map((c) => c.stop()))
    }
    const all = received.flat()
    expect(all).toHaveLength(400)
    expect(new Set(all.map((m) => m.value)).size).toBe(400)
    expect(received[0].length).toBeGreaterThan(0)
    expect(received[1].length).toBeGreaterThan(0)
    for (let k = 0; k < 40; k++) {
      const key = `user-${k}`
      const owners = received.filter((r) => r.some((m) => m.key === key))
      expect(owners, `${key} is read by one consumer`).toHaveLength(1)
      const values = owners[0].filter((m) => m.key === key).map((m) => Number(m.value))
      expect(values).toEqual([...values].sort((x, y) => x - y))
    }
  })

  it('lets processes starting side by side race to create the same topics, each one starting', async () => {
    // Four buses are four processes to the broker: ingest and workers starting at once.
    const names = [fresh('race'), fresh('race'), fresh('race')]
    const group = fresh('g')
    const buses = Array.from({ length: 4 }, () => bus({ partitions: 6 }))
    const consumers = await Promise.all(
      buses.flatMap((b) => names.map((topic) => b.consume({ topic, group: `${group}-${topic}`, maxWaitMs: 20, onBatch: async () => {} }))),
    )
    try {
      await Promise.all(buses.map((b, i) => b.publish(names[i % names.length], [{ key: 'k', value: String(i) }])))
      const meta = await admin.fetchTopicMetadata({ topics: names })
      for (const t of meta.topics) expect(t.partitions.map((p) => p.leader >= 0)).toEqual(Array(6).fill(true))
    } finally {
      await Promise.all(consumers.map((c) => c.stop()))
    }
  })
})
