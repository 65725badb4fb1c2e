import { describe, expect, it } from 'vitest'
import { EVENT_ROW_COLUMNS, eventOfRecord, eventRecordText, FIRST_EVENT_ROW_LENGTH, parseEventRecord, type IngestedEvent } from './index.ts'

const event: Required<IngestedEvent> = {
  org_id: 'org',
  message_id: 'm-1',
  timestamp: '2026-03-01 12:00:00.000',
  source_id: 'src',
  type: 'identify',
  event: '',
  name: '',
  user_id: 'u-1',
  anonymous_id: 'a-1',
  group_id: '',
  previous_id: '',
  original_timestamp: '2026-03-01 11:59:59.000',
  sent_at: null,
  received_at: '2026-03-01 12:00:01.000',
  ip: '203.0.113.9',
  user_agent: 'UA "quoted"',
  page_url: 'https://s.test/p',
  page_path: '/p',
  page_referrer: '',
  page_title: 'P',
  page_search: '',
  properties: {},
  traits: { email: 'a@b.test', nested: { n: [1, 2] } },
  context: { page: { path: '/p' }, ip: '203.0.113.9' },
  integrations: '{"All":true}',
  context_city: 'Lyon',
  context_region: '',
  context_country: 'France',
  context_timezone: 'Europe/Paris',
}

describe('an event on the bus', () => {
  it('is its values in the columns\' order, org_id, message_id and timestamp first', () => {
    const row = JSON.parse(eventRecordText(event)) as unknown[]
    expect(row).toEqual(EVENT_ROW_COLUMNS.map((c) => event[c]))
    expect(EVENT_ROW_COLUMNS.slice(0, 3)).toEqual(['org_id', 'message_id', 'timestamp'])
    // Every key of the event, each once.
    expect([...EVENT_ROW_COLUMNS].sort()).toEqual(Object.keys(event).sort())
  })

  it('reads back as the event, whichever form it was written in', () => {
    expect(parseEventRecord(eventRecordText(event))).toEqual(event)
    expect(parseEventRecord(JSON.stringify(event))).toEqual(event)
    expect(Object.keys(parseEventRecord(eventRecordText(event)) as object)).toEqual(Object.keys(event))
  })

  it('goes as an object when it has no place columns, for ClickHouse to derive them', () => {
    const { context_city, context_region, context_country, context_timezone, ...older } = event
    expect(JSON.parse(eventRecordText(older))).toEqual(older)
  })

  it('has as many columns as the first rows had values, or more: columns are only appended', () => {
    expect(EVENT_ROW_COLUMNS.length).toBeGreaterThanOrEqual(FIRST_EVENT_ROW_LENGTH)
    expect(EVENT_ROW_COLUMNS.slice(0, FIRST_EVENT_ROW_LENGTH)).toEqual([
      'org_id', 'message_id', 'timestamp', 'source_id', 'type', 'event', 'name', 'user_id', 'anonymous_id', 'group_id', 'previous_id', 'original_timestamp', 'sent_at', 'received_at', 'ip',
      'user_agent', 'page_url', 'page_path', 'page_referrer', 'page_title', 'page_search', 'properties', 'traits', 'context', 'integrations', 'context_city', 'context_region', 'context_country', 'context_timezone',
    ])
  })

  it('leaves what is not a row as it is, for the reader to refuse', () => {
    const row = JSON.parse(eventRecordText(event)) as unknown[]
    expect(eventOfRecord(row.slice(0, FIRST_EVENT_ROW_LENGTH - 1))).toEqual(row.slice(0, FIRST_EVENT_ROW_LENGTH - 1))
    expect(eventOfRecord([...row, 'a value of a later fl0'])).toEqual([...row, 'a value of a later fl0'])
    expect(eventOfRecord(['org', 'm'])).toEqual(['org', 'm'])
    expect(eventOfRecord('text')).toBe('text')
    expect(eventOfRecord(null)).toBe(null)
    expect(() => parseEventRecord('not json')).toThrow()
  })
})
