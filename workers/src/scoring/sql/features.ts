import type { EventStore } from '@fl0/stores'
import { Params } from '@fl0/query'
import type { Span, ScoringWindows } from '../windows.ts'
import type { ExclusionSql } from '../excluded-audience.ts'

/**
 * The features: per user, how often they did each event, and each value of
 * the selected properties, in each period a model reads (windows.ts), read
 * from the events store without holding its events: ClickHouse groups them
 * by user into a staging table, which is then read in pages in user order.
 *
 * What counts: track calls with a user id (a person, as the audience engine
 * and the people list say; anonymous visitors are not scored), of events
 * the model keeps (the lexicon mapping's excludedEvents are left out), by
 * users outside the excluded audience. Of the events, the MAX_EVENTS done
 * by the most users over the whole reading; of each selected property
 * (includedProperties, at most MAX_PROPERTIES), its MAX_VALUES values taken
 * by the most users, each its own feature ("integration is Slack"); rarer
 * values count for their event only. Values are read as text, at most
 * VALUE_MAX characters.
 */
export const MAX_EVENTS = 300
export const MAX_PROPERTIES = 50
export const MAX_VALUES = 20
export const VALUE_MAX = 200
/** Users read per page of the staging table. */
export const PAGE_USERS = 2_000

export interface Vocabulary {
  /** Feature j < events.length is events[j]. */
  events: string[]
  /** Feature events.length + k is values[k]. */
  values: Array<{ event: string; property: string; value: string }>
}

export const featureCount = (v: Vocabulary) => v.events.length + v.values.length

export interface FeatureQuery {
  orgId: string
  windows: ScoringWindows
  excludedEvents: string[]
  includedProperties: Array<{ event: string; property: string }>
}

/** The whole reading: from the backtest's first feature day to now. */
const reading = (w: ScoringWindows): Span => ({ ...w.backtestTrain, to: w.label.to, until: w.label.until })

function rangeFilter(p: Params, orgId: string, w: ScoringWindows): string {
  const all = reading(w)
  return `org_id = ${p.bind('String', orgId)} AND type = 'track' AND user_id != '' AND event != ''
      AND timestamp >= ${p.bind("DateTime64(3, 'UTC')", all.since)} AND timestamp <= ${p.bind("DateTime64(3, 'UTC')", all.until)}
      AND toDate(timestamp, ${p.bind('String', w.label.timezone)}) >= ${p.bind('Date', all.from)}`
}

async function rows<T>(store: EventStore, sql: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await store.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })
  return result.json<T>()
}

/** Which events and values become features. */
export async function readVocabulary(store: EventStore, q: FeatureQuery): Promise<Vocabulary> {
  const p = new Params()
  const events = (
    await rows<{ event: string }>(
      store,
      `SELECT event, uniqExact(user_id) AS users FROM events
       WHERE ${rangeFilter(p, q.orgId, q.windows)} AND event NOT IN ${p.bind('Array(String)', q.excludedEvents)}
       GROUP BY event ORDER BY users DESC, event LIMIT ${p.bind('UInt32', MAX_EVENTS)}`,
      p.values,
    )
  ).map((r) => r.event)
  const kept = new Set(events)
  const properties = q.includedProperties.filter((x) => kept.has(x.event)).slice(0, MAX_PROPERTIES)
  if (properties.length === 0) return { events, values: [] }

  const v = new Params()
  const pairs = properties.map((x, i) => `if(event = ${v.bind('String', x.event)}, (${i}, substring(toString(getSubcolumn(properties, ${v.bind('String', x.property)})), 1, ${VALUE_MAX})), (${i}, ''))`)
  const found = await rows<{ i: number; value: string }>(
    store,
    `SELECT pair.1 AS i, pair.2 AS value, uniqExact(user_id) AS users
     FROM (
       SELECT user_id, arrayJoin(arrayFilter(x -> x.2 != '', [${pairs.join(', ')}])) AS pair
       FROM events
       WHERE ${rangeFilter(v, q.orgId, q.windows)} AND event IN ${v.bind('Array(String)', [...new Set(properties.map((x) => x.event))])}
     )
     GROUP BY i, value ORDER BY i, users DESC, value LIMIT ${v.bind('UInt32', MAX_VALUES)} BY i`,
    v.values,
  )
  return { events, values: found.map((r) => ({ ...properties[Number(r.i)]!, value: r.value })) }
}

/** The spans of a user's row, in this order: backtest training, training, scoring. */
export const SPANS = ['backtestTrain', 'train', 'score'] as const

export interface UserRow {
  person: string
  name: string
  /** Per span: the user's feature indices (0-based) and counts; empty when they did nothing there. */
  features: Array<{ indices: number[]; counts: number[] }>
  /** Reached the metric in the date range. */
  reached: boolean
  /** Reached it in the date range before (the backtest's label). */
  reachedBefore: boolean
  /** Per span: had reached the metric within it (such a user is not predicted from it: a model predicts who reaches the metric anew). */
  had: boolean[]
}

export interface Staging {
  /** Reads the users in order, a page at a time. */
  pages(): AsyncGenerator<UserRow[]>
  drop(): Promise<void>
}

/**
 * Groups the features by user into a staging table (one read of the events),
 * with each user's two labels and display name, and hands back a reader of
 * it. The caller drops it (in a finally).
 */
