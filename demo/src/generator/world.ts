import { buildCompanies } from './companies.ts'
import { assignLifecycles } from './lifecycle.ts'
import { buildPeople } from './people.ts'
import type { Company, Person, PlantedRule } from './types.ts'

/**
 * The demo world: companies and people with their whole lifecycle, plus the
 * day-by-day agenda of things that must happen on a given day (sign-ups,
 * invitations, first uses, upgrades). Everything in it depends only on the seed,
 * the sizes, the number of days and the rule: not on the clock.
 */
export type AgendaItem =
  | { kind: 'signup'; person: number }
  | { kind: 'research'; person: number }
  | { kind: 'demo'; person: number }
  | { kind: 'invite'; person: number; invitee: number }
  | { kind: 'habit'; person: number; event: string }
  | { kind: 'convert'; person: number }

export interface World {
  seed: number
  days: number
  rule: PlantedRule
  companies: Company[]
  people: Person[]
  /** People of each company, by company index, in person order. */
  members: Person[][]
  /** Things that must happen, by day (0 … days − 1), in person order. */
  agenda: AgendaItem[][]
}

export function buildWorld(seed: number, sizes: { companies: number; people: number; days: number }, rule: PlantedRule): World {
  const companies = buildCompanies(seed, sizes.companies, sizes.days)
  const people = buildPeople(seed, sizes.people, companies)
  assignLifecycles(seed, companies, people, sizes.days, rule)
  const members: Person[][] = companies.map(() => [])
  for (const p of people) if (p.companyIndex !== null) members[p.companyIndex].push(p)
  return { seed, days: sizes.days, rule, companies, people, members, agenda: buildAgenda(people, sizes.days) }
}

function buildAgenda(people: Person[], days: number): AgendaItem[][] {
  const agenda: AgendaItem[][] = Array.from({ length: days }, () => [])
  const add = (day: number | null, item: AgendaItem) => {
    if (day !== null && day >= 0 && day < days) agenda[day].push(item)
  }
  for (const p of people) {
    const life = p.life
    for (const day of life.researchDays) add(day, { kind: 'research', person: p.index })
    add(life.signupDay, { kind: 'signup', person: p.index })
    add(life.demoDay, { kind: 'demo', person: p.index })
    for (const invite of life.invites) add(invite.day, { kind: 'invite', person: p.index, invitee: invite.personIndex })
    for (const [event, day] of Object.entries(life.habits)) {
      // An invitation sent that day already counts as the first use.
      if (event === 'Invite Sent' && life.invites.some((i) => i.day === day)) continue
      add(day, { kind: 'habit', person: p.index, event })
    }
    add(life.conversionDay, { kind: 'convert', person: p.index })
  }
  return agenda
}
