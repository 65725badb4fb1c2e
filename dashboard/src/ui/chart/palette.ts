/** Series colours, in order: distinct at a glance and readable on white (Tailwind 600s). */
export const PALETTE = ['#4f46e5', '#0891b2', '#d97706', '#db2777', '#16a34a', '#7c3aed', '#dc2626', '#0d9488', '#ca8a04', '#475569'] as const

export const colorOf = (index: number) => PALETTE[index % PALETTE.length]!

/** The metric engine's catch-all series ('Other', 'Not set') in greys, so they never pass for a value of their own. */
const CATCH_ALL: Record<string, string> = { Other: '#94a3b8', 'Not set': '#cbd5e1' }

export const seriesColor = (label: string, index: number) => CATCH_ALL[label] ?? colorOf(index)
