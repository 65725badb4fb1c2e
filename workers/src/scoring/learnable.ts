import { DATE_RANGES, excludedAudienceSchema, metricDefinitionSchema, type DateRange, type ExcludedAudience, type ScoringCheck } from '@fl0/contracts'
import { findMetric, getOrgSettings, type EventStore, type Sql } from '@fl0/stores'
import { isKnownZone, Params, planMetric, type MetricPlan } from '@fl0/query'
import { exclusionFilters, exclusionSql, traitTypes, type ExclusionSql } from './excluded-audience.ts'
import { reachedSql } from './sql/labels.ts'
import { scoringWindows, type ScoringWindows, type Span } from './windows.ts'

/**
 * Can a model of this metric and date range learn anything? One rule, applied
 * by the run dialog before a run (POST …/scoring-models/check) and by the
 * trainer before it reads any feature, so the dialog never promises what the
 * run then refuses:
 *
 *   - it learns from users with a user id who did an event of the model
 *     before the date range (the metric's own events do not count: they are
 *     left out of the features, leaks.ts), outside the excluded audience,
 *     who had not reached the metric in that time: a model predicts who
 *     reaches the metric anew (who connected an integration last month is
 *     not a lead for connecting one);
 *   - at least MIN_PER_CLASS of them must reach the metric in the date range,
 *     and at least MIN_PER_CLASS must not.
 *
 * When the rule fails, the message says in a sentence what to change: a
 * shorter range when there is no history before it, a metric that users
 * already active can reach when those who reach it are all new (a funnel
 * that starts with signing up), a longer range or a commoner metric when
 * too few reach it, a shorter range or a rarer metric when almost all do.
 */

/** Fewer users of either outcome than this, and there is nothing to learn. */
export const MIN_PER_CLASS = 5

export class ScoringFailure extends Error {}

/** A model's settings read for a run, a check or a re-score. */
export interface Prepared {
  orgId: string
  metricName: string
  plan: MetricPlan
  timezone: string
  windows: ScoringWindows
  exclusion: ExclusionSql | undefined
  /** The metric's own events by name: never features (leaks.ts). */
  metricEvents: string[]
}

export interface PrepareInput {
  orgId: string
  metricId: string
  dateRange: DateRange
  excludedAudience: unknown
  now: Date
}

/** Reads the metric, its plan, the periods and the excluded audience; a ScoringFailure says what cannot be used. */
export async function prepare(deps: { sql: Sql; events: EventStore }, input: PrepareInput): Promise<Prepared> {
  const { orgId, now } = input
  const metric = await findMetric(deps.sql, orgId, input.metricId)
  if (!metric) throw new ScoringFailure('The metric of this model no longer exists: choose another in the Settings tab.')
  const definition = metricDefinitionSchema.safeParse(metric.definition)
  if (!definition.success) throw new ScoringFailure(`The metric "${metric.name}" cannot be read: open it in Metrics and save it again, or choose another in the Settings tab.`)
  const settings = await getOrgSettings(deps.sql, orgId)
  const timezone = isKnownZone(settings.timezone) ? settings.timezone : 'UTC'
  const planned = planMetric(definition.data, { now, timezone })
  if (!planned.ok) throw new ScoringFailure(`The metric "${metric.name}" has filters that cannot be used (${planned.errors.map((e) => e.message).join('; ')}): correct them in Metrics, or choose another metric in the Settings tab.`)
  const plan = planned.plan
  if (plan.steps.length === 0) throw new ScoringFailure(`The metric "${metric.name}" counts no events, so no one can reach it: choose its events in Metrics, or another metric in the Settings tab.`)
  const excluded: ExcludedAudience = excludedAudienceSchema.parse(input.excludedAudience)
  const read = exclusionFilters(excluded, await traitTypes(deps.events, orgId))
  if (!read.ok) throw new ScoringFailure(`The excluded audience cannot be used (${read.errors.map((e) => e.message).join('; ')}): change it in the Settings tab.`)
  const exclusion = await exclusionSql(deps, { orgId, filters: read.filters, now })
  return {
    orgId,
    metricName: metric.name,
    plan,
    timezone,
    windows: scoringWindows(now, timezone, input.dateRange),
    exclusion,
    metricEvents: metricEventsOf(plan),
  }
}

