import type { Compare, Condition, Shift, TraitTest } from '../plan.ts'
import type { Params } from '../../metrics/sql/params.ts'

/**
 * Syntax only: a plan's conditions as ClickHouse expressions over one person's
 * row, with bound values. What each test means is decided in plan.ts.
 */
export interface ConditionContext {
  p: Params
  /** The column of a trait: its text (read 'text') or its elements (read 'array'). */
  column(c: Extract<Condition, { kind: 'trait' }>['trait']): string
  /** The column of an action's count. */
  count(a: Extract<Condition, { kind: 'action' }>['action']): string
  /** Placeholders of now (DateTime64 UTC) and of the organisation's zone. */
  now: string
  tz: string
}

/** now moved by a shift: hours are hours; days, weeks and months are the organisation's calendar's. */
export function shifted(ctx: Pick<ConditionContext, 'now' | 'tz' | 'p'>, s: Shift): string {
  if (s.amount === 0) return ctx.now
  const n = ctx.p.bind('Float64', s.amount)
  if (s.unit === 'hour') return `addHours(${ctx.now}, toInt64(${n}))`
  const fn = { day: 'addDays', week: 'addWeeks', month: 'addMonths' }[s.unit]
  return `${fn}(toTimeZone(${ctx.now}, ${ctx.tz}), toInt64(${n}))`
}

/**
 * A trait's text as an instant: a bare day (YYYY-MM-DD) starts at midnight in
 * the organisation's zone; a time without an offset is UTC; NULL when it is
 * no date.
 */
const instantOf = (t: string, tz: string) => `if(length(${t}) = 10, parseDateTime64BestEffortOrNull(${t}, 3, ${tz}), parseDateTime64BestEffortOrNull(${t}, 3, 'UTC'))`

const orDefault = (test: string, holdsWhenMissing: boolean) => `ifNull(${test}, ${holdsWhenMissing ? 1 : 0})`
const not = (test: string, negate: boolean) => (negate ? `NOT (${test})` : test)

function traitTest(ctx: ConditionContext, col: string, t: TraitTest): string {
  const { p } = ctx
  const number = `toFloat64OrNull(${col})`
  switch (t.test) {
    case 'is':
      return `${col} ${t.negate ? '!=' : '='} ${p.bind('String', t.value)}`
    case 'contains':
      return `positionCaseInsensitiveUTF8(${col}, ${p.bind('String', t.value)}) ${t.negate ? '=' : '>'} 0`
    case 'set':
      return `${col} ${t.negate ? '=' : '!='} ''`
    case 'hasElement':
      return not(`has(${col}, ${p.bind('String', t.value)})`, t.negate)
    case 'number':
      // not_equal holds for users without a number there; the others need one.
      return orDefault(`${number} ${t.op} ${p.bind('Float64', t.value)}`, t.op === '!=')
    case 'numberBetween':
      return not(orDefault(`${number} BETWEEN ${p.bind('Float64', t.from)} AND ${p.bind('Float64', t.to)}`, false), t.negate)
    case 'numeric':
      return t.negate ? `(${col} != '' AND isNull(${number}))` : `isNotNull(${number})`
    case 'boolean':
      return `lowerUTF8(${col}) ${t.negate ? '!=' : '='} '${t.value ? 'true' : 'false'}'`
    case 'day': {
      const day = `toDate(${instantOf(col, ctx.tz)}, ${ctx.tz})`
      return orDefault(`${day} ${t.op} ${p.bind('Date', t.day)}`, t.op === '!=')
    }
    case 'dayBetween': {
      const day = `toDate(${instantOf(col, ctx.tz)}, ${ctx.tz})`
      return not(orDefault(`${day} BETWEEN ${p.bind('Date', t.from)} AND ${p.bind('Date', t.to)}`, false), t.negate)
    }
    case 'instant': {
      const at = instantOf(col, ctx.tz)
      const parts = [t.from && `${at} >= ${shifted(ctx, t.from)}`, t.to && `${at} <= ${shifted(ctx, t.to)}`].filter(Boolean)
      return not(orDefault(parts.join(' AND '), false), t.negate)
    }
  }
}

function compare(count: string, p: Params, c: Extract<Condition, { kind: 'action' }>['action']['compare']): string {
  if ('from' in c) return `${count} ${c.op === 'between' ? 'BETWEEN' : 'NOT BETWEEN'} ${p.bind('UInt64', c.from)} AND ${p.bind('UInt64', c.to)}`
  return `${count} ${c.op satisfies Compare} ${p.bind('UInt64', c.value)}`
}

export function conditionSql(ctx: ConditionContext, c: Condition): string {
  switch (c.kind) {
    case 'nobody':
      return '0'
    case 'trait':
      return traitTest(ctx, ctx.column(c.trait), c.test)
    case 'action':
      return compare(ctx.count(c.action), ctx.p, c.action.compare)
    case 'and':
    case 'or':
      if (c.of.length === 0) return c.kind === 'and' ? '1' : '0'
      return `(${c.of.map((x) => conditionSql(ctx, x)).join(c.kind === 'and' ? ' AND ' : ' OR ')})`
  }
}
