import type { MetricPlan, OccurringCondition, PropertyCondition } from '../plan.ts'
import type { Params } from './params.ts'
import { chTime } from '@fl0/contracts'
import { traitTestSql } from '../../filters/traits.ts'
import { countTestSql, occurringTest } from '../../filters/counts.ts'

/**
 * Syntax only: the conditions of a plan as ClickHouse expressions with bound
 * values. What each operation means is decided in plan.ts and traits.ts.
 */

/**
 * An event's property, read as text: a JSON path's subcolumn (only that path is
 * read, not the whole object), "" when the event lacks it. Numbers read "12.5",
 * booleans "true".
 */
export function propertyText(p: Params, path: string): string {
  return `toString(getSubcolumn(properties, ${p.bind('String', path)}))`
}

/**
 * is and isNot compare exactly (values come from the values look-up);
 * startsWith, endsWith, contains and doesNotContain ignore case, as a search
 * box does. isNot and doesNotContain take in events without the property;
 * greaterThan and lessThan need a number there.
 */
export function propertyCondition(p: Params, c: PropertyCondition): string {
  const text = propertyText(p, c.path)
  switch (c.operation) {
    case 'is':
      return `${text} = ${p.bind('String', c.value)}`
    case 'isNot':
      return `${text} != ${p.bind('String', c.value)}`
    case 'startsWith':
      return `startsWith(lowerUTF8(${text}), lowerUTF8(${p.bind('String', c.value)}))`
    case 'endsWith':
      return `endsWith(lowerUTF8(${text}), lowerUTF8(${p.bind('String', c.value)}))`
    case 'contains':
      return `positionCaseInsensitiveUTF8(${text}, ${p.bind('String', c.value)}) > 0`
    case 'doesNotContain':
      return `positionCaseInsensitiveUTF8(${text}, ${p.bind('String', c.value)}) = 0`
    case 'greaterThan':
      return `ifNull(toFloat64OrNull(${text}) > ${p.bind('Float64', c.value)}, 0)`
    case 'lessThan':
      return `ifNull(toFloat64OrNull(${text}) < ${p.bind('Float64', c.value)}, 0)`
  }
}

/** A member's count of a step in a period against an occurring filter (filters/counts.ts); the count is at least 1 already. */
export function occurringCondition(p: Params, count: string, o: OccurringCondition): string {
  return countTestSql(p, count, occurringTest(o))
}

/**
 * A metric's audience traits as one condition (undefined without any): each
 * trait test on its column (the member's latest value as text, "" when never
 * given), printed by filters/traits.ts as an audience's are, joined by the
 * plan's and / or. now is bound only when there are traits to test.
 */
export function audienceTraitsSql(p: Params, plan: Pick<MetricPlan, 'traits' | 'aggregate' | 'window'>, tz: string, columnOf: (trait: string) => string): string | undefined {
  if (plan.traits.length === 0) return undefined
  const ctx = { p, tz, now: p.bind("DateTime64(3, 'UTC')", chTime(plan.window.now)) }
  return `(${plan.traits.map((t) => `(${traitTestSql(ctx, columnOf(t.trait), t.test)})`).join(plan.aggregate === 'or' ? ' OR ' : ' AND ')})`
}
