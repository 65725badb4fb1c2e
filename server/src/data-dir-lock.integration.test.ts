import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startEmptyFl0, type EmptyTestFl0 } from './testing.ts'

/** A second fl0 on a data directory in use stops at once, saying why, and touches nothing. */
let fl0: EmptyTestFl0
beforeAll(async () => {
  fl0 = await startEmptyFl0()
})
afterAll(() => fl0?.stop())

it('refuses to start on a data directory another fl0 is using', async () => {
  const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url))
  const main = fileURLToPath(new URL('./main.ts', import.meta.url))
  const child = spawn(tsx, [main], { env: { ...process.env, FL0_DATA_DIR: fl0.dataDir, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  expect(code).toBe(1)
  expect(output).toContain(`another fl0 is probably using ${fl0.dataDir}. Stop it first`)
  // The first fl0 still answers, and its metadata store was never opened by the second.
  expect((await fetch(`${fl0.url}/healthz`)).status).toBe(200)
  expect(existsSync(join(fl0.dataDir, 'metadata'))).toBe(true)
  const signUp = await fetch(`${fl0.url}/api/auth/local/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: 'analytical engine' }),
  })
  expect(signUp.status).toBe(202)
})
