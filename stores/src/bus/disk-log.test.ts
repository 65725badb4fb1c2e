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
    expect((await readAll(log)).map((r) => r.value)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)))
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

  it('hands readers that keep up the appended records from memory, with the publisher\'s object', async () => {
    const log = new DiskLog({ dir: tmp() })
    const reader = log.openReader(0)
    const objects = Array.from({ length: 5 }, (_, i) => ({ n: i }))
    await log.append(objects.map((o, i) => ({ key: `k${i}`, value: JSON.stringify(o), record: o })))
    const read = await reader.read(100)
    expect(read.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4])
    // The very objects appended: nobody parsed the values again.
    read.forEach((r, i) => expect(r.record).toBe(objects[i]))
    await reader.close()
    // Read back from the file, the same records without the object.
    const again = await readAll(log)
    expect(again.map((r) => [r.offset, r.key, r.value, r.record])).toEqual(objects.map((o, i) => [i, `k${i}`, JSON.stringify(o), undefined]))
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
