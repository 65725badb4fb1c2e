/**
 * The dashboard calls the query benchmarks time, one definition each: the
 * engines' own (metrics.ts, audiences.ts) and through the HTTP API while
 * ingesting (dashboard-under-load.ts) measure the same thing.
 */

/** The 30-day line of unique users, any event (issue 7's first goal). */
export const LINE_ANY_EVENT = { isAnyEvent: true, dateRange: 'last30Days', graphType: 'line' } as const

/** A three-step funnel over 30 days (issue 7's second goal). */
export const FUNNEL_THREE_STEPS = {
  events: [{ name: 'Logged In' }, { name: 'Report Created' }, { name: 'Export Downloaded' }],
  operation: 'ordered',
  graphType: 'funnel',
  dateRange: 'last30Days',
} as const

/** Three trait filters (a user trait, a company trait, a user trait's text) and one action: issue 8's audience. */
export const AUDIENCE_FILTERS = {
  match_aggregation: 'and',
  matches: [
    { kind: 'user', trait: 'plan', string_op: 'is_not', value: 'free' },
    { kind: 'company', trait: 'employees', number_op: 'greater_than', value: 50 },
    { kind: 'user', trait: 'role', string_op: 'contains', value: 'e' },
  ],
  action_aggregation: 'and',
  actions: [{ kind: 'event', event_name: 'Report Created', occurrence_op: 'greater_than_or_equal_to', value: 1, date_range: { kind: 'last', value: 7, unit: 'day' } }],
} as const
