import { useState } from 'react'
import { useApi } from '../../../../api/context.tsx'
import { Combobox } from '../../../../ui/Combobox.tsx'
import { METRICS_TEXT } from '../../text.ts'
import type { Draft } from '../draft.ts'
import type { SetField } from './Options.tsx'
import { Section } from './Section.tsx'

/**
 * Breakdown (behind the fl0-metrics-breakdown toggle): one series per value of
 * a trait of the audience type; the values to show may be chosen, else the
 * most frequent ones are.
 */
export function BreakdownSection({ org, draft, set, types }: { org: string; draft: Draft; set: SetField; types: Record<string, string> | undefined }) {
  const api = useApi()
  const [adding, setAdding] = useState('')
  const breakdown = draft.breakdown
  const names = types ? Object.keys(types).sort((a, b) => a.localeCompare(b)) : []
  const values = breakdown?.values ?? []
  const setTrait = (trait: string) => set('breakdown', trait ? { trait, type: types?.[trait] ?? 'string', values: trait === breakdown?.trait ? values : [] } : null)
  const addValue = (v: string) => {
    const value = v.trim()
    if (!breakdown || !value || values.includes(value)) return
    set('breakdown', { ...breakdown, values: [...values, value] })
    setAdding('')
  }
  return (
    <Section title="Breakdown" hint="One series per value of a trait.">
      <div className="flex items-center gap-1.5">
        <Combobox className="min-w-0 flex-1" label="Breakdown trait" placeholder="trait" value={breakdown?.trait ?? ''} onChange={setTrait} options={names} empty={METRICS_TEXT.noTraits} />
        {breakdown && (
          <button type="button" aria-label="Remove breakdown" onClick={() => set('breakdown', null)} className="rounded px-1.5 py-0.5 text-slate-500 hover:bg-slate-100">
            ✕
          </button>
        )}
      </div>
      {breakdown && (
        <>
          {values.length > 0 && (
            <ul aria-label="Breakdown values" className="flex flex-wrap gap-1.5">
              {values.map((v) => (
                <li key={v} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pl-2.5 pr-1 text-xs text-indigo-800">
                  {v}
                  <button type="button" aria-label={`Remove ${v}`} onClick={() => set('breakdown', { ...breakdown, values: values.filter((x) => x !== v) })} className="rounded-full px-1 hover:bg-indigo-100">
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="flex items-center gap-1.5">
            <Combobox
              className="min-w-0 flex-1"
              label="Breakdown value"
              placeholder={values.length ? 'add a value' : 'most frequent values'}
              value={adding}
              onChange={(v) => setAdding(v)}
              load={(signal) => api.lookups.traitValues(org, draft.audienceType, breakdown.trait, signal).then((r) => r.values.map(String).filter((x) => !values.includes(x)))}
              deps={[org, draft.audienceType, breakdown.trait, values.length]}
              empty={METRICS_TEXT.noValues}
            />
            <button type="button" disabled={!adding.trim()} onClick={() => addValue(adding)} className="rounded-md border border-slate-300 px-2 py-1.5 text-sm disabled:text-slate-400">
              Add
            </button>
          </div>
        </>
      )}
    </Section>
  )
}
