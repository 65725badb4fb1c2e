import { colorOfRating, ratingLabel, tintOfRating } from './ratings.ts'

/** A rating as a coloured label (Importance in Correlation). */
export function RatingChip({ rating }: { rating: string }) {
  return (
    <span data-rating={rating} className="inline-block rounded px-1.5 py-0.5 text-xs font-medium" style={{ color: colorOfRating(rating), backgroundColor: tintOfRating(rating) }}>
      {ratingLabel(rating)}
    </span>
  )
}
