import { useState } from 'react'
import { PEOPLE_TEXT, PROFILE_EVENTS_PAGE_SIZE } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import type { ProfileEvent, ProfileEvents } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { formatDateTime } from '../../ui/format.ts'
import { pageRange } from '../../ui/grid/DataGrid.tsx'

const C = PEOPLE_TEXT.eventColumns

/** The stored payload of one event, as formatted JSON; loaded when first asked for. */
function Payload({ organization, userId, messageId }: { organization: string; userId: string; messageId: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.profiles.userEvent(organization, userId, messageId, signal), [organization, userId, messageId])
  return (
    <FetchView fetched={fetched}>
      {(payload) => (
        <pre data-testid="payload" className="max-h-[70vh] overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
          {JSON.stringify(payload, null, 2)}
        </pre>
      )}
    </FetchView>
  )
}

function MetricChips({ event, names }: { event: ProfileEvent; names: Map<string, string> }) {
  if (event.metricIds.length === 0) return <span className="text-slate-400">—</span>
  return (
    <span className="flex flex-wrap gap-1">
      {event.metricIds.map((id) => (
        <span key={id} className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">
          {names.get(id) ?? PEOPLE_TEXT.unknown}
        </span>
      ))}
    </span>
  )
}

function EventTable({ data, selected, onHover, onPick, timezone }: { data: ProfileEvents; selected: string | null; onHover: (id: string) => void; onPick: (id: string) => void; timezone: string }) {
  const names = new Map(data.metrics.map((m) => [m.metricId, m.name]))
  return (
    <table className="w-full table-fixed text-sm">
      <colgroup>
        <col style={{ width: 190 }} />
        <col />
        <col style={{ width: '35%' }} />
      </colgroup>
      <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="px-4 py-2 font-medium">
            {C.time}
          </th>
          <th scope="col" className="px-4 py-2 font-medium">
            {C.event}
          </th>
          <th scope="col" className="px-4 py-2 font-medium">
            {C.metrics}
          </th>
        </tr>
      </thead>
      <tbody>
        {data.events.length === 0 ? (
          <tr>
            <td colSpan={3} className="px-4 py-10 text-center text-slate-500">
              {PEOPLE_TEXT.noEvents}
            </td>
          </tr>
        ) : (
          data.events.map((e) => (
            <tr
              key={e.messageId}
              tabIndex={0}
              aria-selected={selected === e.messageId}
              onMouseEnter={() => onHover(e.messageId)}
              onFocus={() => onHover(e.messageId)}
              onClick={() => onPick(e.messageId)}
              onKeyDown={(k) => (k.key === 'Enter' || k.key === ' ') && (k.preventDefault(), onPick(e.messageId))}
              className={`cursor-pointer border-t border-slate-100 outline-none hover:bg-slate-50 focus-visible:bg-indigo-50 ${selected === e.messageId ? 'bg-indigo-50' : ''}`}
            >
              <td className="truncate px-4 py-2 tabular-nums text-slate-600">
                <time dateTime={e.timestamp}>{formatDateTime(e.timestamp, timezone)}</time>
              </td>
              <td className="truncate px-4 py-2">
                <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{e.type}</span>
                <span className="font-medium text-slate-900">{e.event}</span>
              </td>
              <td className="px-4 py-2">
                <MetricChips event={e} names={names} />
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  )
}

/**
 * Events (part 3 §2): every call of the person, newest first, 20 a page, with
 * the saved metrics that count each. Hovering a row shows its whole stored
 * payload as formatted JSON beside the table; a click keeps that one shown
 * (a second click lets hovering choose again).
 */
export function UserEvents({ organization, userId, timezone }: { organization: string; userId: string; timezone: string }) {
  const api = useApi()
  const [page, setPage] = useState(1)
  const [hovered, setHovered] = useState<string | null>(null)
  const [pinned, setPinned] = useState<string | null>(null)
  const fetched = useFetch((signal) => api.profiles.userEvents(organization, userId, page, signal), [organization, userId, page])
  const shown = pinned ?? hovered
  return (
    <FetchView fetched={fetched}>
      {(data) => {
        const pages = Math.max(1, Math.ceil(data.totalEvents / PROFILE_EVENTS_PAGE_SIZE))
        return (
          <div className="flex flex-col gap-4 xl:flex-row xl:items-start">
            <section aria-label="Events" className="min-w-0 flex-1 overflow-hidden rounded-lg border border-slate-200 bg-white" onMouseLeave={() => setHovered(null)}>
              <EventTable data={data} selected={shown} onHover={setHovered} onPick={(id) => setPinned((p) => (p === id ? null : id))} timezone={timezone} />
              <div className="flex items-center justify-end gap-3 border-t border-slate-100 px-4 py-2 text-sm text-slate-600">
                <span>{pageRange(page, data.totalEvents, PROFILE_EVENTS_PAGE_SIZE)}</span>
                <button type="button" aria-label="Previous page" disabled={page <= 1} onClick={() => setPage(page - 1)} className="rounded px-2 py-1 hover:bg-slate-100 disabled:opacity-40">
                  ‹
                </button>
                <button type="button" aria-label="Next page" disabled={page >= pages} onClick={() => setPage(page + 1)} className="rounded px-2 py-1 hover:bg-slate-100 disabled:opacity-40">
                  ›
                </button>
              </div>
            </section>
            <aside aria-label="Event payload" className="w-full shrink-0 rounded-lg border border-slate-200 bg-white p-3 xl:sticky xl:top-4 xl:w-[28rem]">
              <h2 className="mb-2 text-sm font-semibold">{pinned ? 'Payload (pinned)' : 'Payload'}</h2>
              {shown ? (
                <Payload key={shown} organization={organization} userId={userId} messageId={shown} />
              ) : (
                <p className="text-sm text-slate-500">Hover over or click an event to see its full payload.</p>
              )}
            </aside>
          </div>
        )
      }}
    </FetchView>
  )
}