/** The events a metric counts, by name; none when it counts any event (then every event is its own, and none is left out). */
export function metricEventsOf(plan: MetricPlan): string[] {
  if (plan.steps.some((s) => s.event === null)) return []
  return [...new Set(plan.steps.map((s) => s.event!))]
}

export interface LearnCounts {
  /** Users active before the date range who had not reached the metric then: whom the model learns from. */
  usersBefore: number
  /** Users active before the date range who had reached the metric then: left out. */
  alreadyReached: number
  /** Of them, those who reached the metric in the date range. */
  reached: number
  /** Those who reached it in the date range with no event of the model before it. */
  reachedNew: number
  /** The organisation's first day with events, in its zone; null with none. */
  firstDay: string | null
}

const count = (n: number) => n.toLocaleString('en-US')
/** A day as the dashboard writes it: "Oct 26, 2026". */
export function dayText(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

/** The rule, on counts: learnable or not, and the sentence that says so. */
export function learnability(c: LearnCounts, q: { metricName: string; label: Pick<Span, 'from' | 'to'> }): { learnable: boolean; message: string } {
  const from = dayText(q.label.from)
  const to = dayText(q.label.to)
  const metric = `"${q.metricName}"`
  if (c.usersBefore === 0) {
    if (c.firstDay === null) return { learnable: false, message: 'No user has done an event yet: a model learns from what users did, so send some events first.' }
    if (c.firstDay >= q.label.from) {
      return {
        learnable: false,
        message: `Events start on ${dayText(c.firstDay)}, and a model learns from what users did before the date range (from ${from}): choose a shorter date range.`,
      }
    }
    if (c.alreadyReached > 0) {
      return {
        learnable: false,
        message: `Every one of the ${count(c.alreadyReached)} users active before ${from} had reached ${metric} already, and a model predicts who reaches a metric anew: choose a metric fewer users have reached.`,
      }
    }
    return { learnable: false, message: `No user with a user id did an event before ${from} other than the metric's own: a model learns from what identified users did before the date range.` }
  }
  const before = c.alreadyReached > 0 ? `users active before ${from} who had not reached it then` : `users active before ${from}`
  if (c.reached < MIN_PER_CLASS) {
    const some = c.reached === 0 ? `None of the ${count(c.usersBefore)} ${before}` : `Only ${count(c.reached)} of the ${count(c.usersBefore)} ${before}`
    if (c.reached + c.reachedNew >= MIN_PER_CLASS) {
      return {
        learnable: false,
        message: `${some} reached ${metric} between ${from} and ${to}; the ${count(c.reachedNew)} others who did were new. A model learns only from users with a history before the date range, so choose a metric that users already active reach (a funnel that starts with signing up cannot be learned).`,
      }
    }
    return { learnable: false, message: `${some} reached ${metric} between ${from} and ${to}, and a model needs at least ${MIN_PER_CLASS}: choose a longer date range or a metric more users reach.` }
  }
  if (c.usersBefore - c.reached < MIN_PER_CLASS) {
    return {
      learnable: false,
      message: `${count(c.reached)} of the ${count(c.usersBefore)} ${before} reached ${metric} between ${from} and ${to}, which leaves nothing to tell apart: choose a shorter date range or a metric fewer users reach.`,
    }
  }
  const share = `${((c.reached / c.usersBefore) * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
  return { learnable: true, message: `A model learns from the ${count(c.usersBefore)} ${before}: ${count(c.reached)} of them (${share}) reached ${metric} between ${from} and ${to}.` }
}

async function rows<T>(store: EventStore, sql: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await store.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })
  return result.json<T>()
}

/** The users active before the date range (events of the model, outside the excluded audience), by user id. */
export function activeBeforeSql(p: Params, prepared: Prepared, excludedEvents: string[] = []): string {
  const w = prepared.windows
  const left = [...prepared.metricEvents, ...excludedEvents]
  return `SELECT DISTINCT user_id FROM events
    WHERE org_id = ${p.bind('String', prepared.orgId)} AND type = 'track' AND user_id != '' AND event != ''
      AND event NOT IN ${p.bind('Array(String)', left)}
      AND timestamp >= ${p.bind("DateTime64(3, 'UTC')", w.train.since)} AND timestamp <= ${p.bind("DateTime64(3, 'UTC')", w.train.until)}
      AND toDate(timestamp, ${p.bind('String', w.train.timezone)}) BETWEEN ${p.bind('Date', w.train.from)} AND ${p.bind('Date', w.train.to)}
      ${prepared.exclusion ? `AND user_id NOT IN (${prepared.exclusion.sql})` : ''}`
}

/** The organisation's first day with events, in its zone; null with none. */
export async function firstEventDay(events: EventStore, prepared: Prepared): Promise<string | null> {
  const p = new Params()
  const [row] = await rows<{ first_day: string | null }>(
    events,
    `SELECT if(count() = 0, NULL, toString(toDate(min(timestamp), ${p.bind('String', prepared.timezone)}))) AS first_day FROM events WHERE org_id = ${p.bind('String', prepared.orgId)}`,
    p.values,
  )
  return row?.first_day ?? null
}

/** The rule's counts for the prepared date range, in one query of the events store (the first day, which no date range changes, is the caller's). */
export async function learnCounts(events: EventStore, prepared: Prepared, excludedEvents: string[], firstDay: string | null): Promise<LearnCounts> {
  const p = new Params()
  const active = activeBeforeSql(p, prepared, excludedEvents)
  const had = reachedSql(p, prepared.plan, prepared.orgId, prepared.windows.train)
  const before = `SELECT user_id FROM (${active}) WHERE user_id NOT IN (${had})`
  const reached = reachedSql(p, prepared.plan, prepared.orgId, prepared.windows.label)
  const [row] = await rows<{ before: string | number; already: string | number; reached: string | number; reached_new: string | number }>(
    events,
    `SELECT
       (SELECT count() FROM (${before})) AS before,
       (SELECT countIf(user_id IN (${had})) FROM (${active})) AS already,
       (SELECT countIf(person IN (${before})) FROM (${reached})) AS reached,
       (SELECT countIf(person NOT IN (${active})) FROM (${reached})) AS reached_new`,
    { ...p.values, ...(prepared.exclusion?.params ?? {}) },
  )
  return { usersBefore: Number(row?.before ?? 0), alreadyReached: Number(row?.already ?? 0), reached: Number(row?.reached ?? 0), reachedNew: Number(row?.reached_new ?? 0), firstDay }
}

/** The run dialog's check: the rule for the chosen date range, and for every date range offered. */
export async function checkLearnable(deps: { sql: Sql; events: EventStore }, input: PrepareInput & { excludedEvents: string[] }): Promise<ScoringCheck> {
  const prepared = await prepare(deps, input)
  const firstDay = await firstEventDay(deps.events, prepared)
  const ranges: ScoringCheck['ranges'] = []
  let chosen: { label: Span; counts: LearnCounts } | undefined
  for (const dateRange of DATE_RANGES) {
    const windows = scoringWindows(input.now, prepared.timezone, dateRange)
    const counts = await learnCounts(deps.events, { ...prepared, windows }, input.excludedEvents, firstDay)
    const { learnable } = learnability(counts, { metricName: prepared.metricName, label: windows.label })
    ranges.push({ dateRange, learnable, usersBefore: counts.usersBefore, reached: counts.reached })
    if (dateRange === input.dateRange) chosen = { label: windows.label, counts }
  }
  const { label, counts } = chosen!
  return { ...learnability(counts, { metricName: prepared.metricName, label }), dateRange: input.dateRange, from: label.from, to: label.to, ...counts, ranges }
}
