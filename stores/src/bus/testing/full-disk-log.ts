/**
 * Run by disk-log.full.test.ts in a mount namespace of its own, with a tmpfs
 * of 1 MiB mounted at argv[2]: a real disk that fills up, argv[4] bytes of it
 * taken by a filler. Appends to a log there (its segments of argv[3] bytes)
 * until the disk refuses one, once more
 * while it is still full, then frees room and appends again; then reopens the
 * log as a restart would, and prints what was acknowledged, refused and found,
 * and what else is left in the log's directory.
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DiskLog } from '../disk-log.ts'

const root = process.argv[2]!
const segmentBytes = Number(process.argv[3])
const fillerBytes = Number(process.argv[4] ?? 600 * 1024)
const dir = join(root, 'log')
const filler = join(root, 'filler')
writeFileSync(filler, Buffer.alloc(fillerBytes))

const log = new DiskLog({ dir, segmentBytes })
const padding = 'x'.repeat(10_000)
const acknowledged: string[] = []
const refusals: Array<{ key: string; code: string }> = []
let next = 0
const append = async () => {
  const key = `k${next++}`
  try {
    await log.append([{ key, value: `${key}:${padding}` }])
    acknowledged.push(key)
    return true
  } catch (error) {
    refusals.push({ key, code: String((error as { code?: string }).code ?? (error as Error).message) })
    return false
  }
}

while (next < 1000 && (await append()));
// Still full: refused again (the record is larger than what is left), not refused for good.
await append()
rmSync(filler)
// Room for about 60 records again: 20 more, across rolls where the segments are small.
for (let i = 0; i < 20; i++) await append()
await log.close()
// A next segment left on disk (closing waits for the one being written) must be whole: a part of one holds room for nothing.
const spare = join(dir, 'next-segment.zeros')
const spareBytes = existsSync(spare) ? statSync(spare).size : null

const reopened = new DiskLog({ dir, segmentBytes })
const reader = reopened.openReader(0)
const stored: Array<{ offset: number; key: string; intact: boolean }> = []
for (;;) {
  const batch = await reader.read(1000)
  if (batch.length === 0) break
  for (const r of batch) stored.push({ offset: r.offset, key: r.key, intact: r.value.toString() === `${r.key}:${padding}` })
}
await reader.close()
await reopened.close()
process.stdout.write(JSON.stringify({ acknowledged, refusals, stored, files: readdirSync(dir), spareBytes }))
