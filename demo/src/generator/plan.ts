import { COUNTRIES } from './catalog.ts'
import { Rng } from './random.ts'
import type { AgendaItem, World } from './world.ts'

/**
 * One day's sessions: who visits, when, on which device, and what must happen
 * in the visit. Planning draws only from the day's own generator (run, 'day', d)
 * and the world, so any day can be planned alone; the sessions' events are made
 * later, when the stream reaches them (sessions.ts).
 */
export const DAY_MS = 86_400_000

export type SessionKind = 'app' | 'browse' | 'research' | 'signup' | 'demo' | 'drive-by'

export interface SessionPlan {
  start: number
  kind: SessionKind
  /** Person index; -1 for a one-off visitor. */
  person: number
  device: number
  /** The agenda's items for this person and day, done in this session. */
  agenda: AgendaItem[]
  /** Whether the session comes from a rate that --events scales (false: the agenda's fixed ones). */
  scaled: boolean
  /** One-off visitors' local time zone offset. */
  utcOffset?: number
}

/** Share of a weekday's visits on Saturday and Sunday: product use drops harder than browsing. */
const WEEKEND = { app: [0.15, 0.25], browse: [0.45, 0.55] }

/** Local hour weights: office hours for product use, evenings for browsing too. */
const WORK_HOURS = [0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0.6, 1.8, 4.5, 7, 8, 8, 6, 7.5, 8, 7, 6, 4, 2.5, 2, 1.8, 1.5, 1, 0.5]
const BROWSE_HOURS = [0.6, 0.4, 0.3, 0.2, 0.2, 0.3, 0.8, 2, 4, 5.5, 6, 6, 5.5, 6, 6, 5.5, 5, 4.5, 4, 4, 4, 3.5, 2.5, 1.2]
const HOURS = (w: number[]) => w.map((weight, hour) => [hour, weight] as const)
const WORK = HOURS(WORK_HOURS)
const BROWSE = HOURS(BROWSE_HOURS)

/** One-off visitors a day per person in the world (so the mix of known and unknown traffic holds at any size). */
export const DRIVE_BY_PER_PERSON = 0.05

export function planDay(world: World, runKey: string, day: number, dayStart: number, scale: number): SessionPlan[] {
  const rng = new Rng(runKey, 'day', day)
  const weekday = new Date(dayStart).getUTCDay()
  const weekendIndex = weekday === 6 ? 0 : weekday === 0 ? 1 : -1
  const appFactor = weekendIndex < 0 ? 1 : WEEKEND.app[weekendIndex]
  const browseFactor = weekendIndex < 0 ? 1 : WEEKEND.browse[weekendIndex]
  const sessions: SessionPlan[] = []

  const agendaByPerson = new Map<number, AgendaItem[]>()
  for (const item of world.agenda[day] ?? []) {
    let list = agendaByPerson.get(item.person)
    if (!list) agendaByPerson.set(item.person, (list = []))
    list.push(item)
  }

  const startAt = (hours: typeof WORK, utcOffset: number) => {
    // A local hour, moved to UTC and wrapped into this UTC day.
    const ms = (rng.weighted(hours) - utcOffset) * 3_600_000 + rng.int(0, 3_599_999)
    return dayStart + (((ms % DAY_MS) + DAY_MS) % DAY_MS)
  }

  for (const person of world.people) {
    const life = person.life
    const pickDevice = (mobileShare: number) => (person.devices.length > 1 && rng.chance(mobileShare) ? 1 : 0)
    const items = agendaByPerson.get(person.index)
    if (items) {
      // The agenda's fixed sessions: research and demo visits stand alone; sign-up,
      // invitations, first uses and the upgrade share one product session.
      for (const item of items) {
        if (item.kind === 'research' || item.kind === 'demo') {
          sessions.push({ start: startAt(BROWSE, person.utcOffset), kind: item.kind, person: person.index, device: pickDevice(0.3), agenda: [item], scaled: false })
        }
      }
      const inApp = items.filter((i) => i.kind !== 'research' && i.kind !== 'demo')
      if (inApp.length) {
        const signup = inApp.some((i) => i.kind === 'signup')
        inApp.sort((a, b) => AGENDA_ORDER[a.kind] - AGENDA_ORDER[b.kind])
        sessions.push({ start: startAt(WORK, person.utcOffset), kind: signup ? 'signup' : 'app', person: person.index, device: signup ? 0 : pickDevice(0.1), agenda: inApp, scaled: false })
      }
    }

    const signedUp = life.signupDay !== null && day > life.signupDay
    if (signedUp) {
      const churned = life.churnDay !== null && day > life.churnDay
      const n = rng.poisson(life.activity * appFactor * (churned ? 0.05 : 1) * scale)
      for (let k = 0; k < n; k++) {
        const browse = rng.chance(0.1)
        sessions.push({
          start: startAt(browse ? BROWSE : WORK, person.utcOffset),
          kind: browse ? 'browse' : 'app',
          person: person.index,
          device: pickDevice(browse ? 0.35 : 0.15),
          agenda: [],
          scaled: true,
        })
      }
    } else if (life.signupDay !== day) {
      const n = rng.poisson(life.interest * browseFactor * scale)
      for (let k = 0; k < n; k++) {
        sessions.push({ start: startAt(BROWSE, person.utcOffset), kind: 'browse', person: person.index, device: pickDevice(0.35), agenda: [], scaled: true })
      }
    }
  }

  const driveBys = rng.poisson(world.people.length * DRIVE_BY_PER_PERSON * browseFactor * scale)
  for (let k = 0; k < driveBys; k++) {
    const [, utcOffset] = rng.pick(rng.weighted(COUNTRIES.map((c) => [c, c.weight] as const)).zones)
    sessions.push({ start: startAt(BROWSE, utcOffset), kind: 'drive-by', person: -1, device: 0, agenda: [], scaled: true, utcOffset })
  }

  // Stable sort: equal starts keep their planning order, so the plan is the same every time.
  return sessions.sort((a, b) => a.start - b.start)
}

const AGENDA_ORDER: Record<AgendaItem['kind'], number> = { signup: 0, research: 1, demo: 1, invite: 2, habit: 3, convert: 4 }
