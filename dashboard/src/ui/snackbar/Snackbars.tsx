import { useEffect, useRef, useState } from 'react'
import { SNACKBAR_LEAVE_MS, SNACKBAR_LIFETIME_MS } from '../../constants.ts'
import { useApi } from '../../api/context.tsx'
import { useAtom } from '../../state/jotai.ts'
import { snackbarsAtom, type Snackbar } from './state.ts'

const KIND_STYLE: Record<Snackbar['kind'], string> = {
  info: 'bg-slate-800 text-white',
  error: 'bg-red-600 text-white',
  ok: 'bg-emerald-600 text-white',
}

/**
 * One snackbar: it leaves 3 s after it appeared, the clock stopping while the
 * pointer is over it and resuming with the time that was left; the leave
 * animation takes 200 ms, then it is gone.
 */
function SnackbarItem({ snackbar, onGone }: { snackbar: Snackbar; onGone: () => void }) {
  const [leaving, setLeaving] = useState(false)
  const remaining = useRef(SNACKBAR_LIFETIME_MS)
  const startedAt = useRef(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const goneRef = useRef(onGone)
  goneRef.current = onGone

  const leave = () => {
    setLeaving(true)
    timer.current = setTimeout(() => goneRef.current(), SNACKBAR_LEAVE_MS)
  }
  const resume = () => {
    startedAt.current = Date.now()
    timer.current = setTimeout(leave, remaining.current)
  }
  const pause = () => {
    if (leaving) return
    clearTimeout(timer.current)
    remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current))
  }

  useEffect(() => {
    resume()
    return () => clearTimeout(timer.current)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  return (
    <div
      role={snackbar.kind === 'error' ? 'alert' : 'status'}
      data-kind={snackbar.kind}
      data-leaving={leaving || undefined}
      onMouseEnter={pause}
      onMouseLeave={() => !leaving && resume()}
      className={`pointer-events-auto min-w-64 max-w-sm rounded-md px-4 py-3 text-sm shadow-lg ${KIND_STYLE[snackbar.kind]} ${leaving ? 'snackbar-leaving' : 'snackbar-enter'}`}
    >
      {snackbar.message}
    </div>
  )
}

/**
 * Where snackbars show. A reload-on-close snackbar blocks input with an
 * overlay, drops the calls still queued (the reload would lose their answers),
 * and reloads the page once it has gone.
 */
export function Snackbars({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const [snackbars, setSnackbars] = useAtom(snackbarsAtom)
  const api = useApi()
  const blocking = snackbars.some((s) => s.reloadOnClose)

  useEffect(() => {
    if (blocking) api.http.queue.drop()
  }, [blocking, api])

  const gone = (snackbar: Snackbar) => {
    setSnackbars((list) => list.filter((s) => s.id !== snackbar.id))
    if (snackbar.reloadOnClose) reload()
  }

  return (
    <>
      {blocking && <div data-testid="input-blocker" className="fixed inset-0 z-40 cursor-wait bg-white/40" />}
      {/* Top centre of the content, clear of the menu and of an open drawer (index.css): the user menu, Save metric and forms' footers sit at the bottom. */}
      <div data-snackbars className="pointer-events-none fixed top-4 z-50 flex flex-col items-center gap-2 px-4">
        {snackbars.map((s) => (
          <SnackbarItem key={s.id} snackbar={s} onGone={() => gone(s)} />
        ))}
      </div>
    </>
  )
}
