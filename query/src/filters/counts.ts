import type { ActionOperator, OccurringOperation } from '@fl0/contracts'
import type { Params } from '../metrics/sql/params.ts'
import { COMPARES, type Compare } from './traits.ts'

/**
 * How many times a person did something, against a number: a metric step's
 * "occurring" filter (part 2 §4: equals, not, more than, at least…) and an
 * audience's action (part 3 §3: equals, not equal, greater than…) say it in
 * their own words, by the specification; here both mean one comparison, and
 * print it one way. Between is inclusive; not between is its opposite.
 */
export type CountTest = { op: Compare; value: number } | { op: 'between' | 'not_between'; from: number; to: number }

const OCCURRING: Record<Exclude<OccurringOperation, 'between' | 'notBetween'>, Compare> = {
  equals: '=',
  not: '!=',
  moreThan: '>',
  atLeast: '>=',
  lessThan: '<',
  atMost: '<=',
}
/** A metric step's occurring filter; a between without its second value is between the value and itself. */
export function occurringTest(o: { operation: OccurringOperation; value: number; value2?: number }): CountTest {
  if (o.operation === 'between' || o.operation === 'notBetween') return { op: o.operation === 'between' ? 'between' : 'not_between', from: o.value, to: o.value2 ?? o.value }
  return { op: OCCURRING[o.operation], value: o.value }
}

/** An audience action's comparison. */
export function actionTest(a: { occurrence_op: ActionOperator; value?: unknown; value1?: unknown; value2?: unknown }): CountTest {
  const op = a.occurrence_op
  if (op === 'between' || op === 'not_between') return { op, from: Number(a.value1), to: Number(a.value2) }
  return { op: COMPARES[op]!, value: Number(a.value) }
}

export function countTestSql(p: Params, count: string, t: CountTest): string {
  if ('from' in t) return `${count} ${t.op === 'between' ? 'BETWEEN' : 'NOT BETWEEN'} ${p.bind('UInt64', t.from)} AND ${p.bind('UInt64', t.to)}`
  return `${count} ${t.op} ${p.bind('UInt64', t.value)}`
}
