import type { MetricGraph } from '@fl0/contracts'
import type { MetricPlan } from './plan.ts'

/**
 * Rows of the metric query → the graph the dashboard draws (contracts'
 * MetricGraph). Every period of the range gets a point, zero when nothing
 * happened in it; every explicit breakdown value gets a series, all zeros if
 * no member has it.
 *
 * - line, bar, table: labels are the periods' first days; one series per
 *   breakdown value (else one, named after the measure).
 * - metric: one label, the range as an ISO interval ("2026-02-01/2026-03-02");
 *   header.value is the number.
 * - funnel: labels are the steps; each series the members (or companies)
 *   reaching each step, or for conversion rate the percentage of the first
 *   step reaching it; header.value is the funnel's conversion in percent for
 *   conversion rate, else the members completing it.
 *
 * Conversion rates are percentages with two decimals; zero when nobody entered.
 */
export interface Row {
  period: string
  /** Breakdown queries: 1 on the rows that total every value. */
  overall?: number
  named?: number
  series?: string
  rank?: number | string
  [part: string]: number | string | undefined
}

const ROW_KEYS = new Set(['period', 'overall', 'named', 'series', 'rank'])

export const OTHER = 'Other'
export const NOT_SET = 'Not set'

export function shapeGraph(plan: MetricPlan, rows: Row[]): MetricGraph {
  const header = { name: plan.name }
  const w = plan.window
  const num = (r: Row | undefined, part: string) => Number(r?.[part] ?? 0)
  const rate = (entered: number, converted: number) => (entered > 0 ? Math.round((converted / entered) * 10_000) / 100 : 0)
  const valueOf = (r: Row | undefined) => (plan.measure === 'conversionRate' ? rate(num(r, 'entered'), num(r, 'converted')) : num(r, 'value'))

  const series = seriesOf(plan, rows)
  const overall = plan.breakdown ? rows.filter((r) => Number(r.overall) === 1) : rows
  const layout = plan.layout

  if (plan.graph === 'funnel') {
    const steps = plan.steps.map((_, k) => `step${k + 1}`)
    const counts = (r: Row | undefined) => steps.map((s) => num(r, s))
    const data = (r: Row | undefined) => {
      const c = counts(r)
      return plan.measure === 'conversionRate' ? c.map((x) => rate(c[0]!, x)) : c
    }
    const total = counts(overall[0])
    const value = plan.measure === 'conversionRate' ? rate(total[0] ?? 0, total.at(-1) ?? 0) : (total.at(-1) ?? 0)
    return {
      type: 'funnel',
      layout,
      header: { ...header, value },
      data: { labels: plan.steps.map((s) => s.label), datasets: series.map((s) => ({ label: s.label, data: data(s.rows[0]) })) },
    }
  }

  if (plan.graph === 'metric') {
    return {
      type: 'metric',
      layout,
      header: { ...header, value: valueOf(overall[0]) },
      data: { labels: [`${w.from}/${w.to}`], datasets: series.map((s) => ({ label: s.label, data: [valueOf(s.rows[0])] })) },
    }
  }

  return {
    type: plan.graph,
    layout,
    header,
    data: {
      labels: w.periods,
      datasets: series.map((s) => {
        const byPeriod = new Map(s.rows.map((r) => [r.period, r]))
        return { label: s.label, data: w.periods.map((p) => valueOf(byPeriod.get(p))) }
      }),
    },
  }
}

interface Series {
  label: string
  rows: Row[]
}

function seriesOf(plan: MetricPlan, rows: Row[]): Series[] {
  if (!plan.breakdown) return [{ label: plan.name, rows }]
  const byKey = new Map<string, Series & { rank: number }>()
  for (const r of rows) {
    if (Number(r.overall) === 1) continue
    const named = Number(r.named) === 1
    const key = named ? `v:${r.series}` : 'other'
    let s = byKey.get(key)
    if (!s) {
      s = { label: named ? r.series || NOT_SET : OTHER, rows: [], rank: named ? Number(r.rank) : Number.MAX_SAFE_INTEGER }
      byKey.set(key, s)
    }
    s.rank = Math.min(s.rank, named ? Number(r.rank) : s.rank)
    s.rows.push(r)
  }
  if (plan.breakdown.values.length) {
    const named = plan.breakdown.values.map((v) => byKey.get(`v:${v}`) ?? { label: v, rows: [], rank: 0 })
    const other = byKey.get('other')
    return other ? [...named, other] : named
  }
  // Ranked values that count nothing (members who did not qualify) would only draw zeros.
  const counts = (s: Series) => s.rows.some((r) => Object.keys(r).some((k) => !ROW_KEYS.has(k) && Number(r[k]) !== 0))
  return [...byKey.values()].filter(counts).sort((a, b) => a.rank - b.rank)
}
