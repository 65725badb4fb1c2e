import { DAY_MS, planDay, type SessionPlan } from './plan.ts'
import { DEFAULT_RULE } from './product.ts'
import { hashSeed } from './random.ts'
import { renderSession } from './sessions.ts'
import { streamMessages } from './stream.ts'
import type { DemoMessage, PlantedRule } from './types.ts'
import { buildWorld, type World } from './world.ts'

export type { Company, Person, Device, DemoMessage, SegmentMessage, SourceKind, Truth, PlantedRule } from './types.ts'
export type { World } from './world.ts'
export { DEFAULT_RULE, HABIT_EVENTS, FEATURES } from './product.ts'
export { PROVIDER_POOLS, CORPORATE_V4, type ProviderPool } from './addresses.ts'
export { FREE_MAIL_DOMAINS } from './catalog.ts'
export { SITE_HOST } from './site.ts'

/**
 * The demo generator: a deterministic world of companies and people and their
 * traffic over a window of days ending now, as Segment calls in time order.
 *
 *   const demo = createDemo({ seed: 42, companies: 300, people: 3000, days: 90 })
 *   for (const { source, message, truth } of demo.messages()) …
 *
 * Pure: no I/O, no Math.random, no clock but `now` (passed in, default the
 * current time). Same seed, sizes, rule and UTC day of `now` → the same world
 * and the same calls with the same message ids; a later `now` on the same day
 * only adds the calls that have since "happened".
 */
export interface DemoOptions {
  seed?: number
  companies?: number
  people?: number
  /** Whole UTC days, the last being today. */
  days?: number
  now?: Date
  /** About this many calls in all: scales the visit rates (the sign-ups and other fixed moments stay). */
  events?: number
  /** The visit rates' multiplier itself (overrides `events`), e.g. a scale an earlier createDemo worked out. */
  scale?: number
  rule?: PlantedRule
}

export const DEFAULTS = { seed: 42, companies: 300, people: 3000, days: 90 } as const

export interface Demo {
  seed: number
  companies: number
  people: number
  days: number
  /** The first instant of the window (00:00 UTC of its first day) and its end (now). */
  window: { start: Date; end: Date }
  /** Multiplies every visit rate; 1 unless `events` asked for another size. */
  scale: number
  /** Eight hex digits naming this run's data set: every message id starts `demo-<runId>-`. */
  runId: string
  /** The ground truth: the world the traffic comes from. */
  world: World
  /** A fresh pass over every call of the window, in timestamp order. */
  messages(): Generator<DemoMessage>
}

export function createDemo(options: DemoOptions = {}): Demo {
  const seed = integer('seed', options.seed ?? DEFAULTS.seed, 0)
  const companies = integer('companies', options.companies ?? DEFAULTS.companies, 0)
  const people = integer('people', options.people ?? DEFAULTS.people, 0)
  const days = integer('days', options.days ?? DEFAULTS.days, 1)
  const rule = options.rule ?? DEFAULT_RULE
  const now = options.now ?? new Date()
  if (Number.isNaN(now.getTime())) throw new Error('now must be a valid date')
  const endDay = Math.floor(now.getTime() / DAY_MS)
  const windowStart = (endDay - days + 1) * DAY_MS
  const world = buildWorld(seed, { companies, people, days }, rule)
  const baseKey = `${seed}:${companies}:${people}:${days}:${endDay}:${JSON.stringify(rule)}`
  const scale =
    options.scale !== undefined
      ? nonNegative('scale', options.scale)
      : options.events === undefined
        ? 1
        : calibrate(world, baseKey, windowStart, now.getTime(), integer('events', options.events, 0))
  const runId = hashSeed(baseKey, scale.toFixed(6)).toString(16).padStart(8, '0')
  return {
    seed,
    companies,
    people,
    days,
    window: { start: new Date(windowStart), end: now },
    scale,
    runId,
    world,
    messages: () => streamMessages({ world, runId, planKey: runId, windowStart, until: now.getTime(), scale }),
  }
}

/**
 * The scale that makes about `target` calls. Calls come from fixed sessions (the
 * agenda's sign-ups, invitations…) and from visits whose rates the scale
 * multiplies, so total(scale) ≈ fixed + scale × perUnit. A single plan at scale 1
 * is too noisy to measure perUnit on a small world (a few hundred sessions, a
 * few heavy users), so the days are planned at a scale that gives about 40,000
 * visits, and about 20,000 of them are made and counted: the estimate is then
 * within a percent or so whatever the size, and costs a few seconds at most.
 */
function calibrate(world: World, baseKey: string, windowStart: number, until: number, target: number): number {
  const key = `${baseKey}:calibration`
  const planAll = (scale: number) => Array.from({ length: world.days }, (_, day) => planDay(world, key, day, windowStart + day * DAY_MS, scale))
  const countScaled = (plans: ReturnType<typeof planAll>) => plans.reduce((n, p) => n + p.filter((s) => s.scaled && s.start <= until).length, 0)
  const atOne = countScaled(planAll(1))
  const inflate = Math.max(1, 40_000 / Math.max(1, atOne))
  const plans = planAll(inflate)
  const visits = countScaled(plans)
  const step = Math.max(1, Math.floor(visits / 20_000))
  const callsBy = (day: number, index: number, session: SessionPlan) =>
    renderSession({ world, runId: key, windowStart, day, index }, session).filter((m) => Date.parse(m.message.timestamp) <= until).length
  let fixed = 0
  let sampledVisits = 0
  let sampledCalls = 0
  let seen = 0
  plans.forEach((plan, day) => {
    plan.forEach((session, index) => {
      if (session.start > until) return
      // Fixed sessions are few and lumpy (a sign-up is long): make every one of them.
      if (!session.scaled) fixed += callsBy(day, index, session)
      else if (seen++ % step === 0) {
        sampledVisits++
        sampledCalls += callsBy(day, index, session)
      }
    })
  })
  const perUnit = sampledVisits ? ((sampledCalls / sampledVisits) * visits) / inflate : 0
  if (perUnit <= 0) return 1
  return Math.max(0, (target - fixed) / perUnit)
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0`)
  return value
}

function integer(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}`)
  return value
}
