import { PLANS, type Plan } from './catalog.ts'
import { FEATURES, HABIT_EVENTS } from './product.ts'
import { Rng } from './random.ts'
import type { Company, Person, PlantedRule } from './types.ts'

/**
 * What each person does over the window, decided up front from the seed so that
 * every day can be planned on its own: when they sign up (a customer's champion
 * on the account's first day, colleagues later through invitations), how active
 * they are, which optional key events they use (habits), whether they churn, and
 * whether they convert under the planted rule. Company plans follow from the
 * conversions: each one moves the company a plan up (at enterprise, it buys seats).
 */
export function assignLifecycles(seed: number, companies: Company[], people: Person[], days: number, rule: PlantedRule): void {
  const members = new Map<number, Person[]>()
  for (const p of people) {
    if (p.companyIndex === null) continue
    let list = members.get(p.companyIndex)
    if (!list) members.set(p.companyIndex, (list = []))
    list.push(p)
  }

  for (const person of people) {
    const rng = new Rng(seed, 'life', person.index)
    const company = person.companyIndex === null ? null : companies[person.companyIndex]
    const life = person.life
    let signupDay: number | null = null
    if (company?.customer && company.accountDay !== null) {
      const champion = members.get(company.index)![0] === person
      if (champion) signupDay = company.accountDay
      else if (rng.chance(0.7)) signupDay = company.accountDay + 1 + Math.round(rng.exponential(25))
    } else if (!company && rng.chance(0.3)) {
      signupDay = rng.int(-400, days - 1)
    }
    life.signupDay = signupDay !== null && signupDay < days ? signupDay : null
    life.features = rng.shuffle(FEATURES.map((_, i) => i))

    if (life.signupDay !== null) {
      life.activity = Math.min(3, Math.max(0.03, rng.logNormal(0.35, 0.6) * (company ? 1 : 0.6)))
      life.interest = 0.01
      if (life.signupDay >= 0) {
        const research = new Set<number>()
        for (let k = rng.int(1, 3); k > 0; k--) research.add(life.signupDay - rng.int(1, 21))
        life.researchDays = [...research].filter((d) => d >= 0).sort((a, b) => a - b)
      }
      if (rng.chance(0.12)) {
        const churn = Math.max(life.signupDay, 0) + rng.int(5, 120)
        life.churnDay = churn < days ? churn : null
      }
      for (const [event, rate] of HABIT_EVENTS) if (rng.chance(rate)) life.habits[event] = -1
    } else {
      const interested = rng.chance(0.4)
      life.interest = interested ? rng.logNormal(0.04, 0.5) : 0.004
      if (company && !company.customer && interested && rng.chance(0.1)) life.demoDay = rng.int(0, days - 1)
    }
  }

  assignInvitations(seed, members)
  for (const person of people) placeHabitsAndConversion(seed, person, days, rule)
  applyUpgrades(companies, members)
}

/** Colleagues who join after the champion were invited by someone already in: the champion half the time. */
function assignInvitations(seed: number, members: Map<number, Person[]>): void {
  for (const list of members.values()) {
    const joined = list.filter((p) => p.life.signupDay !== null).sort((a, b) => a.life.signupDay! - b.life.signupDay! || a.index - b.index)
    for (let i = 1; i < joined.length; i++) {
      const invitee = joined[i]
      const rng = new Rng(seed, 'invite', invitee.index)
      const earlier = joined.slice(0, i).filter((p) => p.life.signupDay! < invitee.life.signupDay!)
      if (earlier.length === 0) continue
      const inviter = rng.chance(0.5) ? earlier[0] : rng.pick(earlier)
      invitee.life.invitedBy = inviter.index
      inviter.life.habits['Invite Sent'] = -1
      const day = Math.max(inviter.life.signupDay!, invitee.life.signupDay! - rng.int(0, 2))
      if (day >= 0) inviter.life.invites.push({ personIndex: invitee.index, day })
    }
  }
}

/**
 * Each habit gets the day of its first in-window use. A converting person uses
 * the rule's events before converting, so the cause precedes the effect in the
 * data a model will see.
 */
function placeHabitsAndConversion(seed: number, person: Person, days: number, rule: PlantedRule): void {
  const life = person.life
  if (life.signupDay === null) {
    life.habits = {}
    return
  }
  const rng = new Rng(seed, 'habits', person.index)
  const start = Math.max(life.signupDay, 0)
  const end = Math.min(days - 1, life.churnDay ?? days - 1)
  const matches = rule.given.every((e) => e in life.habits)
  if (end - start >= 3 && rng.chance(matches ? rule.rate : rule.baseRate)) life.conversionDay = rng.int(start + 2, end)
  for (const event of Object.keys(life.habits).sort()) {
    const before = life.conversionDay !== null && rule.given.includes(event)
    life.habits[event] = before ? rng.int(start, life.conversionDay! - 1) : rng.int(start, end)
  }
}

function applyUpgrades(companies: Company[], members: Map<number, Person[]>): void {
  for (const company of companies) {
    if (company.basePlan === null) continue
    const converting = (members.get(company.index) ?? [])
      .filter((p) => p.life.conversionDay !== null)
      .sort((a, b) => a.life.conversionDay! - b.life.conversionDay! || a.index - b.index)
    let plan: Plan = company.basePlan
    for (const p of converting) {
      // At the top plan an upgrade buys seats: still an upgrade, so the planted rule is never cut short.
      const next = nextPlan(plan) ?? plan
      company.upgrades.push({ day: p.life.conversionDay!, from: plan, to: next, personIndex: p.index })
      plan = next
    }
    company.plan = plan
  }
}

export function nextPlan(plan: Plan): Plan | null {
  const i = PLANS.indexOf(plan)
  return i < PLANS.length - 1 ? PLANS[i + 1] : null
}

/** A company's plan on a day (after that day's upgrade, if any). */
export function companyPlanOn(company: Company, day: number): Plan | null {
  let plan = company.basePlan
  for (const u of company.upgrades) if (u.day <= day) plan = u.to
  return plan
}

/** The plan an individual (no company) is on: free until they convert. */
export function individualPlanOn(person: Person, day: number): Plan {
  return person.life.conversionDay !== null && day >= person.life.conversionDay ? 'starter' : 'free'
}
