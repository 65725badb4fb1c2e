import { useState } from 'react'
import { COMPANY_TEXT } from '@fl0/contracts/companies'
import type { BusinessIntent } from '../../api/types.ts'
import { formatDate, shortNumber } from '../../ui/format.ts'

/** The card lists this many topics until asked for all. */
export const INTENTS_PREVIEW = 5
/** Partners score intents from 0 to 100; a file with larger scores is drawn against its largest. */
const SCALE = 100

/**
 * Each topic once, at its latest date: the list comes newest first, then
 * highest score (api/src/identification/intents.ts), so a topic's first row is
 * its latest.
 */
export function latestByTopic(intents: BusinessIntent[]): BusinessIntent[] {
  const seen = new Set<string>()
  return intents.filter((i) => !seen.has(i.topic) && seen.add(i.topic))
}

/** A partner's date (YYYY-MM-DD, a calendar day): 'Feb 27, 2026', whatever the browser's zone. */
const formatDay = (date: string) => formatDate(`${date}T12:00:00Z`, 'UTC')

/**
 * The left panel's Business intent card: what the company's people research,
 * as an identity partner scores it (imported by the admin's "Import business
 * intents"), each topic with its latest score and date. Shown only when the
 * partner has something for the domain: most installs import no intents, and
 * an empty card on every company would say nothing.
 */
export function BusinessIntents({ intents }: { intents: BusinessIntent[] }) {
  const [all, setAll] = useState(false)
  const topics = latestByTopic(intents)
  if (topics.length === 0) return null
  const scale = Math.max(SCALE, ...topics.map((t) => t.score))
  const shown = all ? topics : topics.slice(0, INTENTS_PREVIEW)
  return (
    <section aria-labelledby="intents-heading" className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex items-baseline justify-between">
        <h2 id="intents-heading" className="text-sm font-semibold">
          Business intent
        </h2>
        <span className="text-xs text-slate-500">{COMPANY_TEXT.past30Days}</span>
      </div>
      <ul className="mt-2 space-y-2.5">
        {shown.map((t) => (
          <li key={t.topic} aria-label={t.topic} className="text-sm">
            <div className="flex items-baseline gap-2">
              <span className="min-w-0 flex-1 truncate text-slate-800" title={t.topic}>
                {t.topic}
              </span>
              <span className="shrink-0 font-medium tabular-nums text-slate-900" data-testid="intent-score">
                {shortNumber(t.score)}
              </span>
            </div>
            <div className="mt-1 flex items-center gap-2">
              <div role="meter" aria-label={`${t.topic} score`} aria-valuenow={t.score} aria-valuemin={0} aria-valuemax={scale} className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100">
                <div className="h-full rounded-full bg-indigo-500" style={{ width: `${Math.max(0, Math.min(100, (t.score / scale) * 100))}%` }} />
              </div>
              <time dateTime={t.date} className="shrink-0 text-xs text-slate-500">
                {formatDay(t.date)}
              </time>
            </div>
          </li>
        ))}
      </ul>
      {topics.length > INTENTS_PREVIEW && (
        <button type="button" onClick={() => setAll(!all)} className="mt-2 text-sm text-indigo-700 hover:underline">
          {all ? 'Show fewer topics' : `Show all ${topics.length} topics`}
        </button>
      )}
    </section>
  )
}
