import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { busContract } from './bus.contract.ts'
import { createDiskBus } from './disk.ts'

const dir = mkdtempSync(join(tmpdir(), 'fl0-bus-'))
busContract('disk', async () => createDiskBus({ dir }))

describe('a disk bus whose log stops', () => {
  it('says why once a failed roll stops a topic, refuses that topic\'s events while the others go on, and a restart takes them again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fl0-bus-stop-'))
    const bus = createDiskBus({ dir: root, segmentBytes: 4096 })
    const record = (i: number) => ({ key: 'k', value: JSON.stringify({ i, pad: 'x'.repeat(200) }) })
    await bus.publish('events', [record(0)])
    await bus.publish('other', [record(0)])
    expect(bus.stoppedBy()).toBeUndefined()

    // The topic's directory goes (an operator's rm, a disk unmounted): the open segment takes writes, the next one cannot be made.
    rmSync(join(root, 'events'), { recursive: true })
    let refused: unknown
    for (let i = 1; i < 100 && !refused; i++) await bus.publish('events', [record(i)]).catch((e: unknown) => (refused = e))
    expect(refused).toMatchObject({ code: 'BUS_LOG_STOPPED' })
    expect(bus.stoppedBy()?.message).toMatch(/^the bus log stopped after a failed write \(ENOENT.*restart fl0 to recover it$/)
    await expect(bus.publish('events', [record(1000)])).rejects.toMatchObject({ code: 'BUS_LOG_STOPPED' })
    await bus.publish('other', [record(1)])
    await bus.close()

    // Restarted, the log recovers: it takes events again.
    const again = createDiskBus({ dir: root, segmentBytes: 4096 })
    expect(again.stoppedBy()).toBeUndefined()
    await again.publish('events', [record(2000)])
    await again.publish('other', [record(2)])
    expect(again.lag('other', 'g')).toBe(3)
    await again.close()
    rmSync(root, { recursive: true, force: true })
  })
})
