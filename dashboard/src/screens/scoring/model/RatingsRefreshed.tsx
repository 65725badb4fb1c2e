import { formatDate, formatDateTime } from '../../../ui/format.ts'

/** 'Ratings refreshed Nov 24, 2026': when the users shown were last scored, the time on hover. */
export function RatingsRefreshed({ scoredAt }: { scoredAt: string }) {
  return (
    <span data-testid="ratings-refreshed">
      Ratings refreshed{' '}
      <time dateTime={scoredAt} title={formatDateTime(scoredAt)} className="whitespace-nowrap">
        {formatDate(scoredAt)}
      </time>
    </span>
  )
}
