import { RATING_COLORS, RATINGS, type RatingName } from '@fl0/contracts/scoring'

/**
 * The ratings' colours on screen (part 3 §3): poor red, fair orange, good
 * purple, excellent green, as the contract names them; the shades are
 * Tailwind's, readable on white, with a light tint of each for tracks and chips.
 */
const HUES: Record<(typeof RATING_COLORS)[RatingName], { color: string; tint: string }> = {
  red: { color: '#dc2626', tint: '#fee2e2' },
  orange: { color: '#ea580c', tint: '#ffedd5' },
  purple: { color: '#9333ea', tint: '#f3e8ff' },
  green: { color: '#16a34a', tint: '#dcfce7' },
}

const hue = (name: string) => HUES[RATING_COLORS[name as RatingName]] ?? { color: '#94a3b8', tint: '#f1f5f9' }
export const colorOfRating = (name: string) => hue(name).color
export const tintOfRating = (name: string) => hue(name).tint

export const ratingLabel = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** Ratings in their fixed order, worst first, whatever order they come in; unknown names last. */
export function byRating<T extends { name: string }>(list: readonly T[]): T[] {
  const rank = (n: string) => {
    const i = (RATINGS as readonly string[]).indexOf(n)
    return i < 0 ? RATINGS.length : i
  }
  return [...list].sort((a, b) => rank(a.name) - rank(b.name))
}

/** A percentage of 0 to 100 as shown: whole numbers, one decimal below 10 so a small share is not read as none. */
export function percent(value: number): string {
  if (value > 0 && value < 10) return `${Math.round(value * 10) / 10}%`
  return `${Math.round(value)}%`
}
