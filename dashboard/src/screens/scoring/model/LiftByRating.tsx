import type { RatingQuality } from '@fl0/contracts/scoring'
import { count, share, times } from '../numbers.ts'
import { colorOfRating, ratingLabel, tintOfRating } from '../ratings.ts'
import { Verdict } from './Verdict.tsx'

const cell = 'px-3 py-2 text-right tabular-nums'

/** A model trained before its ratings were measured on users it never saw (the server answers no users): nothing to show but how to get it. */
export const NOT_MEASURED = 'This model was trained before its ratings were measured on users it never saw: rebuild it to see their lift and whether they meet the bar of a good model.'

/** The lift as a bar against the largest one, with its value: the excellent row's length says at a glance how far it beats the rest. */
function LiftBar({ lift, max, rating }: { lift: number; max: number; rating: string }) {
  return (
    <div className="flex items-center justify-end gap-2">
      <div aria-hidden className="h-2 w-16 overflow-hidden rounded-full" style={{ backgroundColor: tintOfRating(rating) }}>
        <div className="h-full rounded-full" style={{ width: `${max > 0 ? Math.min(100, (lift / max) * 100) : 0}%`, backgroundColor: colorOfRating(rating) }} />
      </div>
      <span className="w-12 font-semibold text-slate-900">{times(lift)}</span>
    </div>
  )
}

/**
 * 'Lift by rating': for each rating, best first, the users measured (whose
 * outcome the model never saw), their share, how many reached the metric,
 * their rate and its lift over the average; the average itself last. Then
 * the verdict against the bar of a good lead-scoring model. A model trained
 * before this was measured says so instead of showing zeros.
 */
export function LiftByRating({ quality, on, explain, title = 'Lift by rating' }: { quality: RatingQuality; on: string; explain: string; title?: string }) {
  const id = `lift-${on.replace(/\W+/g, '-')}`
  return (
    <section aria-labelledby={id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div>
        <h2 id={id} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        <p className="mt-0.5 text-xs text-slate-500">{explain}</p>
      </div>
      {quality.users === 0 ? (
        <p role="note" aria-label="Verdict" className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
          {NOT_MEASURED}
        </p>
      ) : (
        <Measured quality={quality} on={on} title={title} />
      )}
    </section>
  )
}

function Measured({ quality, on, title }: { quality: RatingQuality; on: string; title: string }) {
  const rows = [...quality.ratings].reverse()
  const max = Math.max(0, ...rows.map((r) => r.lift))
  return (
    <div className="grid items-start gap-4 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="2xl:order-last">
        <Verdict quality={quality} on={on} />
      </div>
      <div className="overflow-x-auto">
        <table aria-label={title} className="w-full min-w-[34rem] text-sm">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr className="border-b border-slate-200">
              <th scope="col" className="px-3 py-2 font-medium">
                Rating
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Users
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Share
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Reached
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Rate
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Lift
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name} data-rating={r.name} className="border-b border-slate-100">
                <th scope="row" className="px-3 py-2 text-left font-medium text-slate-800">
                  <span className="inline-flex items-center gap-2">
                    <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: colorOfRating(r.name) }} />
                    {ratingLabel(r.name)}
                  </span>
                </th>
                <td className={cell}>{count(r.users)}</td>
                <td className={cell}>{share(r.share)}</td>
                <td className={cell}>{count(r.reached)}</td>
                <td className={cell}>{share(r.rate)}</td>
                <td className={cell}>
                  <LiftBar lift={r.lift} max={max} rating={r.name} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="text-slate-600">
              <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                All {on}
              </th>
              <td className={cell}>{count(quality.users)}</td>
              <td className={cell}>{share(quality.users ? 1 : 0)}</td>
              <td className={cell}>{count(quality.reached)}</td>
              <td className={cell}>{share(quality.averageRate)}</td>
              <td className={`${cell} pr-3`}>
                <span className="inline-block w-12">{times(quality.averageRate ? 1 : 0)}</span>
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  )
}