export async function stageFeatures(
  store: EventStore,
  q: FeatureQuery & {
    vocabulary: Vocabulary
    table: string
    reached: (p: Params) => string
    reachedBefore: (p: Params) => string
    /** Who reached the metric within a span (SPANS' names). */
    reachedIn: (p: Params, span: Span) => string
    exclusion?: ExclusionSql
  },
): Promise<Staging> {
  const p = new Params()
  const w = q.windows
  const tz = p.bind('String', w.label.timezone)
  const between = (s: Span, i: number) => `if(d BETWEEN ${p.bind('Date', s.from)} AND ${p.bind('Date', s.to)}, ${i}, -1)`
  const spans = `arrayFilter(x -> x >= 0, [${SPANS.map((name, i) => between(w[name], i)).join(', ')}])`
  const eventsParam = p.bind('Array(String)', q.vocabulary.events)
  // Features are 1-based here (0: none): indexOf's convention.
  const offset = q.vocabulary.events.length
  const byProperty = new Map<string, { event: string; property: string; values: string[]; first: number }>()
  q.vocabulary.values.forEach((x, k) => {
    const key = JSON.stringify([x.event, x.property])
    const entry = byProperty.get(key) ?? { event: x.event, property: x.property, values: [], first: offset + k + 1 }
    entry.values.push(x.value)
    byProperty.set(key, entry)
  })
  const valueFeatures = [...byProperty.values()].map((x) => {
    const values = p.bind('Array(String)', x.values)
    const text = `substring(toString(getSubcolumn(properties, ${p.bind('String', x.property)})), 1, ${VALUE_MAX})`
    return `if(event = ${p.bind('String', x.event)} AND indexOf(${values}, ${text}) > 0, ${x.first - 1} + indexOf(${values}, ${text}), 0)`
  })
  const feats = `arrayFilter(x -> x > 0, [indexOf(${eventsParam}, event)${valueFeatures.map((f) => `, ${f}`).join('')}])`
  const reached = q.reached(p)
  const reachedBefore = q.reachedBefore(p)
  const had = SPANS.map((name, i) => `g.person IN (${q.reachedIn(p, w[name])}) AS had${i}`)
  const org = p.bind('String', q.orgId)

  const sql = `
    CREATE TABLE {stage:Identifier} ENGINE = MergeTree ORDER BY person AS
    SELECT g.person AS person, ifNull(n.name, '') AS name, f0, c0, f1, c1, f2, c2,
      g.person IN (${reached}) AS reached, g.person IN (${reachedBefore}) AS reached_before, ${had.join(', ')}
    FROM (
      SELECT person,
        groupArrayIf(f, s = 0) AS f0, groupArrayIf(c, s = 0) AS c0,
        groupArrayIf(f, s = 1) AS f1, groupArrayIf(c, s = 1) AS c1,
        groupArrayIf(f, s = 2) AS f2, groupArrayIf(c, s = 2) AS c2
      FROM (
        SELECT person, s, f, count() AS c
        FROM (
          SELECT user_id AS person, arrayJoin(spans) AS s, arrayJoin(feats) AS f
          FROM (
            SELECT user_id, toDate(timestamp, ${tz}) AS d, ${spans} AS spans, ${feats} AS feats
            FROM events
            WHERE ${rangeFilter(p, q.orgId, w)} AND event IN ${eventsParam}
          )
        )
        GROUP BY person, s, f
      )
      ${q.exclusion ? `WHERE person NOT IN (${q.exclusion.sql})` : ''}
      GROUP BY person
    ) AS g
    LEFT JOIN (
      -- The name a user's latest identify call gave, else their e-mail.
      SELECT user_id AS person,
        argMaxIf(toString(getSubcolumn(traits, 'name')), timestamp, toString(getSubcolumn(traits, 'name')) != '') AS by_name,
        argMaxIf(toString(getSubcolumn(traits, 'email')), timestamp, toString(getSubcolumn(traits, 'email')) != '') AS by_email,
        if(by_name != '', by_name, by_email) AS name
      FROM events
      WHERE org_id = ${org} AND type = 'identify' AND user_id != ''
      GROUP BY user_id
    ) AS n ON n.person = g.person`
  // A table left by an attempt of this run that died half way.
  await store.client.command({ query: 'DROP TABLE IF EXISTS {stage:Identifier}', query_params: { stage: q.table } })
  await store.client.command({ query: sql, query_params: { ...p.values, ...(q.exclusion?.params ?? {}), stage: q.table } })

  return {
    async *pages() {
      let after = ''
      for (;;) {
        const page = await rows<{
          person: string
          name: string
          f0: Array<string | number>
          c0: Array<string | number>
          f1: Array<string | number>
          c1: Array<string | number>
          f2: Array<string | number>
          c2: Array<string | number>
          reached: number
          reached_before: number
          had0: number
          had1: number
          had2: number
        }>(
          store,
          `SELECT person, name, f0, c0, f1, c1, f2, c2, reached, reached_before, had0, had1, had2 FROM {stage:Identifier}
           WHERE person > {after:String} ORDER BY person LIMIT {n:UInt32}`,
          { stage: q.table, after, n: PAGE_USERS },
        )
        if (page.length === 0) return
        after = page[page.length - 1]!.person
        yield page.map((r) => ({
          person: r.person,
          name: r.name,
          features: [
            { indices: r.f0.map((f) => Number(f) - 1), counts: r.c0.map(Number) },
            { indices: r.f1.map((f) => Number(f) - 1), counts: r.c1.map(Number) },
            { indices: r.f2.map((f) => Number(f) - 1), counts: r.c2.map(Number) },
          ],
          reached: Boolean(r.reached),
          reachedBefore: Boolean(r.reached_before),
          had: [Boolean(r.had0), Boolean(r.had1), Boolean(r.had2)],
        }))
        if (page.length < PAGE_USERS) return
      }
    },
    async drop() {
      await store.client.command({ query: 'DROP TABLE IF EXISTS {stage:Identifier}', query_params: { stage: q.table } })
    },
  }
}
