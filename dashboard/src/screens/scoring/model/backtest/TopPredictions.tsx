import { useState } from 'react'
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../../constants.ts'
import type { BacktestPredictions } from '../../../../api/types.ts'
import { DataGrid, type Column } from '../../../../ui/grid/DataGrid.tsx'
import { count, scorePercent } from '../../numbers.ts'
import { userEventsPath } from '../../text.ts'

type Prediction = BacktestPredictions['predictions'][number] & { rank: number }

const yesNo = (yes: boolean, tone: string) => <span className={yes ? `font-medium ${tone}` : 'text-slate-500'}>{yes ? 'Yes' : 'No'}</span>

/** The backtest's highest-scored users, 20 a page, with what it predicted and what happened; each user links to their events. */
export function TopPredictions({ org, predictions }: { org: string; predictions: BacktestPredictions['predictions'] }) {
  const [page, setPage] = useState(1)
  const ranked: Prediction[] = predictions.map((p, i) => ({ ...p, rank: i + 1 }))
  const columns: Column<Prediction>[] = [
    { key: 'rank', header: 'Rank', width: 90, render: (p) => <span className="tabular-nums">{count(p.rank)}</span> },
    {
      key: 'user',
      header: 'User',
      width: 320,
      render: (p) => (
        <Link to={userEventsPath(org, p.userId)} className="text-indigo-700 hover:underline">
          {p.userId}
        </Link>
      ),
    },
    { key: 'score', header: 'Score', width: 120, render: (p) => <span className="tabular-nums">{scorePercent(p.score)}</span> },
    { key: 'predicted', header: 'Predicted to reach', width: 170, render: (p) => yesNo(p.predicted, 'text-indigo-700') },
    { key: 'reached', header: 'Reached', width: 120, render: (p) => yesNo(p.reached, 'text-green-700') },
  ]
  return (
    <DataGrid
      columns={columns}
      rows={ranked.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)}
      rowKey={(p) => p.userId}
      total={ranked.length}
      page={page}
      onPage={setPage}
      empty="No users found"
    />
  )
}
