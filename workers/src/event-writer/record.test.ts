import { describe, expect, it } from 'vitest'
import { readHead, readHeadBytes } from './record.ts'

const head = (org: string, id: string, time = '2026-03-01 12:00:00.000') => `{"org_id":${JSON.stringify(org)},"message_id":${JSON.stringify(id)},"timestamp":"${time}","type":"track"}`

describe('readHeadBytes', () => {
  it("reads a record's organisation and message id off its bytes, as readHead reads them off its text", () => {
    for (const line of [head('org_1', 'm-1'), head('org_1', 'ünïcødé ✓ 日本'), head('o', 'x'.repeat(200)), head('', 'm')]) {
      expect(readHeadBytes(Buffer.from(line)), line).toEqual(readHead(line))
      expect(readHeadBytes(Buffer.from(line))).toBeDefined()
    }
  })

  it('reads it from a view inside a larger buffer', () => {
    const whole = Buffer.from(`xxxx${head('org_2', 'm-2')}yyyy`)
    expect(readHeadBytes(whole.subarray(4, whole.length - 4))).toEqual({ orgId: 'org_2', messageId: 'm-2' })
  })

  it('leaves to readHead what it cannot tell, and never reads what readHead would not', () => {
    const lines = [
      head('org', 'with "quotes"'),
      head('org', 'back\\slash'),
      head('org', 'tab\there'),
      head('or"g', 'm'),
      head('org', 'm', '2026-03-01T12:00:00.000Z'),
      head('org', 'm', '2026-03-01 12:00:00'),
      '{"message_id":"m","org_id":"org","timestamp":"2026-03-01 12:00:00.000"}',
      '{"org_id":"org","message_id":"m"',
      '{"org_id":"org","message_id":"m","timestamp":"2026-03-01 12:00:00.000',
      '',
      'not json',
    ]
    for (const line of lines) {
      const fromBytes = readHeadBytes(Buffer.from(line))
      if (fromBytes !== undefined) expect(fromBytes, line).toEqual(readHead(line))
    }
    expect(readHeadBytes(Buffer.from(head('org', 'with "quotes"')))).toBeUndefined()
    expect(readHead(head('org', 'with "quotes"'))).toEqual({ orgId: 'org', messageId: 'with "quotes"' })
    expect(readHeadBytes(Buffer.from(head('org', 'm', '2026-03-01T12:00:00.000Z')))).toBeUndefined()
  })
})
