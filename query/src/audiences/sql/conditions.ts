import type { Condition } from '../plan.ts'
import type { Params } from '../../metrics/sql/params.ts'
import { traitTestSql, type TraitSqlContext } from '../../filters/traits.ts'
import { countTestSql } from '../../filters/counts.ts'

/**
 * Syntax only: a plan's conditions as ClickHouse expressions over one person's
 * row, with bound values. What each test means is decided in plan.ts and
 * filters/traits.ts, which also prints the trait tests.
 */
export interface ConditionContext extends TraitSqlContext {
  /** The column of a trait: its text (read 'text') or its elements (read 'array'). */
  column(c: Extract<Condition, { kind: 'trait' }>['trait']): string
  /** The column of an action's count. */
  count(a: Extract<Condition, { kind: 'action' }>['action']): string
}

export function conditionSql(ctx: ConditionContext, c: Condition): string {
  switch (c.kind) {
    case 'nobody':
      return '0'
    case 'trait':
      return traitTestSql(ctx, ctx.column(c.trait), c.test)
    case 'action':
      return countTestSql(ctx.p, ctx.count(c.action), c.action.compare)
    case 'and':
    case 'or':
      if (c.of.length === 0) return c.kind === 'and' ? '1' : '0'
      return `(${c.of.map((x) => conditionSql(ctx, x)).join(c.kind === 'and' ? ' AND ' : ' OR ')})`
  }
}
