import { useEffect, useMemo, useRef, useState } from 'react'
import { REPORT_ERRORS } from '@fl0/contracts/reports'
import { useApi } from '../../../api/context.tsx'
import { isSilentError } from '../../../api/errors.ts'
import { refetch } from '../../../api/refetch.ts'
import { AUTOSUBMIT_MS } from '../../../constants.ts'
import { useSnackbar } from '../../../ui/snackbar/state.ts'
import { REPORTS } from '../text.ts'

export interface ReportValues {
  name: string
  description: string
  metricIds: string[]
}

interface Options {
  org: string
  /** The saved report's id; none for a report not created yet. */
  reportId?: string
  /** The first save created the report. */
  onCreated: (id: string) => void
  /** A save was due but the name is blank: nothing was sent. */
  onNameMissing: () => void
}

/**
 * The custom report's saving (part 3 §4): the report is created by the first
 * save once it has a name, and saved again on every change after that; name
 * and description 500 ms after the last keystroke, the metric list at once.
 *
 * Every save sends the whole report as it is when the save runs, one after
 * another: a save queued behind the one that creates the report goes out
 * with the new id, so a report is never created twice, and the last save
 * always carries the latest state. A failed save cannot be retried in place:
 * 'An error has occurred saving the report', and the page reloads with what
 * the server has (the snackbar flagged to reload, part 1 §4).
 */
/** What the editor says about saving: nothing yet, a change not saved yet (or on its way), or everything saved. */
export type SaveStatus = 'idle' | 'saving' | 'saved'

export function useReportSaver(initial: ReportValues, options: Options) {
  const api = useApi()
  const [status, setStatus] = useState<SaveStatus>(options.reportId ? 'saved' : 'idle')
  const outstanding = useRef(0)
  const snackbar = useSnackbar()
  const latest = useRef(initial)
  const id = useRef(options.reportId)
  const opts = useRef(options)
  opts.current = options
  const chain = useRef<Promise<void>>(Promise.resolve())
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const state = useRef<'open' | 'failed' | 'closed'>('open')
  const mounted = useRef(true)

  const saver = useMemo(() => {
    const saveOnce = async () => {
      if (state.current !== 'open') return
      const v = latest.current
      if (!v.name.trim()) {
        if (mounted.current) opts.current.onNameMissing()
        return 'unsaved' as const
      }
      try {
        const { report_id } = await api.reports.save(opts.current.org, { report_id: id.current ?? null, name: v.name, description: v.description, metric_ids: v.metricIds })
        if (!id.current) {
          id.current = report_id
          if (mounted.current) opts.current.onCreated(report_id)
        }
        // The report switcher (and a list, if one is on screen) shows the new name.
        refetch(REPORTS)
      } catch (error) {
        if (isSilentError(error) || state.current !== 'open') return
        state.current = 'failed'
        snackbar.show({ kind: 'error', message: REPORT_ERRORS.saveFailed, reloadOnClose: true })
      }
    }
    const run = () => {
      clearTimeout(timer.current)
      timer.current = undefined
      outstanding.current++
      chain.current = chain.current.then(saveOnce).then((outcome) => {
        outstanding.current--
        // Saved once nothing is waiting or on its way; a blank name leaves the last word to its error.
        if (mounted.current && state.current === 'open' && outstanding.current === 0 && timer.current === undefined) setStatus(outcome === 'unsaved' ? 'idle' : 'saved')
      })
      return chain.current
    }
    return {
      /** Name or description changed: saved once typing pauses. */
      later(values: ReportValues) {
        latest.current = values
        setStatus('saving')
        clearTimeout(timer.current)
        timer.current = setTimeout(run, AUTOSUBMIT_MS)
      },
      /** The metric list changed: saved at once (with any name change still waiting). */
      now(values: ReportValues) {
        latest.current = values
        setStatus('saving')
        return run()
      },
      /** No more saves (the report is being deleted); returns once the ones under way are done. */
      close() {
        clearTimeout(timer.current)
        timer.current = undefined
        state.current = 'closed'
        return chain.current
      },
      /** Saving again after a delete that failed. */
      reopen() {
        if (state.current === 'closed') state.current = 'open'
      },
      id: () => id.current,
    }
  }, [api, snackbar])

  // Leaving the page sends a change still waiting for its 500 ms.
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      if (timer.current !== undefined) void saver.now(latest.current)
    }
  }, [saver])

  return { ...saver, status }
}
