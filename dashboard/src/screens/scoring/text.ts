import { SCORING_TEXT, type RatingQuality } from '@fl0/contracts/scoring'

/** Where the scoring screens live, and the names their fetches are refetched by. */
export const SCORING_MODELS = 'scoring-models'
export const SCORING_MODEL = 'scoring-model'

const enc = encodeURIComponent
export const scoringPath = (org: string) => `/organizations/${enc(org)}/scoring`
export const modelPath = (org: string, analysisId: string, tab = '') => `${scoringPath(org)}/${enc(analysisId)}${tab ? `/${tab}` : ''}`
/** Model output's users link to their events in the people-ai mount (part 3 §2). */
export const userEventsPath = (org: string, userId: string) => `/organizations/${enc(org)}/people-ai/users/${enc(userId)}/events`

/** The model page's tabs (part 3 §2), each at its own address below scoring/{analysisId}. */
export const MODEL_TABS = [
  { path: '', label: SCORING_TEXT.tabs.correlation },
  { path: 'model-output', label: SCORING_TEXT.tabs.modelOutput },
  { path: 'settings', label: SCORING_TEXT.tabs.settings },
  { path: 'backtest-predictions', label: SCORING_TEXT.tabs.backtest },
] as const

/** A model's verdict against the bar of a good lead-scoring model, in a few words (the gallery card; the tabs give the sentence). */
export const VERDICT_SHORT: Record<RatingQuality['verdict'], string> = {
  met: 'Ratings meet the bar for a good model',
  notMet: 'Ratings fall short of the bar for a good model',
  tooFew: 'Too few users reached the metric to judge these ratings',
}

/** A line of SCORING_EXPLAIN said of other users than the held-out ones it names (the backtest's). */
export const explainOn = (line: string, on: string) => line.replace('held-out users', on)
