import { createRequire } from 'node:module'
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas'
import { RATING_COLORS, type RatingName } from '@fl0/contracts'

/**
 * The scoring images, drawn on the server as PNG with Skia (@napi-rs/canvas,
 * prebuilt) in the Inter font, which ships with fl0 as a package so the text
 * is the same on any machine, fonts installed or not. Each image is a pure
 * function of its numbers: the per-user ones are drawn on request from what
 * the model stored for the user.
 */
const require = createRequire(import.meta.url)
let fontsReady = false
function fonts() {
  if (fontsReady) return
  GlobalFonts.registerFromPath(require.resolve('@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf'), 'fl0 Inter')
  GlobalFonts.registerFromPath(require.resolve('@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf'), 'fl0 Inter SemiBold')
  fontsReady = true
}

const INK = '#0f172a'
const MUTED = '#64748b'
const GRID = '#e2e8f0'
const FOR = '#16a34a'
const AGAINST = '#dc2626'
const CSS_COLOR: Record<ReturnType<typeof colorOf>, string> = { red: '#dc2626', orange: '#ea580c', purple: '#7c3aed', green: '#16a34a' }
const colorOf = (rating: RatingName) => RATING_COLORS[rating]

function canvas(width: number, height: number) {
  fonts()
  const c = createCanvas(width, height)
  const ctx = c.getContext('2d')
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(0, 0, width, height)
  return { c, ctx }
}

function text(ctx: SKRSContext2D, s: string, x: number, y: number, o: { size?: number; bold?: boolean; color?: string; align?: CanvasTextAlign; maxWidth?: number } = {}) {
  ctx.font = `${o.size ?? 13}px "${o.bold ? 'fl0 Inter SemiBold' : 'fl0 Inter'}"`
  ctx.fillStyle = o.color ?? INK
  ctx.textAlign = o.align ?? 'left'
  ctx.textBaseline = 'middle'
  let shown = s
  if (o.maxWidth !== undefined && ctx.measureText(shown).width > o.maxWidth) {
    while (shown.length > 1 && ctx.measureText(`${shown}…`).width > o.maxWidth) shown = shown.slice(0, -1)
    shown = `${shown}…`
  }
  ctx.fillText(shown, x, y)
}

