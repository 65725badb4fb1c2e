import { Link } from 'react-router'
import { SOURCES_TEXT } from '@fl0/contracts/sources'
import type { SourceView } from '../../api/types.ts'
import { modalFor, modalSearch } from './sourceModal.ts'

/**
 * The sources as cards on both sides of a central product node, each joined to
 * it by a drawn line (part 1 §2). Cards have a fixed height, so where each line
 * starts is known from its row: no measuring of the page, and the drawing is
 * the same in every browser and at every width.
 */
const CARD_H = 112
const GAP = 24
const MIDDLE_W = 220
const NODE_R = 44

export const TYPE_LABEL = { segment: 'Segment', snippet: 'JS Snippet' } as const

function Status({ detected }: { detected: boolean }) {
  return detected ? (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-emerald-500" />
      {SOURCES_TEXT.detected}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-amber-500" />
      {SOURCES_TEXT.notDetected}
    </span>
  )
}

function TypeMark({ type }: { type: SourceView['type'] }) {
  return (
    <span
      aria-hidden
      className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-md text-sm font-semibold ${type === 'segment' ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-800'}`}
    >
      {type === 'segment' ? 'S' : 'JS'}
    </span>
  )
}

function SourceCard({ source, column, row, shift }: { source: SourceView; column: 1 | 3; row: number; shift: number }) {
  return (
    <li style={{ gridColumn: column, gridRow: row + 1, transform: shift ? `translateY(${shift}px)` : undefined }}>
      <Link
        to={modalSearch(modalFor(source.type), source.id)}
        className="flex h-full items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow"
      >
        <TypeMark type={source.type} />
        <span className="min-w-0 flex-1 space-y-1">
          <span className="block truncate font-medium text-slate-900">{source.name}</span>
          <span className="block text-xs text-slate-500">{TYPE_LABEL[source.type]}</span>
          {source.type === 'snippet' ? (
            <span className="flex min-w-0 items-center gap-2 pt-1">
              <span className="truncate text-sm text-slate-700">{source.url || 'No domain set'}</span>
              <Status detected={source.detected} />
            </span>
          ) : (
            // Enough of the key to tell which one a pipeline is configured with.
            <span className="block pt-1 font-mono text-xs text-slate-500">API key …{source.api_key.slice(-4)}</span>
          )}
        </span>
      </Link>
    </li>
  )
}

const centerOf = (row: number, offset: number) => offset + row * (CARD_H + GAP) + CARD_H / 2

export function SourceGraph({ sources, productName }: { sources: SourceView[]; productName: string }) {
  const left = sources.filter((_, i) => i % 2 === 0)
  const right = sources.filter((_, i) => i % 2 === 1)
  const heightOf = (n: number) => Math.max(n * CARD_H + (n - 1) * GAP, 0)
  // Room for the node and the name under it, however few cards there are.
  const height = Math.max(heightOf(left.length), NODE_R * 2 + 56)
  const leftTop = (height - heightOf(left.length)) / 2
  const rightTop = (height - heightOf(right.length)) / 2
  const cx = MIDDLE_W / 2
  const cy = height / 2
  const curve = (fromX: number, y: number, toX: number) => `M${fromX},${y} C${(fromX + toX) / 2},${y} ${(fromX + toX) / 2},${cy} ${toX},${cy}`
  const lines = [
    ...left.map((s, i) => ({ id: s.id, d: curve(0, centerOf(i, leftTop), cx - NODE_R) })),
    ...right.map((s, i) => ({ id: s.id, d: curve(MIDDLE_W, centerOf(i, rightTop), cx + NODE_R) })),
  ]
  return (
    <div className="relative">
      <ul
        aria-label="Sources"
        className="grid"
        style={{ gridTemplateColumns: `minmax(0, 1fr) ${MIDDLE_W}px minmax(0, 1fr)`, gridAutoRows: CARD_H, rowGap: GAP, minHeight: height }}
      >
        {/* In the list's order (for reading and tabbing), placed left and right alternately. */}
        {sources.map((s, i) =>
          i % 2 === 0 ? (
            <SourceCard key={s.id} source={s} column={1} row={i / 2} shift={leftTop} />
          ) : (
            <SourceCard key={s.id} source={s} column={3} row={(i - 1) / 2} shift={rightTop} />
          ),
        )}
      </ul>
      <div className="absolute top-0" style={{ left: `calc(50% - ${MIDDLE_W / 2}px)`, width: MIDDLE_W, height }}>
        <svg data-testid="source-lines" aria-hidden width={MIDDLE_W} height={height} className="absolute inset-0 overflow-visible">
          {lines.map((l) => (
            <path key={l.id} data-source={l.id} d={l.d} fill="none" stroke="#a5b4fc" strokeWidth={2} strokeDasharray="6 5" />
          ))}
        </svg>
        <div
          role="img"
          aria-label={`${productName}: ${sources.length} ${sources.length === 1 ? 'source' : 'sources'} connected`}
          className="absolute flex items-center justify-center rounded-full bg-indigo-600 text-white shadow-lg ring-8 ring-indigo-100"
          style={{ width: NODE_R * 2, height: NODE_R * 2, left: cx - NODE_R, top: cy - NODE_R }}
        >
          <span className="text-lg font-bold tracking-tight">fl0</span>
        </div>
        <p className="absolute w-full truncate text-center text-xs text-slate-500" style={{ top: cy + NODE_R + 14 }}>
          {productName}
        </p>
      </div>
    </div>
  )
}
