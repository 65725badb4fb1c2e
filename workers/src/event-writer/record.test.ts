import { describe, expect, it } from 'vitest'
import { eventRecordForm as formOf } from '@fl0/contracts'
import { checkRecord, readHead, readHeadBytes } from './record.ts'

const head = (org: string, id: string, time = '2026-03-01 12:00:00.000') => `{"org_id":${JSON.stringify(org)},"message_id":${JSON.stringify(id)},"timestamp":"${time}","type":"track"}`
/** The same head as a row (event-row.ts): the values alone, in the same order. */
const rowHead = (org: string, id: string, time = '2026-03-01 12:00:00.000') => `[${JSON.stringify(org)},${JSON.stringify(id)},"${time}","src","track"]`

describe('readHeadBytes', () => {
  it("reads a record's organisation and message id off its bytes, as readHead reads them off its text", () => {
    for (const make of [head, rowHead])
      for (const line of [make('org_1', 'm-1'), make('org_1', 'ünïcødé ✓ 日本'), make('o', 'x'.repeat(200)), make('', 'm')]) {
        expect(readHeadBytes(Buffer.from(line)), line).toEqual(readHead(line))
        expect(readHeadBytes(Buffer.from(line))).toBeDefined()
      }
    expect(readHead(rowHead('org_1', 'm-1'))).toEqual({ orgId: 'org_1', messageId: 'm-1' })
    expect([formOf(rowHead('o', 'm')), formOf(Buffer.from(rowHead('o', 'm'))), formOf(head('o', 'm')), formOf(Buffer.from(head('o', 'm')))]).toEqual(['row', 'row', 'object', 'object'])
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
      rowHead('org', 'with "quotes"'),
      rowHead('org', 'm', '2026-03-01T12:00:00.000Z'),
      '["org","m"]',
      '["org",1,"2026-03-01 12:00:00.000"]',
      '[{"org_id":"org","message_id":"m","timestamp":"2026-03-01 12:00:00.000"}]',
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
    expect(readHeadBytes(Buffer.from(rowHead('org', 'with "quotes"')))).toBeUndefined()
    expect(readHead(rowHead('org', 'with "quotes"'))).toEqual({ orgId: 'org', messageId: 'with "quotes"' })
    expect(readHead('["org","m"]')).toBeUndefined()
  })
})

describe('checkRecord', () => {
  const row = ['org', 'm', '2026-03-01 12:00:00.000', 'src', 'track', 'Clicked', '', 'u', '', '', '', null, null, '2026-03-01 12:00:01.000', '', '', '', '', '', '', '', { a: 1 }, {}, { page: {} }, '{}', '', '', '', '']
  it('gives a row back as the object of its columns, in their order', () => {
    const checked = checkRecord(JSON.stringify(row))
    expect(checked.ok && JSON.parse(checked.value)).toEqual({
      org_id: 'org', message_id: 'm', timestamp: '2026-03-01 12:00:00.000', source_id: 'src', type: 'track', event: 'Clicked', name: '', user_id: 'u',
      anonymous_id: '', group_id: '', previous_id: '', original_timestamp: null, sent_at: null, received_at: '2026-03-01 12:00:01.000', ip: '', user_agent: '',
      page_url: '', page_path: '', page_referrer: '', page_title: '', page_search: '', properties: { a: 1 }, traits: {}, context: { page: {} }, integrations: '{}',
      context_city: '', context_region: '', context_country: '', context_timezone: '',
    })
    expect(checked.ok && checked.head).toEqual({ orgId: 'org', messageId: 'm' })
  })
  it('says what is wrong with a row', () => {
    expect(checkRecord(JSON.stringify(row.slice(0, 28)))).toEqual({ ok: false, reason: 'not a stored row: 28 values, not 29 to 29' })
    expect(checkRecord(JSON.stringify(row.map((v, i) => (i === 21 ? [1] : v))))).toEqual({ ok: false, reason: 'properties is not an object' })
    expect(checkRecord(JSON.stringify(row.map((v, i) => (i === 1 ? '' : v))))).toEqual({ ok: false, reason: 'message_id missing' })
  })
})
