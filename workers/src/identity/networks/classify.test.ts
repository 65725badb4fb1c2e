import { describe, expect, it } from 'vitest'
import { classifyNetwork, PROVIDER_RANGES, PROVIDER_SIZE, readableName } from './classify.ts'

/** The rules for networks no list knows: by their published name, then their size (classify.ts). */
const kind = (name: string, v4Size = 4096, v4Ranges = 2) => classifyNetwork({ asn: 4_000_000_000, name, v4Size, v4Ranges }).kind

describe('classifying a network', () => {
  it('takes providers by the words they use of themselves, in several languages', () => {
    for (const name of ['Hetzner Online GmbH', 'UAB Cherry Servers', 'Acme Cloud Hosting Ltd', 'Some Data Center LLC', 'FastVPN S.A.']) expect(kind(name)).toBe('hosting')
    for (const name of ['Safaricom Limited', 'Example Wireless Inc.', 'Telefonica Moviles Chile']) expect(kind(name)).toBe('mobile')
    for (const name of ['Northwind Broadband', 'PT. Telekomunikasi Indonesia', 'Rogers Communications Canada Inc.', 'Kabel Nord GmbH', 'Fibra Rio Ltda', 'Example Networks', 'Example Net']) expect(kind(name)).toBe('isp')
  })

  it('names universities and governments, but not the research networks that carry many of them', () => {
    expect(kind('Universität Hamburg')).toBe('education')
    expect(kind('Imperial College London')).toBe('education')
    expect(kind('Ministerio de Hacienda')).toBe('government')
    expect(kind('City of Springfield')).toBe('government')
    expect(kind('China Education and Research Network Center')).toBe('isp')
    expect(kind('SURF B.V.')).toBe('isp')
  })

  it('takes a company for a company, unless it announces more than a /14, or more than 16 separate ranges, under no known name', () => {
    expect(kind('Nestle USA')).toBe('company')
    expect(kind('Some Conglomerate Inc.', PROVIDER_SIZE + 1)).toBe('isp')
    expect(kind('Regional Holdings Ltd', 65_536, PROVIDER_RANGES + 1)).toBe('isp')
    expect(kind('Regional Holdings Ltd', 65_536, PROVIDER_RANGES)).toBe('company')
    expect(kind('')).toBe('isp')
  })

  it('knows clouds named after companies and companies larger than the size rule', () => {
    expect(classifyNetwork({ asn: 16509, name: 'Amazon.com, Inc.', v4Size: 1e8, v4Ranges: 900 })).toEqual({ kind: 'hosting', name: 'Amazon.com, Inc.', domain: '' })
    expect(classifyNetwork({ asn: 8075, name: 'Microsoft Corporation', v4Size: 1e8, v4Ranges: 900 }).kind).toBe('hosting')
    expect(classifyNetwork({ asn: 714, name: 'Apple Inc.', v4Size: 2 ** 24, v4Ranges: 40 })).toEqual({ kind: 'company', name: 'Apple', domain: 'apple.com' })
    expect(classifyNetwork({ asn: 7922, name: 'Comcast Cable Communications, LLC', v4Size: 6e7, v4Ranges: 900 }).kind).toBe('isp')
  })

  it('reads names published in capitals as people write them', () => {
    expect(readableName('CISCO SYSTEMS, INC.')).toBe('Cisco Systems, Inc.')
    expect(readableName('ACME GMBH')).toBe('Acme GmbH')
    expect(readableName('Toyota Motor Sales, U.S.A., Inc.')).toBe('Toyota Motor Sales, U.S.A., Inc.')
  })
})
