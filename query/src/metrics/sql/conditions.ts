import type { OccurringCondition, PropertyCondition } from '../plan.ts'
import type { TraitCondition } from '../traits.ts'
import type { Params } from './params.ts'

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

/** A member's count of a step in a period against an occurring filter; the count is at least 1 already. */
export function occurringCondition(p: Params, count: string, o: OccurringCondition): string {
  const v = p.bind('UInt32', o.value)
  switch (o.operation) {
    case 'equals':
      return `${count} = ${v}`
    case 'not':
      return `${count} != ${v}`
    case 'moreThan':
      return `${count} > ${v}`
    case 'atLeast':
      return `${count} >= ${v}`
    case 'lessThan':
      return `${count} < ${v}`
    case 'atMost':
      return `${count} <= ${v}`
    case 'between':
      return `${count} BETWEEN ${v} AND ${p.bind('UInt32', o.value2 ?? o.value)}`
    case 'notBetween':
      return `(${count} < ${v} OR ${count} > ${p.bind('UInt32', o.value2 ?? o.value)})`
  }
}

/** A trait condition on `t`, the member's latest value as text ("" when never given). */
export function traitCondition(p: Params, t: string, c: TraitCondition, timezone: string): string {
  const number = `toFloat64OrNull(${t})`
  const instant = () => `parseDateTime64BestEffortOrNull(${t}, 3, ${p.bind('String', timezone)})`
  const day = () => `toDate(${instant()}, ${p.bind('String', timezone)})`
  switch (c.test) {
    case 'in':
      return `${t} ${c.negate ? 'NOT IN' : 'IN'} ${p.bind('Array(String)', c.values)}`
    case 'contains':
      return `positionCaseInsensitiveUTF8(${t}, ${p.bind('String', c.value)}) ${c.negate ? '=' : '>'} 0`
    case 'set':
      return `${t} ${c.negate ? '=' : '!='} ''`
    case 'compare':
      // not_equal holds for members without a number there; the others need one.
      return `ifNull(${number} ${c.op} ${p.bind('Float64', c.value)}, ${c.op === '!=' ? 1 : 0})`
    case 'between': {
      const test = `ifNull(${number} BETWEEN ${p.bind('Float64', c.from)} AND ${p.bind('Float64', c.to)}, 0)`
      return c.negate ? `NOT ${test}` : test
    }
    case 'numeric':
      return c.negate ? `(${t} != '' AND isNull(${number}))` : `isNotNull(${number})`
    case 'boolean':
      return `lower(${t}) = '${c.value ? 'true' : 'false'}'`
    case 'day':
      return `ifNull(${day()} ${c.op} ${p.bind('Date', c.day)}, ${c.op === '!=' ? 1 : 0})`
    case 'dayBetween': {
      const test = `ifNull(${day()} BETWEEN ${p.bind('Date', c.from)} AND ${p.bind('Date', c.to)}, 0)`
      return c.negate ? `NOT ${test}` : test
    }
    case 'instant': {
      const parts = [c.from && `${instant()} >= ${p.bind("DateTime64(3, 'UTC')", c.from)}`, c.to && `${instant()} <= ${p.bind("DateTime64(3, 'UTC')", c.to)}`].filter(Boolean)
      const test = `ifNull(${parts.join(' AND ')}, 0)`
      return c.negate ? `NOT ${test}` : test
    }
  }
}
