/**
 * How the scoring screens write their figures, as the rest of the dashboard
 * does: counts with thousands separators, shares of 0 to 1 as percentages
 * with one decimal and no space ('78.3%'), lifts as factors ('4.2×').
 * Rating shares of 0 to 100 keep ratings.ts's percent (whole numbers), and
 * a user's score is a whole percent, as Model output's bar shows it (part 3
 * §9); figures measured over many users (accuracy, rates) keep a decimal.
 */
export const count = (n: number) => n.toLocaleString('en-US')

/** A share of 0 to 1: '78.3%'. One decimal always, so figures in a column line up. */
export const share = (x: number) => `${(x * 100).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`

/** A lift or ratio: '4.2×' below 10, '23×' from 10 (as the verdict sentence writes them). */
export const times = (x: number) => `${x.toLocaleString('en-US', x < 10 ? { minimumFractionDigits: 1, maximumFractionDigits: 1 } : { maximumFractionDigits: 0 })}×`

/** A score's tenth as a range of percentages: '30–40%'. */
export const scoreRange = (from: number, to: number) => `${Math.round(from * 100)}–${Math.round(to * 100)}%`

/** The accuracy of always answering the commoner outcome, named by that outcome, as read beside a model's accuracy. */
export const baselineText = (baseline: number, positiveRate: number) => `vs ${share(baseline)} always-${positiveRate > 0.5 ? 'yes' : 'no'} baseline`

/** Accuracy that does not beat always answering the commoner outcome by a tenth of a point says nothing of the model: said so beside it. */
export const beatsBaseline = (accuracy: number, baseline: number) => accuracy - baseline >= 0.001

/** A user's score of 0 to 1 as a whole percent of 100: '75%'. */
export const scorePercent = (score: number) => `${Math.round(Math.max(0, Math.min(1, score)) * 100)}%`
