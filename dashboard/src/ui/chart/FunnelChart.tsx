import { shortNumber } from '../format.ts'
import type { Series } from './SeriesChart.tsx'
import { seriesColor } from './palette.ts'

/** A share as a whole percent ('42%'), one decimal under 10% ('4.5%'); nothing of nothing is 0%. */
export function percent(part: number, whole: number): string {
  if (!whole) return '0%'
  const p = (part / whole) * 100
  return `${p < 10 && p > 0 ? p.toFixed(1).replace(/\.0$/, '') : Math.round(p)}%`
}

interface Props {
  steps: string[]
  series: Series[]
  /** The chart's accessible name. */
  label: string
  /** The funnel's headline ('42% converted'), shown above it. */
  headline?: string
  height?: number
}

/**
 * A funnel: one column per step, its bar as tall as the share of the first
 * step that reached it, with the conversion from the first step under it and
 * from the step before on the way in. Several series (a breakdown) stand side
 * by side within each step. Plain HTML: the numbers are the point, and they
 * stay readable and selectable.
 */
export function FunnelChart({ steps, series, label, headline, height = 240 }: Props) {
  const max = Math.max(1, ...series.flatMap((s) => s.data))
  return (
    <div>
      {headline && <p className="mb-3 text-2xl font-semibold tabular-nums text-slate-900">{headline}</p>}
      <ol aria-label={label} className="flex items-end gap-2">
        {steps.map((step, i) => (
          <li key={`${i}-${step}`} aria-label={`Step ${i + 1}: ${step}`} className="flex min-w-0 flex-1 flex-col">
            <div className="flex items-end justify-center gap-1 rounded-t bg-slate-50 px-2" style={{ height }}>
              {series.map((s, k) => {
                const n = s.data[i] ?? 0
                return (
                  <div key={k} className="flex h-full max-w-24 flex-1 flex-col justify-end">
                    {i > 0 && (
                      <span data-testid="step-conversion" className="mb-1 text-center text-xs text-slate-500" title={`From step ${i}`}>
                        → {percent(n, s.data[i - 1] ?? 0)}
                      </span>
                    )}
                    <div className="rounded-t" style={{ height: `${(n / max) * 100}%`, minHeight: n > 0 ? 2 : 0, background: seriesColor(s.label, k) }} />
                  </div>
                )
              })}
            </div>
            <div className="border-t border-slate-300 pt-2 text-sm">
              <p className="truncate font-medium text-slate-800" title={step}>
                {i + 1}. {step}
              </p>
              {series.map((s, k) => (
                <p key={k} data-testid="step-value" data-count={s.data[i] ?? 0} className="flex items-baseline gap-2 tabular-nums">
                  {series.length > 1 && <span aria-hidden className="h-2 w-2 shrink-0 rounded-full" style={{ background: seriesColor(s.label, k) }} />}
                  <span className="text-base font-semibold text-slate-900" title={String(s.data[i] ?? 0)}>
                    {shortNumber(s.data[i] ?? 0)}
                  </span>
                  <span className="text-xs text-slate-500">{percent(s.data[i] ?? 0, s.data[0] ?? 0)}</span>
                  {series.length > 1 && <span className="truncate text-xs text-slate-500">{s.label}</span>}
                </p>
              ))}
            </div>
          </li>
        ))}
      </ol>
    </div>
  )
}
