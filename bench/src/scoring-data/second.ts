/**
 * A second product for the scoring bench (issue 21), written apart from the
 * demo (demo/ is neither imported nor copied, and no event name is shared):
 * the users of a project-management SaaS over `days` days (120 by default),
 * with a planted rule unlike the demo's "both habits" AND.
 *
 * Each user signs up on some day (a workspace), is active on a share of the
 * days of an active life of their own (a third are tourists gone within three
 * days), and on an active day opens a session and views boards, creates and
 * completes tasks, comments, uploads files, now and then invites a teammate,
 * plans a sprint or applies a template. Two habits are planted:
 *
 * - 'Automation Created': 45 % of users have the habit, each at a rate of
 *   their own per active day; A is how many automations they create in their
 *   whole active life (the days still to come counted, not emitted);
 * - 'Calendar Synced': 25 % of users sync a calendar on one active day (a
 *   few twice).
 *
 * The rule: a user starts a subscription ('Subscription Started') with
 * probability
 *
 *     min(0.95, 0.03 + 0.55 · (1 − e^(−A/4)) + (0.2 if they synced a calendar))
 *
 * so 3 % for a user with neither habit, rising with every automation (one:
 * 15 %, four: 38 %, ten: 54 %) and 20 points more with a synced calendar. The
 * subscription comes on a uniformly random day 0–45 days after the behaviour
 * begins (their first automation or calendar sync, whichever is first; for
 * a user with neither, a random active day); a day after `now` is not seen.
 *
 * Leaks, there for a trainer to trip over:
 * - each 'Subscription Started' is followed within seconds by 'Receipt
 *   Emailed', and in the 14 days after by one to three 'Billing Page Viewed
 *   After Purchase': events that happen only with or after the metric;
 * - 30 % of subscribers add seats 5–60 days later (another 'Subscription
 *   Started', kind 'seat add', with its receipt), 30 % of those again, so a
 *   user's own past subscriptions say they will subscribe in the date range.
 *
 * Deterministic: one seeded PRNG (mulberry32: the workers' seededRandom), consumed in a fixed order, so
 * the same options give the same rows.
 */
import { chTime, type IngestedEvent } from '@fl0/contracts'
import { seededRandom } from '@fl0/workers'

export interface SecondOptions {
  orgId: string
  /** The last instant of the data: no event is after it. */
  now: Date
  users?: number
  days?: number
  seed?: number
  /** Counts of what was planted, filled while the rows are read (the generator is lazy). */
  stats?: SecondStats
  /** Each user's hidden truth, before their rows: for measuring what the best possible ranking would reach. */
  onUser?: (truth: SecondTruth) => void
}

/** What the rule saw of a user (days counted back from today; negative ones are after now and not in the data). */
export interface SecondTruth {
  user: string
  automations: number
  calendar: boolean
  probability: number
  /** The first automation or calendar sync, or for a user with neither the active day the delay counts from. */
  behaviourStart: number
  subscriptionDays: number[]
}

export interface SecondStats {
  users: number
  identified: number
  events: number
  /** Users with the automation habit, with a synced calendar. */
  automators: number
  calendarSynced: number
  /** Users with a 'Subscription Started' in the data, all of them and by group. */
  subscribers: number
  subscriptions: number
  seatAdds: number
  byGroup: Record<'neither' | 'automationOnly' | 'calendarOnly' | 'both', { users: number; subscribers: number }>
}

/** The planted rule's parameters (see the file's comment). */
export const SECOND_RULE = {
  baseRate: 0.03,
  automation: 0.55,
  automationScale: 4,
  calendar: 0.2,
  max: 0.95,
  /** Share of users with the automation habit, with a synced calendar. */
  automators: 0.45,
  calendarSync: 0.25,
  /** Days from the behaviour's start to the subscription, at most. */
  maxDelay: 45,
  /** Share of subscribers who add seats (each add, again this share). */
  seatAdd: 0.3,
} as const

/** The event names a reader of the results looks for. */
export const SECOND_EVENTS = {
  metric: 'Subscription Started',
  planted: ['Automation Created', 'Calendar Synced'],
  leaky: ['Receipt Emailed', 'Billing Page Viewed After Purchase'],
} as const

