import { count } from './numbers.ts'
import { byRating, colorOfRating, percent, ratingLabel } from './ratings.ts'

interface Slice {
  name: string
  percentage: number
}

const SIZE = 120
const STROKE = 16
const R = (SIZE - STROKE) / 2
const C = 2 * Math.PI * R

/**
 * The ratings donut of a completed model's card (part 3 §2): one arc per
 * rating, its length its percentage of users, poor → excellent clockwise from
 * the top, the user count in the hole. Drawn as SVG circles with dash arrays:
 * a few elements, no chart library.
 */
export function Donut({ ratings, total, label }: { ratings: readonly Slice[]; total: number; label: string }) {
  const slices = byRating(ratings).filter((r) => r.percentage > 0)
  const sum = slices.reduce((s, r) => s + r.percentage, 0)
  let offset = 0
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} className="shrink-0">
      <circle cx={SIZE / 2} cy={SIZE / 2} r={R} fill="none" stroke="#e2e8f0" strokeWidth={STROKE} />
      {sum > 0 &&
        slices.map((r) => {
          const length = (r.percentage / sum) * C
          const arc = (
            <circle
              key={r.name}
              data-rating={r.name}
              cx={SIZE / 2}
              cy={SIZE / 2}
              r={R}
              fill="none"
              stroke={colorOfRating(r.name)}
              strokeWidth={STROKE}
              strokeDasharray={`${length} ${C - length}`}
              strokeDashoffset={-offset}
              transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
            >
              <title>{`${ratingLabel(r.name)}: ${percent(r.percentage)}`}</title>
            </circle>
          )
          offset += length
          return arc
        })}
      <text x="50%" y="47%" textAnchor="middle" dominantBaseline="middle" className="fill-slate-900 text-[18px] font-semibold">
        {count(total)}
      </text>
      <text x="50%" y="62%" textAnchor="middle" dominantBaseline="middle" className="fill-slate-500 text-[10px]">
        users
      </text>
    </svg>
  )
}
