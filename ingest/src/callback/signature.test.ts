import { execFileSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { callbackCanonicalString } from '@fl0/contracts'
import { checkSignature, signCallback } from './signature.ts'

/** A signed callback's verdict, and the signature as docs/identification.md tells partners to make it. */
const SECRET = 'a3f1c0de'.repeat(8)
const NOW_S = 1_772_442_000 // 2026-03-02T09:00:00Z
const fields = { org: 'acme', ts: String(NOW_S), puid: 'p-1', hem: '', upid: '5x5-00000000000000000000000000000042' }
const signed = { ...fields, sig: signCallback(fields, SECRET) }
const DOC = readFileSync(new URL('../../../docs/identification.md', import.meta.url), 'utf8')

describe('callback signatures', () => {
  it('signs the version, org, ts, puid, hem and upid, one a line', () => {
    expect(callbackCanonicalString(fields)).toBe('fl0-callback-v1\nacme\n1772442000\np-1\n\n5x5-00000000000000000000000000000042')
  })

  it('is what the shell example of the partner documentation makes with openssl', () => {
    const script = DOC.split('\n').find((line) => line.startsWith('sig=$(printf'))!.replace(/^sig=\$\((.*)\)$/, '$1')
    const out = execFileSync('sh', ['-c', script], { env: { ...process.env, ...fields, secret: SECRET }, encoding: 'utf8' })
    expect(out.trim()).toBe(signed.sig)
  })

  it('is what the Node example of the partner documentation makes', () => {
    const code = /```js\n([\s\S]*?)```/.exec(DOC)![1]!.replace(/^import .*$/m, '')
    const signedCallbackUrl = new Function('createHmac', `${code}; return signedCallbackUrl`)(createHmac)
    const url = new URL(signedCallbackUrl({ base: 'https://fl0.example.com', org: 'acme', secret: SECRET, puid: 'p-1', upid: fields.upid }))
    const q = Object.fromEntries(url.searchParams) as Record<string, string>
    expect(q).toMatchObject({ org: 'acme', puid: 'p-1', hem: '', upid: fields.upid })
    expect(checkSignature(q as unknown as Parameters<typeof checkSignature>[0], SECRET, Date.now())).toBe('ok')
  })

  it('takes a valid signature within five minutes either way, in either case of hex', () => {
    expect(checkSignature(signed, SECRET, NOW_S * 1000)).toBe('ok')
    expect(checkSignature({ ...signed, sig: signed.sig.toUpperCase() }, SECRET, NOW_S * 1000)).toBe('ok')
    expect(checkSignature(signed, SECRET, (NOW_S + 300) * 1000)).toBe('ok')
    expect(checkSignature(signed, SECRET, (NOW_S - 300) * 1000)).toBe('ok')
  })

  it('refuses what is unsigned, signed otherwise, or out of window', () => {
    expect(checkSignature({ ...signed, sig: '' }, SECRET, NOW_S * 1000)).toBe('missing_signature')
    expect(checkSignature({ ...signed, ts: '' }, SECRET, NOW_S * 1000)).toBe('missing_signature')
    expect(checkSignature(signed, 'b'.repeat(64), NOW_S * 1000)).toBe('bad_signature')
    expect(checkSignature({ ...signed, upid: '5x5-00000000000000000000000000000043' }, SECRET, NOW_S * 1000)).toBe('bad_signature')
    expect(checkSignature({ ...signed, org: 'other' }, SECRET, NOW_S * 1000)).toBe('bad_signature')
    expect(checkSignature({ ...signed, sig: 'zz' }, SECRET, NOW_S * 1000)).toBe('bad_signature')
    expect(checkSignature({ ...signed, sig: signed.sig.slice(2) }, SECRET, NOW_S * 1000)).toBe('bad_signature')
    // A valid signature of another time is a replay, or a partner's clock gone astray.
    expect(checkSignature(signed, SECRET, (NOW_S + 301) * 1000)).toBe('stale_timestamp')
    expect(checkSignature(signed, SECRET, (NOW_S - 301) * 1000)).toBe('stale_timestamp')
    const odd = { ...fields, ts: '1.7e9' }
    expect(checkSignature({ ...odd, sig: signCallback(odd, SECRET) }, SECRET, NOW_S * 1000)).toBe('stale_timestamp')
  })
})
