import { useRef, useState } from 'react'
import { Link } from 'react-router'
import { SCORING_TEXT } from '@fl0/contracts/scoring'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { FetchView } from '../../../ui/FetchView.tsx'
import { DataGrid, type Column } from '../../../ui/grid/DataGrid.tsx'
import { usePage } from '../../../ui/grid/usePage.ts'
import { Spinner } from '../../../ui/Spinner.tsx'
import { ErrorPanel } from '../../../ui/ErrorPanel.tsx'
import { ExpandButton, SearchBox } from '../../lexicon/controls.tsx'
import { count } from '../numbers.ts'
import { byRating, colorOfRating, percent, ratingLabel, tintOfRating } from '../ratings.ts'
import type { Rating, ScoredUser } from '../../../api/types.ts'
import { userEventsPath } from '../text.ts'
import { Verdict } from './Verdict.tsx'

/** The share of users in each rating, one card each, in the ratings' order. */
function RatingShares({ ratings }: { ratings: Rating[] }) {
  return (
    <ul aria-label="Rating shares" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {byRating(ratings).map((r) => (
        <li key={r.name} data-rating={r.name} className="rounded-lg border border-slate-200 bg-white px-4 py-3" style={{ borderTopColor: colorOfRating(r.name), borderTopWidth: 3 }}>
          <p className="text-xs font-medium text-slate-500">{ratingLabel(r.name)}</p>
          <p className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{percent(r.percentage)}</p>
          <p className="text-xs tabular-nums text-slate-500">{count(r.count)} users</p>
        </li>
      ))}
    </ul>
  )
}

/** The score as a bar out of 100 with the rating's label and the percentage (part 3 §9). */
export function ScoreBar({ score, rating }: { score: number; rating: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, score)) * 100)
  return (
    <div className="flex items-center gap-3">
      <div role="meter" aria-label="Score" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} className="h-2 w-40 overflow-hidden rounded-full" style={{ backgroundColor: tintOfRating(rating) }}>
        <div className="h-full rounded-full" style={{ width: `${pct}%`, backgroundColor: colorOfRating(rating) }} />
      </div>
      <span className="w-16 text-xs font-medium" style={{ color: colorOfRating(rating) }}>
        {ratingLabel(rating)}
      </span>
      <span className="w-10 text-right text-xs tabular-nums text-slate-700">{pct}%</span>
    </div>
  )
}

/** The images that explain one user's score (the top factors for and against), drawn by the server as PNG. */
function UserImages({ org, analysisId, user }: { org: string; analysisId: string; user: ScoredUser }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.scoring.userImages(org, analysisId, user.userId, signal), [org, analysisId, user.userId])
  return (
    <FetchView fetched={fetched}>
      {({ images }) =>
        images.length === 0 ? (
          <p className="text-sm text-slate-500">No images found</p>
        ) : (
          <div className="flex flex-wrap gap-4">
            {images.map((file) => (
              <img key={file} src={api.scoring.userImageUrl(org, analysisId, user.userId, file)} alt={`${user.name}: ${file}`} className="max-w-full rounded border border-slate-200 bg-white" />
            ))}
          </div>
        )
      }
    </FetchView>
  )
}

/**
 * The ratings' verdict on held-out users (from Correlation), shown here only
 * when they fall short of the bar or too few reached the metric to tell: the
 * shares above then do not mean what they seem to. A failed call shows
 * nothing: the ratings stand as they are, and Correlation says why it failed.
 */
function ShortfallNote({ org, analysisId }: { org: string; analysisId: string }) {
  const api = useApi()
  const correlation = useFetch((signal) => api.scoring.correlation(org, analysisId, signal), [org, analysisId])
  if (correlation.status !== 'loaded' || correlation.data.quality.verdict === 'met') return null
  return <Verdict quality={correlation.data.quality} on="held-out users" />
}

/**
 * Model output (part 3 §2): the rating shares, search, and the users by
 * score, paged by the server: rank, the score bar, the user (to their events
 * in people-ai); a row expands into that user's images.
 */
export function ModelOutputTab({ org, analysisId }: { org: string; analysisId: string }) {
  const api = useApi()
  const [search, setSearch] = useState('')
  const q = search.trim()
  const [page, setPage] = usePage(q)
  const [open, setOpen] = useState<string | null>(null)
  const fetched = useFetch((signal) => api.scoring.modelOutput(org, analysisId, page, q, signal), [org, analysisId, page, q])
  // The shares stay on screen while another page or search loads.
  const lastRatings = useRef<Rating[] | null>(null)
  if (fetched.status === 'loaded') lastRatings.current = fetched.data.ratings
  const ratings = lastRatings.current

  const columns: Column<ScoredUser>[] = [
    {
      key: 'rank',
      header: 'Rank',
      width: 110,
      render: (u) => (
        <ExpandButton expanded={open === u.userId} onToggle={() => setOpen((o) => (o === u.userId ? null : u.userId))}>
          {count(u.number)}
        </ExpandButton>
      ),
    },
    { key: 'score', header: 'Score', width: 360, render: (u) => <ScoreBar score={u.score} rating={u.rating} /> },
    {
      key: 'user',
      header: 'User',
      width: 360,
      render: (u) => (
        <Link to={userEventsPath(org, u.userId)} className="text-indigo-700 hover:underline">
          {u.name || u.userId}
        </Link>
      ),
    },
  ]

  return (
    <div className="space-y-5">
      {ratings ? <RatingShares ratings={ratings} /> : fetched.status === 'error' ? null : <Spinner />}
      <ShortfallNote org={org} analysisId={analysisId} />
      <SearchBox label="Search users" value={search} onChange={setSearch} />
      {fetched.status === 'error' ? (
        <ErrorPanel message={fetched.error} />
      ) : fetched.status === 'pending' ? (
        <Spinner />
      ) : (
        <DataGrid
          columns={columns}
          rows={fetched.data.users}
          rowKey={(u) => u.userId}
          total={fetched.data.totalUsers}
          page={page}
          onPage={setPage}
          empty={SCORING_TEXT.noUsers}
          expanded={(u) => (open === u.userId ? <UserImages org={org} analysisId={analysisId} user={u} /> : undefined)}
        />
      )}
    </div>
  )
}