const percent = (x: number) => `${Math.round(x * 100)}%`
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`

export interface Factor {
  /** What the user did: "Integration Connected", "Integration Connected · integration: Slack". */
  name: string
  /** Push on the log-odds of the score, compared with the average user. */
  contribution: number
  /** How often the user did it in the period scored. */
  count: number
}

/**
 * The factors behind one user's score: the largest pushes towards reaching
 * the metric (green, to the right) and away from it (red, to the left), in
 * log-odds against the average user, each with how often the user did it.
 */
export function factorsImage(input: { score: number; rating: RatingName; factors: Factor[] }): Buffer {
  const pros = input.factors.filter((f) => f.contribution > 0).sort((a, b) => b.contribution - a.contribution)
  const cons = input.factors.filter((f) => f.contribution < 0).sort((a, b) => a.contribution - b.contribution)
  const rows = [...pros, ...cons]
  const width = 720
  const rowHeight = 26
  const top = 70
  const height = top + Math.max(1, rows.length) * rowHeight + 40
  const { c, ctx } = canvas(width, height)
  text(ctx, `Score ${percent(input.score)}`, 20, 22, { size: 18, bold: true })
  text(ctx, input.rating, 140, 22, { size: 14, bold: true, color: CSS_COLOR[colorOf(input.rating)] })
  text(ctx, 'What moves this score, against the average user (log-odds)', 20, 48, { color: MUTED })

  const labelWidth = 300
  const axis = labelWidth + 20 + (width - labelWidth - 40) / 2
  const half = (width - labelWidth - 40) / 2 - 50
  const largest = Math.max(1e-9, ...rows.map((f) => Math.abs(f.contribution)))
  ctx.strokeStyle = GRID
  ctx.beginPath()
  ctx.moveTo(axis + 0.5, top - 8)
  ctx.lineTo(axis + 0.5, top + rows.length * rowHeight)
  ctx.stroke()
  if (rows.length === 0) text(ctx, 'No factor moves this score', 20, top + 10, { color: MUTED })
  rows.forEach((f, i) => {
    const y = top + i * rowHeight
    const label = `${f.name} (${f.count === 0 ? 'never' : `${f.count}×`})`
    text(ctx, label, 20, y + rowHeight / 2, { maxWidth: labelWidth })
    const length = Math.max(2, (Math.abs(f.contribution) / largest) * half)
    ctx.fillStyle = f.contribution > 0 ? FOR : AGAINST
    const x = f.contribution > 0 ? axis : axis - length
    ctx.fillRect(x, y + 5, length, rowHeight - 10)
    text(ctx, signed(f.contribution), f.contribution > 0 ? axis + length + 6 : axis - length - 6, y + rowHeight / 2, {
      size: 12,
      color: MUTED,
      align: f.contribution > 0 ? 'left' : 'right',
    })
  })
  text(ctx, '← away from the metric', axis - 8, height - 18, { size: 12, color: AGAINST, align: 'right' })
  text(ctx, 'towards the metric →', axis + 8, height - 18, { size: 12, color: FOR })
  return c.toBuffer('image/png')
}

/** Where one user's score sits among everyone's: a histogram of all scores by hundredth, the user's marked. */
export function scoreImage(input: { score: number; rating: RatingName; histogram: number[] }): Buffer {
  const width = 720
  const height = 260
  const { c, ctx } = canvas(width, height)
  const total = input.histogram.reduce((a, b) => a + b, 0)
  const above = input.histogram.reduce((n, count, i) => n + (i / 100 > input.score ? count : 0), 0)
  text(ctx, `Score ${percent(input.score)}`, 20, 22, { size: 18, bold: true })
  text(ctx, input.rating, 140, 22, { size: 14, bold: true, color: CSS_COLOR[colorOf(input.rating)] })
  text(ctx, `Among ${total.toLocaleString('en-US')} users scored${total ? `, ${percent(above / total)} score higher` : ''}`, 20, 48, { color: MUTED })
  const left = 50
  const right = width - 20
  const bottom = height - 40
  const plotTop = 70
  const peak = Math.max(1, ...input.histogram)
  const barWidth = (right - left) / 100
  // Rating bands under the bars.
  const bands: Array<[number, number, RatingName]> = [
    [0, 0.25, 'poor'],
    [0.25, 0.5, 'fair'],
    [0.5, 0.75, 'good'],
    [0.75, 1, 'excellent'],
  ]
  for (const [from, to, rating] of bands) {
    ctx.fillStyle = CSS_COLOR[colorOf(rating)]
    ctx.globalAlpha = 0.12
    ctx.fillRect(left + from * (right - left), plotTop, (to - from) * (right - left), bottom - plotTop)
    ctx.globalAlpha = 1
    text(ctx, rating, left + ((from + to) / 2) * (right - left), plotTop + 10, { size: 11, color: CSS_COLOR[colorOf(rating)], align: 'center' })
  }
  input.histogram.forEach((count, i) => {
    if (count === 0) return
    // Square root: a few users far from the crowd stay visible beside thousands near zero.
    const h = Math.max(1, (Math.sqrt(count) / Math.sqrt(peak)) * (bottom - plotTop - 24))
    ctx.fillStyle = '#94a3b8'
    ctx.fillRect(left + i * barWidth + 0.5, bottom - h, Math.max(1, barWidth - 1), h)
  })
  const x = left + Math.min(1, Math.max(0, input.score)) * (right - left)
  ctx.strokeStyle = INK
  ctx.lineWidth = 2
  ctx.beginPath()
  ctx.moveTo(x, plotTop)
  ctx.lineTo(x, bottom)
  ctx.stroke()
  text(ctx, 'this user', x + (x > width - 100 ? -6 : 6), plotTop + 28, { size: 12, bold: true, align: x > width - 100 ? 'right' : 'left' })
  ctx.strokeStyle = GRID
  ctx.lineWidth = 1
  ctx.beginPath()
  ctx.moveTo(left, bottom + 0.5)
  ctx.lineTo(right, bottom + 0.5)
  ctx.stroke()
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) text(ctx, percent(tick), left + tick * (right - left), bottom + 14, { size: 11, color: MUTED, align: 'center' })
  text(ctx, 'score (users per hundredth, square-root scale)', (left + right) / 2, height - 10, { size: 11, color: MUTED, align: 'center' })
  return c.toBuffer('image/png')
}

export interface BacktestBucket {
  from: number
  to: number
  users: number
  meanScore: number
  reached: number
}

/**
 * How the backtest's predictions fared: for each tenth of predicted score,
 * the mean score (what the model said) beside the share who really reached
 * the metric (what happened), with the model's held-out numbers.
 */
export function backtestImage(input: { buckets: BacktestBucket[]; auc: number; accuracy: number; baselineAccuracy: number; users: number; period: string }): Buffer {
  const width = 720
  const height = 360
  const { c, ctx } = canvas(width, height)
  text(ctx, 'Prediction accuracy', 20, 22, { size: 18, bold: true })
  text(ctx, `${input.period} · ${input.users.toLocaleString('en-US')} users · AUC ${input.auc.toFixed(2)} · accuracy ${percent(input.accuracy)} (majority class: ${percent(input.baselineAccuracy)})`, 20, 48, {
    color: MUTED,
    maxWidth: width - 40,
  })
  const left = 60
  const right = width - 20
  const top = 80
  const bottom = height - 60
  ctx.strokeStyle = GRID
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const y = bottom - tick * (bottom - top)
    ctx.beginPath()
    ctx.moveTo(left, y + 0.5)
    ctx.lineTo(right, y + 0.5)
    ctx.stroke()
    text(ctx, percent(tick), left - 8, y, { size: 11, color: MUTED, align: 'right' })
  }
  const slot = (right - left) / Math.max(1, input.buckets.length)
  input.buckets.forEach((b, i) => {
    const x = left + i * slot
    const bar = (slot - 12) / 2
    const predicted = b.users ? b.meanScore : 0
    const actual = b.users ? b.reached / b.users : 0
    ctx.fillStyle = '#7c3aed'
    ctx.fillRect(x + 6, bottom - predicted * (bottom - top), bar, predicted * (bottom - top))
    ctx.fillStyle = '#16a34a'
    ctx.fillRect(x + 6 + bar, bottom - actual * (bottom - top), bar, actual * (bottom - top))
    text(ctx, `${Math.round(b.from * 100)}–${Math.round(b.to * 100)}`, x + slot / 2, bottom + 14, { size: 11, color: MUTED, align: 'center' })
    text(ctx, b.users.toLocaleString('en-US'), x + slot / 2, bottom + 30, { size: 10, color: MUTED, align: 'center' })
  })
  text(ctx, 'predicted score (%), users', (left + right) / 2, height - 10, { size: 11, color: MUTED, align: 'center' })
  ctx.fillStyle = '#7c3aed'
  ctx.fillRect(right - 260, 66, 10, 10)
  text(ctx, 'predicted', right - 245, 71, { size: 12 })
  ctx.fillStyle = '#16a34a'
  ctx.fillRect(right - 170, 66, 10, 10)
  text(ctx, 'really reached the metric', right - 155, 71, { size: 12 })
  return c.toBuffer('image/png')
}
