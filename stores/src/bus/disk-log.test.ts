import { appendFileSync, mkdtempSync, readdirSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DiskLog } from './disk-log.ts'

const tmp = () => mkdtempSync(join(tmpdir(), 'fl0-log-'))
const records = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: `value ${from + i}` }))

async function readAll(log: DiskLog, from = 0) {
  const reader = log.openReader(from)
  const out = []
  for (;;) {
    const batch = await reader.read(1000)
    if (batch.length === 0) break
    out.push(...batch)
  }
  await reader.close()
  return out
}

describe('DiskLog', () => {
  it('assigns consecutive offsets and survives a reopen', async () => {
    const dir = tmp()
    const log = new DiskLog({ dir })
    await log.append(records(5))
    await log.close()
    const again = new DiskLog({ dir })
    expect(again.endOffset).toBe(5)
    await again.append(records(2, 5))
    expect((await readAll(again)).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('gathers concurrent appends into few fsyncs yet acknowledges each', async () => {
    const log = new DiskLog({ dir: tmp() })
    await Promise.all(Array.from({ length: 200 }, (_, i) => log.append([{ key: 'k', value: String(i) }])))
    expect(log.endOffset).toBe(200)
    expect((await readAll(log)).map((r) => r.value.toString())).toEqual(Array.from({ length: 200 }, (_, i) => String(i)))
  })

  it('drops a torn tail left by a crash mid-write, keeping every whole record', async () => {
    const dir = tmp()
    const log = new DiskLog({ dir })
    await log.append(records(3))
    await log.close()
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.log'))!)
    appendFileSync(file, Buffer.from([42, 0, 0, 0, 1, 2, 3])) // half a record
    const again = new DiskLog({ dir })
    expect(again.endOffset).toBe(3)
    await again.append(records(1, 3))
    expect((await readAll(again)).map((r) => r.key)).toEqual(['k0', 'k1', 'k2', 'k3'])
  })

  it('refuses an append whose record it cannot write, whole, and loses nothing around it', async () => {
    const dir = tmp()
    const log = new DiskLog({ dir })
    await log.append([{ key: 'k', value: 'first' }])
    // Not text: refused before anything is taken.
    await expect(log.append([{ key: 'k', value: 'not taken' }, { key: 'k', value: undefined as unknown as string }])).rejects.toThrow(/must be strings/)
    // A record whose text fails as it is encoded, after others of the same append were: none of the append stays.
    let reads = 0
    const failing = { key: 'k', get value(): string {
      if (reads++ > 0) throw new Error('gone')
      return 'x'
    } }
    // Enough records before it to fill an encoding buffer, so that the rollback spans two of them.
    const before = Array.from({ length: 2000 }, (_, i) => ({ key: 'k', value: `${i} ${'y'.repeat(600)}` }))
    await expect(log.append([...before, failing])).rejects.toThrow('gone')
    await log.append([{ key: 'k', value: 'second' }])
    expect(log.endOffset).toBe(2)
    const read = (rs: Awaited<ReturnType<typeof readAll>>) => rs.map((r) => [r.offset, r.value.toString()])
    expect(read(await readAll(log))).toEqual([[0, 'first'], [1, 'second']])
    await log.close()
    const again = new DiskLog({ dir })
    expect(again.endOffset).toBe(2)
    expect(read(await readAll(again))).toEqual([[0, 'first'], [1, 'second']])
  })

  it('stops at a corrupted record', async () => {
    const dir = tmp()
    const log = new DiskLog({ dir })
    await log.append(records(3))
    await log.close()
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.log'))!)
    truncateSync(file, statSync(file).size - 2)
    const again = new DiskLog({ dir })
    expect(again.endOffset).toBe(2)
  })

  it('rolls segments, reads across them, and truncates consumed ones', async () => {
    const dir = tmp()
    const log = new DiskLog({ dir, segmentBytes: 200 })
    for (let i = 0; i < 10; i++) await log.append(records(3, i * 3))
    expect(readdirSync(dir).filter((f) => f.endsWith('.log')).length).toBeGreaterThan(3)
    expect((await readAll(log)).map((r) => r.offset)).toEqual(Array.from({ length: 30 }, (_, i) => i))
    expect((await readAll(log, 17)).map((r) => r.offset)[0]).toBe(17)
    const removed = log.truncateBefore(20)
    expect(removed).toBeGreaterThan(0)
    expect(log.startOffset).toBeLessThanOrEqual(20)
    expect((await readAll(log, 20)).map((r) => r.offset)).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i))
  })

  it('writes the segments after the first over zeros, which readers and a restart never take for records', async () => {
    const dir = tmp()
    const segmentBytes = 4096
    // No records kept in memory: readers read the files, up to the records just written.
    const log = new DiskLog({ dir, segmentBytes, recentBytes: 0 })
    const reader = log.openReader(0)
    const seen: string[] = []
    const logs = () => readdirSync(dir).filter((f) => f.endsWith('.log')).sort()
    let n = 0
    let zeroed = 0
    while (logs().length < 4) {
      await log.append(records(3, n))
      n += 3
      // Each segment's next is ready before the roll, so every roll starts on zeros.
      await log.spareWritten()
      const active = join(dir, logs().at(-1)!)
      if (logs().length > 1 && statSync(active).size === segmentBytes) zeroed++
      seen.push(...(await reader.read(1000)).map((r) => `${r.offset}:${r.key}:${r.value.toString()}`))
    }
    const expected = (count: number) => Array.from({ length: count }, (_, i) => `${i}:k${i}:value ${i}`)
    expect(zeroed).toBeGreaterThan(0)
    expect(seen).toEqual(expected(n))
    expect(await reader.read(1000)).toEqual([])
    await reader.close()
    await log.close()

    // The active segment is longer than its records (zeros); reopened, it ends after its last record.
    const active = join(dir, logs().at(-1)!)
    expect(statSync(active).size).toBe(segmentBytes)
    const again = new DiskLog({ dir, segmentBytes, recentBytes: 0 })
    expect(again.endOffset).toBe(n)
    expect(statSync(active).size).toBeLessThan(segmentBytes)
    await again.append(records(2, n))
    expect((await readAll(again)).map((r) => `${r.offset}:${r.key}:${r.value.toString()}`)).toEqual(expected(n + 2))
    await again.close()
  })

  it('hands readers that keep up the bytes it wrote, and each reader its view made from the publisher\'s object', async () => {
    const log = new DiskLog({ dir: tmp() })
    const seen: unknown[] = []
    const viewing = log.openReader(0, (m) => {
      seen.push(m.record)
      return (m.record as { n: number }).n * 10
    })
    const plain = log.openReader(0)
    const objects = Array.from({ length: 5 }, (_, i) => ({ n: i }))
    await log.append(objects.map((o, i) => ({ key: `k${i}`, value: JSON.stringify(o), record: o })))
    // Made as the records were appended, from the very objects: nobody parses the values.
    expect(seen).toEqual(objects)
    seen.forEach((o, i) => expect(o).toBe(objects[i]))
    const read = await viewing.read(100)
    expect(read.map((r) => [r.offset, r.key, r.value.toString()])).toEqual(objects.map((o, i) => [i, `k${i}`, JSON.stringify(o)]))
    expect(read.map((r) => viewing.viewOf(r, { key: r.key, value: 'unused' }))).toEqual([0, 10, 20, 30, 40])
    // The log keeps no object: a record holds its bytes and the views.
    expect(read.every((r) => !Object.values(r).includes(objects[r.offset]))).toBe(true)
    expect(seen).toHaveLength(5)
    // A reader without a view gets none.
    expect((await plain.read(100)).map((r) => plain.viewOf(r, { key: r.key, value: '' }))).toEqual([undefined, undefined, undefined, undefined, undefined])
    await viewing.close()
    await plain.close()
  })

  it('makes a view from the value for records read back from the files or appended before the reader opened, and takes a view that throws as none', async () => {
    const log = new DiskLog({ dir: tmp() })
    await log.append([{ key: 'a', value: '{"n":1}', record: { n: 1 } }, { key: 'b', value: 'not json', record: 'x' }])
    const reader = log.openReader(0, (m) => (JSON.parse(m.value) as { n: number }).n)
    const read = await reader.read(100)
    expect(read.map((r) => reader.viewOf(r, { key: r.key, value: r.value.toString() }))).toEqual([1, undefined])
    await reader.close()
  })

  it('lets a reader that fell behind the memory budget read the files, in order, nothing missed or doubled', async () => {
    const log = new DiskLog({ dir: tmp(), segmentBytes: 2000, recentBytes: 100 })
    const fast = log.openReader(0)
    const slow = log.openReader(0)
    const fastSeen: number[] = []
    const slowSeen: number[] = []
    for (let i = 0; i < 40; i++) {
      await log.append(records(5, i * 5))
      fastSeen.push(...(await fast.read(1000)).map((r) => r.offset))
      // The slow reader reads a little now and then: at times from memory, mostly from the files behind it.
      if (i % 7 === 0) slowSeen.push(...(await slow.read(3)).map((r) => r.offset))
    }
    for (;;) {
      const batch = await slow.read(4)
      if (batch.length === 0) break
      slowSeen.push(...batch.map((r) => r.offset))
    }
    expect(fastSeen).toEqual(Array.from({ length: 200 }, (_, i) => i))
    expect(slowSeen).toEqual(Array.from({ length: 200 }, (_, i) => i))
    await fast.close()
    await slow.close()
  })

  it('writes records across its encoding buffers whole, text of any width, and reads them back alike from memory and from the files', async () => {
    const log = new DiskLog({ dir: tmp(), segmentBytes: 1024 * 1024 })
    const reader = log.openReader(0)
    // About 5 MB in calls of 100: several encoding buffers, several segments, a record of each width of UTF-8.
    const text = (i: number) => `${i}:${'aé✓😀'.repeat(200 + (i % 50))}`
    for (let i = 0; i < 5000; i += 100) {
      await log.append(Array.from({ length: 100 }, (_, k) => ({ key: `k${i + k}-ключ`, value: text(i + k) })))
    }
    const fromMemory = []
    for (;;) {
      const batch = await reader.read(1000, 64 * 1024 * 1024)
      if (batch.length === 0) break
      fromMemory.push(...batch)
    }
    const fromFiles = await readAll(log)
    for (const got of [fromMemory, fromFiles]) {
      expect(got.map((r) => r.offset)).toEqual(Array.from({ length: 5000 }, (_, i) => i))
      got.forEach((r) => {
        expect(r.key).toBe(`k${r.offset}-ключ`)
        expect(r.value.toString()).toBe(text(r.offset))
      })
    }
    await reader.close()
    await log.close()
    const again = new DiskLog({ dir: log.dir })
    expect(again.endOffset).toBe(5000)
  })

  it('keeps nothing in memory once every reader has passed it', async () => {
    const log = new DiskLog({ dir: tmp() })
    const reader = log.openReader(0)
    await log.append(records(10))
    expect(log.fromMemory(0, 100, 1e9)).toHaveLength(10)
    await reader.read(100)
    expect(log.fromMemory(0, 100, 1e9)).toHaveLength(0)
    await reader.close()
    await log.append(records(10, 10))
    // No reader open: nothing is kept.
    expect(log.fromMemory(10, 100, 1e9)).toHaveLength(0)
  })
})
