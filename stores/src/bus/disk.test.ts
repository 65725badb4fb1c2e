import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { busContract } from './bus.contract.ts'
import { createDiskBus } from './disk.ts'

const dir = mkdtempSync(join(tmpdir(), 'fl0-bus-'))
busContract('disk', async () => createDiskBus({ dir }))
