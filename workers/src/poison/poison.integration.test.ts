import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDiskBus } from '@fl0/stores'
import { poisonContract } from './poison.contract.ts'

poisonContract('disk', async () => createDiskBus({ dir: mkdtempSync(join(tmpdir(), 'fl0-poison-bus-')) }))
