import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addressKey } from '../ip.ts'
import { AsnTable } from './asn-table.ts'

/** The AS table read from files of the package's shape: numbers, quoted names with commas, CRLF, a bad line. */
describe('the AS table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fl0-asn-'))
  writeFileSync(join(dir, 'asn-ipv4-num.csv'), '16777216,16777471,13335,"Cloudflare, Inc."\r\n16778240,16779263,38803,Gtelecom Pty Ltd\r\nnot,a,row,here\n16779264,16779519,38803,Gtelecom Pty Ltd\n')
  writeFileSync(join(dir, 'asn-ipv6.csv'), '2001:200::,2001:200:1b9:ffff:ffff:ffff:ffff:ffff,2500,"WIDE ""Project"""\n')
  const table = AsnTable.load(dir)

  it('finds the AS of an address, with its name unquoted and its IPv4 size and ranges counted over them', () => {
    expect(table.size).toBe(4)
    expect(table.lookupKey(addressKey('1.0.0.7')!)).toEqual({ asn: 13335, name: 'Cloudflare, Inc.', v4Size: 256, v4Ranges: 1 })
    expect(table.lookupKey(addressKey('1.0.4.1')!)).toEqual({ asn: 38803, name: 'Gtelecom Pty Ltd', v4Size: 1024 + 256, v4Ranges: 2 })
    expect(table.lookupKey(addressKey('1.0.1.0')!)).toBeUndefined()
    expect(table.lookupKey(addressKey('2001:200:1b9::1')!)).toMatchObject({ asn: 2500, name: 'WIDE "Project"' })
    expect(table.lookupKey(addressKey('2001:200:1ba::1')!)).toBeUndefined()
    expect(table.v4RangesOf(38803)).toEqual([[16778240, 16779263], [16779264, 16779519]])
  })
})
