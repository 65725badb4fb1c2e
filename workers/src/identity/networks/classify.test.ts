import { describe, expect, it } from 'vitest'
import { classifyNetwork, PROVIDER_SIZE, readableName } from './classify.ts'

/** The rules for networks no list knows: by their published name, then their size (classify.ts). */
const kind = (name: string, v4Size = 4096) => classifyNetwork(4_000_000_000, name, v4Size).kind

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

  it('takes a company for a company, unless it announces more than a /12 under no known name', () => {
    expect(kind('Nestle USA')).toBe('company')
    expect(kind('Some Conglomerate Inc.', PROVIDER_SIZE + 1)).toBe('isp')
    expect(kind('')).toBe('isp')
  })

  it('knows clouds named after companies and companies larger than the size rule', () => {
    expect(classifyNetwork(16509, 'Amazon.com, Inc.', 1e8)).toEqual({ kind: 'hosting', name: 'Amazon.com, Inc.', domain: '' })
    expect(classifyNetwork(8075, 'Microsoft Corporation', 1e8).kind).toBe('hosting')
    expect(classifyNetwork(714, 'Apple Inc.', 2 ** 24)).toEqual({ kind: 'company', name: 'Apple', domain: 'apple.com' })
    expect(classifyNetwork(7922, 'Comcast Cable Communications, LLC', 6e7).kind).toBe('isp')
  })

  it('reads names published in capitals as people write them', () => {
    expect(readableName('CISCO SYSTEMS, INC.')).toBe('Cisco Systems, Inc.')
    expect(readableName('ACME GMBH')).toBe('Acme GmbH')
    expect(readableName('Toyota Motor Sales, U.S.A., Inc.')).toBe('Toyota Motor Sales, U.S.A., Inc.')
  })
})
