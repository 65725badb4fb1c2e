import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from './config.ts'

/** The Paragon settings as fl0 reads them at start (README, Configuration). */
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string
const PROJECT = '38b1f170-0c43-4eae-9a04-ab85325d99f7'

describe('Paragon configuration', () => {
  it('is absent by default', () => {
    expect(loadConfig({}).paragon).toBeUndefined()
  })

  it('takes the key inline, with real newlines or written as \\n, or from a file', () => {
    expect(loadConfig({ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY: pem }).paragon).toEqual({ projectId: PROJECT, signingKey: pem, sdkUrl: undefined })
    const oneLine = pem.trim().replaceAll('\n', '\\n')
    expect(loadConfig({ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY: oneLine }).paragon?.signingKey).toBe(oneLine)
    const file = join(mkdtempSync(join(tmpdir(), 'fl0-paragon-')), 'signing-key.pem')
    writeFileSync(file, pem)
    expect(loadConfig({ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY_FILE: file, PARAGON_SDK_URL: 'https://paragon.internal/sdk.js' }).paragon).toEqual({
      projectId: PROJECT,
      signingKey: pem,
      sdkUrl: 'https://paragon.internal/sdk.js',
    })
  })

  it.each([
    [{ PARAGON_PROJECT_ID: PROJECT }, 'PARAGON_SIGNING_KEY: must be set (or PARAGON_SIGNING_KEY_FILE) with PARAGON_PROJECT_ID'],
    [{ PARAGON_SIGNING_KEY: pem }, 'PARAGON_PROJECT_ID: must be set with the Paragon signing key'],
    [{ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY: pem, PARAGON_SIGNING_KEY_FILE: '/x' }, 'PARAGON_SIGNING_KEY: set PARAGON_SIGNING_KEY or PARAGON_SIGNING_KEY_FILE, not both'],
    [{ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY: 'secret' }, 'PARAGON_SIGNING_KEY: the Paragon signing key is not a PEM private key'],
    [{ PARAGON_PROJECT_ID: PROJECT, PARAGON_SIGNING_KEY_FILE: '/no/such/key.pem' }, 'PARAGON_SIGNING_KEY_FILE: cannot read /no/such/key.pem'],
    [{ PARAGON_SDK_URL: 'javascript:alert(1)' }, 'PARAGON_SDK_URL: must be an http:// or https:// URL'],
  ])('stops at start on %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})
