import type { BacktestPredictions } from '../../../../api/types.ts'
import { count, scoreRange, share } from '../../numbers.ts'

const num = 'px-3 py-1.5 text-right tabular-nums'

/** The chart's numbers per tenth of score: its range, users, their mean predicted score, how many reached the metric and their rate. */
export function BucketTable({ buckets }: { buckets: BacktestPredictions['buckets'] }) {
  return (
    <table aria-label="Users by score" className="w-full text-sm">
      <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
        <tr className="border-b border-slate-200">
          <th scope="col" className="px-3 py-2 font-medium">
            Score
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Users
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Mean predicted
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Reached
          </th>
          <th scope="col" className="px-3 py-2 text-right font-medium">
            Actual rate
          </th>
        </tr>
      </thead>
      <tbody>
        {[...buckets].reverse().map((b) => (
          <tr key={b.from} className="border-b border-slate-100 last:border-0">
            <th scope="row" className="px-3 py-1.5 text-left font-medium whitespace-nowrap text-slate-800">
              {scoreRange(b.from, b.to)}
            </th>
            <td className={num}>{count(b.users)}</td>
            <td className={num}>{b.users ? share(b.meanScore) : '–'}</td>
            <td className={num}>{count(b.reached)}</td>
            <td className={num}>{b.users ? share(b.reached / b.users) : '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
