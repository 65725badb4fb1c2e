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
})