/** The probability the rule gives a user who creates `automations` automations in their life, with or without a synced calendar. */
export const subscribeProbability = (automations: number, calendar: boolean): number =>
  Math.min(SECOND_RULE.max, SECOND_RULE.baseRate + SECOND_RULE.automation * (1 - Math.exp(-automations / SECOND_RULE.automationScale)) + (calendar ? SECOND_RULE.calendar : 0))

const DAY_MS = 86_400_000
const FIRST = ['Ada', 'Bram', 'Chioma', 'Dario', 'Elif', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kaia', 'Luca', 'Mira', 'Nils', 'Oona', 'Pavel', 'Quinn', 'Rosa', 'Sami', 'Tove']
const LAST = ['Achebe', 'Borg', 'Castillo', 'Duval', 'Eriksen', 'Fontaine', 'Gupta', 'Horvat', 'Ibsen', 'Jovanovic', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov']
const DOMAINS = ['example.com', 'example.org', 'example.net']
const BOARDS = ['Roadmap', 'Sprint', 'Backlog', 'Bugs', 'Launch']
const PLANS = ['Team', 'Business']

/** The rows of the second product, as the ingest would store them (the bench's synthetic row shape). */
export function* secondRows(options: SecondOptions): Generator<IngestedEvent> {
  const { orgId, now } = options
  const users = options.users ?? 5000
  const days = options.days ?? 120
  const random = seededRandom(options.seed ?? 42)
  const stats = options.stats
  if (stats) Object.assign(stats, emptyStats())
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1))
  const nowMs = now.getTime()
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  /** An instant on the UTC day `daysAgo` days before now's (0 = today, up to now). */
  const instant = (daysAgo: number) => today - daysAgo * DAY_MS + Math.floor(random() * (daysAgo === 0 ? nowMs - today : DAY_MS))
  let seq = 0
  const row = (user: string, type: 'track' | 'identify', event: string, at: number, properties: Record<string, unknown> = {}, traits: Record<string, unknown> = {}): IngestedEvent => {
    const time = chTime(new Date(Math.min(at, nowMs)))
    if (stats) stats.events++
    return {
      org_id: orgId, message_id: `second-${user}-${seq++}`, source_id: 'bench', type, event, name: '', user_id: user, anonymous_id: '', group_id: '', previous_id: '',
      timestamp: time, original_timestamp: null, sent_at: null, received_at: time, ip: '', user_agent: '', page_url: '', page_path: '', page_referrer: '', page_title: '', page_search: '',
      properties, traits, context: {}, integrations: '{}',
    }
  }

  for (let u = 0; u < users; u++) {
    const user = `pm${u}`
    // Days are counted back from today: `start` the sign-up, the active life runs forward to start − life (negative: still active after now).
    const start = Math.floor(random() * days)
    const tourist = random() < 0.33
    const life = tourist ? Math.floor(random() * 3) : Math.floor(-Math.log(1 - random()) * 60)
    const activity = tourist ? 0.7 : 0.05 + 0.5 * random() ** 2
    const active: number[] = [start]
    for (let d = start - 1; d >= start - life; d--) if (random() < activity) active.push(d)

    const automationRate = random() < SECOND_RULE.automators ? 0.05 + 0.45 * random() ** 2 : 0
    const calendarDay = random() < SECOND_RULE.calendarSync ? pick(active) : null
    const calendarAgain = calendarDay !== null && random() < 0.15 ? pick(active) : null

    // The life as lived, future days included: the rule reads the whole of it, the data shows the days up to today.
    const automationDays: number[] = []
    for (const d of active) if (automationRate > 0) for (let k = random() < automationRate ? 1 + (random() < 0.3 ? 1 : 0) : 0; k > 0; k--) automationDays.push(d)
    const automations = automationDays.length
    const calendar = calendarDay !== null
    const behaviourStart = Math.max(automationDays[0] ?? -Infinity, calendarDay ?? -Infinity, automations === 0 && !calendar ? pick(active) : -Infinity)
    const subscribes = random() < subscribeProbability(automations, calendar)
    const subscriptionDays: Array<{ day: number; kind: 'new' | 'seat add' }> = []
    if (subscribes) {
      let day = behaviourStart - Math.floor(random() * (SECOND_RULE.maxDelay + 1))
      subscriptionDays.push({ day, kind: 'new' })
      while (random() < SECOND_RULE.seatAdd) {
        day -= int(5, 60)
        subscriptionDays.push({ day, kind: 'seat add' })
      }
    }

    options.onUser?.({ user, automations, calendar, probability: subscribeProbability(automations, calendar), behaviourStart, subscriptionDays: subscriptionDays.map((s) => s.day) })
    if (stats) {
      stats.users++
      if (automationRate > 0) stats.automators++
      if (calendar) stats.calendarSynced++
      const group = stats.byGroup[automations > 0 ? (calendar ? 'both' : 'automationOnly') : calendar ? 'calendarOnly' : 'neither']
      group.users++
      if (subscriptionDays.some((s) => s.day >= 0)) group.subscribers++
    }

    // What happened up to today, day by day.
    if (random() < 0.6) {
      const name = random() < 0.8 ? `${pick(FIRST)} ${pick(LAST)}` : ''
      const email = `${name ? name.toLowerCase().replace(' ', '.') : user}@${pick(DOMAINS)}`
      if (stats) stats.identified++
      yield row(user, 'identify', '', instant(start), {}, name ? { name, email } : { email })
    }
    yield row(user, 'track', 'Workspace Created', instant(start), { template: pick(['blank', 'kanban', 'scrum']) })
    for (const d of active) {
      if (d < 0) continue
      yield row(user, 'track', 'Session Started', instant(d), { device: random() < 0.7 ? 'desktop' : 'mobile' })
      for (let k = int(1, 5); k > 0; k--) yield row(user, 'track', 'Board Viewed', instant(d), { board: pick(BOARDS) })
      for (let k = int(0, 4); k > 0; k--) yield row(user, 'track', 'Task Created', instant(d), { priority: pick(['low', 'medium', 'high']) })
      for (let k = int(0, 3); k > 0; k--) yield row(user, 'track', 'Task Completed', instant(d))
      for (let k = int(0, 3); k > 0; k--) yield row(user, 'track', 'Comment Added', instant(d))
      if (random() < 0.25) yield row(user, 'track', 'File Uploaded', instant(d), { type: pick(['pdf', 'png', 'docx']) })
      if (random() < 0.06) yield row(user, 'track', 'Teammate Invited', instant(d))
      if (random() < 0.05) yield row(user, 'track', 'Sprint Planned', instant(d))
      if (random() < 0.04) yield row(user, 'track', 'Template Applied', instant(d), { template: pick(['okr', 'launch', 'retro']) })
    }
    for (const d of automationDays) if (d >= 0) yield row(user, 'track', 'Automation Created', instant(d), { trigger: pick(['status change', 'due date', 'new task']) })
    for (const d of [calendarDay, calendarAgain]) if (d !== null && d >= 0) yield row(user, 'track', 'Calendar Synced', instant(d), { provider: pick(['Google', 'Outlook']) })
    for (const { day, kind } of subscriptionDays) {
      if (day < 0) break
      const at = instant(day)
      if (stats) {
        stats.subscriptions++
        if (kind === 'seat add') stats.seatAdds++
        else stats.subscribers++
      }
      yield row(user, 'track', 'Session Started', at - 60_000, { device: 'desktop' })
      yield row(user, 'track', 'Subscription Started', at, { plan: pick(PLANS), seats: int(2, 25), kind })
      yield row(user, 'track', 'Receipt Emailed', at + int(2, 30) * 1000)
      for (let k = int(1, 3); k > 0; k--) {
        const later = Math.max(0, day - int(0, 14))
        // The same day: after the purchase; a later day: any time of it.
        yield row(user, 'track', 'Billing Page Viewed After Purchase', later === day ? at + int(60, 7200) * 1000 : instant(later))
      }
    }
  }
}

function emptyStats(): SecondStats {
  const group = () => ({ users: 0, subscribers: 0 })
  return {
    users: 0, identified: 0, events: 0, automators: 0, calendarSynced: 0, subscribers: 0, subscriptions: 0, seatAdds: 0,
    byGroup: { neither: group(), automationOnly: group(), calendarOnly: group(), both: group() },
  }
}
