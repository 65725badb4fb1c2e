/**
 * Run by disk-log.full.test.ts in a mount namespace of its own, with a tmpfs
 * of 1 MiB mounted at argv[2]. A consumer of the embedded bus handles a
 * message while the disk fills up completely, so that its offset cannot be
 * written; then room is freed, and a message published after that must reach
 * it too. Prints what the consumer got and the errors it reported.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createDiskBus } from '../disk.ts'

const root = process.argv[2]!
const errors: string[] = []
const bus = createDiskBus({ dir: join(root, 'bus'), onError: (error) => errors.push(String((error as { code?: string }).code ?? error)) })
const got: string[] = []
let release!: () => void
const gate = new Promise<void>((r) => (release = r))
let holding!: () => void
const held = new Promise<void>((r) => (holding = r))
const consumer = await bus.consume({
  topic: 't',
  group: 'g',
  maxWaitMs: 0,
  onBatch: async (batch) => {
    for (const m of batch) got.push(m.key)
    if (batch.some((m) => m.key === 'b')) {
      holding()
      await gate
    }
  },
})
const until = async (done: () => boolean) => {
  const deadline = Date.now() + 20_000
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
}

await bus.publish('t', [{ key: 'a', value: 'a' }])
await until(() => bus.lag('t', 'g') === 0)
await bus.publish('t', [{ key: 'b', value: 'b' }])
await held
// The disk full to its last byte while 'b' is handled: its offset cannot be written.
const filler = join(root, 'filler')
try {
  writeFileSync(filler, Buffer.alloc(2 * 1024 * 1024))
} catch {
  // ENOSPC once the tmpfs is full: what was written stays.
}
release()
await until(() => errors.includes('ENOSPC'))
rmSync(filler)
await until(() => bus.lag('t', 'g') === 0)
await bus.publish('t', [{ key: 'c', value: 'c' }])
await until(() => got.includes('c'))
await consumer.stop()
await bus.close()
process.stdout.write(JSON.stringify({ got, errors: [...new Set(errors)] }))
