import { ratingQualityText, type RatingQuality } from '@fl0/contracts/scoring'

const TONES: Record<RatingQuality['verdict'], { box: string; mark: string }> = {
  met: { box: 'border-green-200 bg-green-50 text-green-900', mark: '✓' },
  notMet: { box: 'border-amber-300 bg-amber-50 text-amber-900', mark: '!' },
  tooFew: { box: 'border-amber-300 bg-amber-50 text-amber-900', mark: '?' },
}

/**
 * The ratings held to the bar of a good lead-scoring model (RATING_BAR), in
 * the contract's sentence: green when they meet it, amber when they fall
 * short or too few reached the metric to tell, so a reader never takes
 * ratings that do not sort users for ones that do. `on` names the users
 * measured ('held-out users', 'backtest users').
 */
export function Verdict({ quality, on }: { quality: RatingQuality; on: string }) {
  const tone = TONES[quality.verdict]
  return (
    <div role="note" aria-label="Verdict" data-verdict={quality.verdict} className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${tone.box}`}>
      <span aria-hidden className="mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full border border-current text-xs font-bold">
        {tone.mark}
      </span>
      <p>{ratingQualityText(quality, on)}</p>
    </div>
  )
}
