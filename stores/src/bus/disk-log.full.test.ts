import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The bus log on a disk that fills up: a real one, a tmpfs of 1 MiB mounted in
 * a user and mount namespace of the test's own (`unshare -rm`, as any user may
 * on Debian), where testing/full-disk-log.ts appends until the disk refuses.
 * Where namespaces are not allowed (some containers), the test says so and
 * does not run.
 */
const here = fileURLToPath(new URL('.', import.meta.url))
const repo = resolve(here, '../../..')
const mountPoint = mkdtempSync(join(tmpdir(), 'fl0-full-disk-'))
afterAll(() => rmSync(mountPoint, { recursive: true, force: true }))
const mountable = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$1"', 'sh', mountPoint]).status === 0
if (!mountable) console.warn('disk-log.full.test.ts: not run: this machine lets no test mount a tmpfs in a user namespace of its own (`unshare -rm`)')

/** Runs a script of testing/ with a fresh 1 MiB tmpfs at its first argument, and returns what it printed. */
function onTmpfs(script: string, ...args: string[]): string {
  return execFileSync(
    'unshare',
    ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec "$@"', 'sh', mountPoint, process.execPath, '--import', 'tsx', join(here, 'testing', script), mountPoint, ...args],
    { cwd: repo, encoding: 'utf8', timeout: 60_000 },
  )
}

function fillUp(segmentBytes: number, fillerBytes = 600 * 1024) {
  return JSON.parse(onTmpfs('full-disk-log.ts', String(segmentBytes), String(fillerBytes))) as {
    acknowledged: string[]
    refusals: Array<{ key: string; code: string }>
    stored: Array<{ offset: number; key: string; intact: boolean }>
    files: string[]
    spareBytes: number | null
  }
}

describe.skipIf(!mountable)('the bus on a full disk (a tmpfs in a namespace of its own)', () => {
  it.each([
    ['one segment', 64 * 1024 * 1024],
    ['segments of 128 KiB, rolling and written over zeros', 128 * 1024],
  ])(
    '%s: refuses the appends the disk has no room for, takes appends again once there is room without a restart, and keeps exactly what it acknowledged',
    (_, segmentBytes) => {
      const { acknowledged, refusals, stored, files, spareBytes } = fillUp(segmentBytes)
      // The disk took some records (about 40 of 10 KB beside the 600 KB filler), then refused one, and the next while still full.
      const n = acknowledged.length - 20
      expect(n).toBeGreaterThan(20)
      expect(acknowledged.slice(0, n)).toEqual(Array.from({ length: n }, (_, i) => `k${i}`))
      expect(refusals).toEqual([
        { key: `k${n}`, code: 'ENOSPC' },
        { key: `k${n + 1}`, code: 'ENOSPC' },
      ])
      // Once the filler is gone, the appends after it are acknowledged: the log did not stop for good.
      expect(acknowledged.slice(n)).toEqual(Array.from({ length: 20 }, (_, i) => `k${n + 2 + i}`))
      // Reopened as after a restart: every acknowledged record, intact, in order, at contiguous offsets; nothing refused.
      expect(stored.map((r) => r.key)).toEqual(acknowledged)
      expect(stored.map((r) => r.offset)).toEqual(acknowledged.map((_, i) => i))
      expect(stored.every((r) => r.intact)).toBe(true)
      if (segmentBytes < 1024 * 1024) expect(files.filter((f) => f.endsWith('.log')).length).toBeGreaterThan(3)
      // No next segment the disk had no room for is left, holding the room freed: none, or a whole one.
      if (spareBytes !== null) expect(spareBytes).toBe(segmentBytes)
    },
  )

  it('gives the records the room a next segment could not have: the part of it written is removed, not kept as ready', () => {
    // Segments of 512 KiB beside a 400 KB filler: at half a segment, the next one's 512 KiB of zeros no longer fit.
    const { acknowledged, refusals, stored, spareBytes } = fillUp(512 * 1024, 400 * 1024)
    const n = acknowledged.length - 20
    // About 64 records of 10 KB fit in what the filler leaves; a part of a spare kept would leave room for about 27.
    expect(n).toBeGreaterThan(50)
    expect(refusals.map((r) => r.code)).toEqual(['ENOSPC', 'ENOSPC'])
    expect(stored.map((r) => r.key)).toEqual(acknowledged)
    if (spareBytes !== null) expect(spareBytes).toBe(512 * 1024)
  })

  it('keeps a consumer going when the disk has no room for its offset: once there is room, it commits and gets what comes next', () => {
    const { got, errors } = JSON.parse(onTmpfs('full-disk-bus.ts')) as { got: string[]; errors: string[] }
    expect(errors).toContain('ENOSPC')
    // 'b' may be handed over again (its offset was not written when the disk was full): at least once, never lost.
    expect(got.filter((k) => k !== 'b')).toEqual(['a', 'c'])
    expect(got).toContain('b')
  })
})
