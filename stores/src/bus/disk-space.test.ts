import { statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { diskSpaceGuard, DiskFullError, type DiskSpaceState } from './disk-space.ts'

const TiB = 1024 ** 4
const realFree = () => {
  const s = statfsSync(tmpdir())
  return s.bavail * s.bsize
}

describe('the guard of the data directory’s free space', () => {
  it('asks the real filesystem: passes above the floor, refuses with both figures below it', () => {
    expect(() => diskSpaceGuard({ dir: tmpdir(), minFreeBytes: 1 }).check()).not.toThrow()

    const changes: DiskSpaceState[] = []
    const guard = diskSpaceGuard({ dir: tmpdir(), minFreeBytes: realFree() + TiB, onChange: (s) => changes.push(s) })
    let refusal: unknown
    try {
      guard.check()
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(DiskFullError)
    const full = refusal as DiskFullError
    expect(full.code).toBe('DISK_FULL')
    expect(full.retryAfterSeconds).toBe(30)
    expect(full.state.low).toBe(true)
    expect(full.state.freeBytes).toBeGreaterThan(0)
    expect(full.state.freeBytes).toBeLessThan(full.state.minFreeBytes)
    expect(full.message).toMatch(/^fewer than \d+ MB free on the data directory's disk \(\d+ MB\)$/)
    // Started below the floor: said once, at start, not once a check.
    expect(() => guard.check()).toThrow(DiskFullError)
    expect(changes).toEqual([expect.objectContaining({ low: true })])
  })

  it('refuses once the space falls below the floor and takes events again once it is back, saying so at each crossing', () => {
    let free = 5_000
    const asked: string[] = []
    const changes: boolean[] = []
    const guard = diskSpaceGuard({
      dir: '/data',
      minFreeBytes: 1_000,
      intervalMs: 0,
      onChange: (s) => changes.push(s.low),
      freeBytes: (dir) => {
        asked.push(dir)
        return free
      },
    })
    expect(() => guard.check()).not.toThrow()
    free = 999
    expect(() => guard.check()).toThrow(DiskFullError)
    expect(() => guard.check()).toThrow(DiskFullError)
    free = 1_000
    expect(() => guard.check()).not.toThrow()
    expect(changes).toEqual([true, false])
    expect(asked.every((d) => d === '/data')).toBe(true)
  })

  it('asks at most once an interval, and keeps its last answer when the filesystem cannot answer', () => {
    let calls = 0
    const guard = diskSpaceGuard({
      dir: '/data',
      minFreeBytes: 1_000,
      intervalMs: 60_000,
      freeBytes: () => {
        calls++
        return 500
      },
    })
    for (let i = 0; i < 1000; i++) expect(() => guard.check()).toThrow(DiskFullError)
    expect(calls).toBe(1)

    let answers = 0
    const broken = diskSpaceGuard({
      dir: '/data',
      minFreeBytes: 1_000,
      intervalMs: 0,
      freeBytes: () => {
        if (answers++ > 0) throw new Error('ENOENT: the directory removed')
        return 10
      },
    })
    expect(() => broken.check()).toThrow(DiskFullError)
    expect(() => broken.check()).toThrow(DiskFullError)
    expect(broken.state()).toMatchObject({ low: true, freeBytes: 10 })
    expect(answers).toBe(3)
  })

  it('is off with a floor of 0', () => {
    const guard = diskSpaceGuard({
      dir: '/nowhere',
      minFreeBytes: 0,
      freeBytes: () => {
        throw new Error('never asked')
      },
    })
    expect(() => guard.check()).not.toThrow()
    expect(guard.state().low).toBe(false)
  })
})
