import { useState } from 'react'
import type { CompanyActivityUser, CompanyDetail } from '../../api/types.ts'
import { formatDateTime, formatRelative, formatTime } from '../../ui/format.ts'
import { Avatar } from './Avatar.tsx'
import { formatDay, formatDuration, plural } from './format.ts'

/** A person's timeline shows this many events until asked for all. */
export const TIMELINE_PREVIEW = 20

const TYPE_TONES: Record<string, string> = {
  page: 'bg-sky-50 text-sky-700',
  screen: 'bg-sky-50 text-sky-700',
  track: 'bg-violet-50 text-violet-700',
}

function Timeline({ user, timezone }: { user: CompanyActivityUser; timezone: string }) {
  const [all, setAll] = useState(false)
  const shown = all ? user.events : user.events.slice(0, TIMELINE_PREVIEW)
  return (
    <>
      <ol aria-label={`Events of ${user.name}`} className="ml-4 mt-3 space-y-0 border-l border-slate-200">
        {shown.map((e, i) => (
          <li key={`${e.time}-${i}`} className="relative flex items-center gap-3 py-1.5 pl-5 text-sm">
            <span aria-hidden className="absolute -left-[5px] h-2.5 w-2.5 rounded-full border-2 border-white bg-slate-300" />
            <time dateTime={e.time} className="w-20 shrink-0 tabular-nums text-slate-500">
              {formatTime(e.time, timezone)}
            </time>
            <span className={`w-14 shrink-0 rounded px-1.5 py-0.5 text-center text-xs font-medium ${TYPE_TONES[e.type] ?? 'bg-slate-100 text-slate-600'}`}>{e.type}</span>
            <span className="min-w-0 flex-1 truncate text-slate-800" title={e.path ?? e.name}>
              {e.name}
            </span>
            <span className="shrink-0 tabular-nums text-slate-500" title="Time spent">
              {formatDuration(e.timeSpent)}
            </span>
          </li>
        ))}
      </ol>
      {user.events.length > TIMELINE_PREVIEW && (
        <button type="button" onClick={() => setAll(!all)} className="ml-9 mt-1 text-sm text-indigo-700 hover:underline">
          {all ? 'Show fewer events' : `Show all ${user.events.length} events`}
        </button>
      )}
    </>
  )
}

function UserActivity({ user, timezone }: { user: CompanyActivityUser; timezone: string }) {
  const anonymous = user.id.startsWith('anon:')
  const facts = [
    ['Time on site', formatDuration(user.timeSpentOnSite)],
    ['Role', user.role],
    ['Location', user.location],
    ['Last seen', formatRelative(user.lastSeen)],
    ['Pages', String(user.pageCount)],
  ] as const
  return (
    <li aria-label={user.name} className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-start gap-3">
        <Avatar id={user.id} name={user.name} anonymous={anonymous} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium text-slate-900">{user.name}</span>
            {user.email && user.email !== user.name && <span className="truncate text-sm text-slate-500">{user.email}</span>}
          </div>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
            {facts.map(([label, value]) =>
              value ? (
                <div key={label} className="flex gap-1" title={label === 'Last seen' ? formatDateTime(user.lastSeen, timezone) : undefined}>
                  <dt>{label}</dt>
                  <dd className="font-medium text-slate-700">{value}</dd>
                </div>
              ) : null,
            )}
          </dl>
        </div>
      </div>
      <Timeline user={user} timezone={timezone} />
    </li>
  )
}

/**
 * Intent (part 1 §2): the company's activity by date, within a date by person
 * (initials avatar, name, time on site, role, location, last seen, page
 * count), within a person a timeline of events (time, type, name, time spent).
 * Times are shown in the organisation's time zone, as the dates are counted.
 */
export function IntentTab({ company }: { company: CompanyDetail }) {
  if (company.dates.length === 0) return <p className="rounded-lg border border-slate-200 bg-white p-10 text-center text-slate-500">No events found</p>
  return (
    <div className="space-y-6">
      {company.truncated && <p className="text-sm text-slate-500">Only the latest events of the past 30 days are listed here; the counts cover all of them.</p>}
      {company.dates.map((d) => (
        <section key={d.date} aria-label={formatDay(d.date)}>
          <h3 className="mb-2 text-sm font-semibold text-slate-600">
            <time dateTime={d.date}>{formatDay(d.date)}</time>
            <span className="ml-2 font-normal text-slate-400">{plural(d.users.length, 'visitor')}</span>
          </h3>
          <ul className="space-y-3">
            {d.users.map((u) => (
              <UserActivity key={u.id} user={u} timezone={company.timezone} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}
