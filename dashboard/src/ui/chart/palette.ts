/**
 * Series colours. Twelve hues first, ordered so that the first few differ
 * most (as Tableau's and Observable's categorical palettes do), chosen
 * apart in OKLab: no two of them, nor either catch-all grey, are closer than
 * 0.11 (Tailwind's indigo and violet 600s, once neighbours here, are 0.07).
 * A breakdown has at most ten values plus 'Other' and 'Not set' unless the
 * user names more (query/src/metrics/plan.ts, BREAKDOWN_TOP); past twelve the
 * hues come round again darker, then lighter, so that no two series share a
 * colour. Dashes are not used for this: a dashed line marks a partial period.
 */
export const PALETTE = [
  '#4f46e5', // indigo
  '#ea580c', // orange
  '#047857', // green
  '#db2777', // pink
  '#0ea5e9', // sky
  '#a855f7', // purple
  '#78350f', // brown
  '#65a30d', // lime
  '#ca8a04', // gold
  '#b91c1c', // red
  '#f472b6', // light pink
  '#1e3a8a', // navy
] as const

/** Each round past the first mixes the hues with black (negative) or white (positive). */
const ROUNDS = [0, -0.4, 0.45, -0.6, 0.65] as const

function mix(hex: string, amount: number): string {
  if (amount === 0) return hex
  const n = parseInt(hex.slice(1), 16)
  const target = amount < 0 ? 0 : 255
  const t = Math.abs(amount)
  const channel = (c: number) => Math.round(c + (target - c) * t)
  const rgb = [channel(n >> 16), channel((n >> 8) & 255), channel(n & 255)]
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`
}

export const colorOf = (index: number) => {
  const round = Math.floor(index / PALETTE.length) % ROUNDS.length
  return mix(PALETTE[index % PALETTE.length]!, ROUNDS[round]!)
}

/** The metric engine's catch-all series ('Other', 'Not set') in greys, so they never pass for a value of their own. */
export const CATCH_ALL: Record<string, string> = { Other: '#94a3b8', 'Not set': '#cbd5e1' }

export const seriesColor = (label: string, index: number) => CATCH_ALL[label] ?? colorOf(index)
