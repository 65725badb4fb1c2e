import { AUDIENCE_ACTIONS_MAX, AUDIENCE_MATCHES_MAX } from '@fl0/contracts/audiences'
import { useApi } from '../../../api/context.tsx'
import { useFetch } from '../../../api/useFetch.ts'
import { Segmented } from '../../../ui/Segmented.tsx'
import { ActionRow } from './ActionRow.tsx'
import { newAction, newMatch, type DraftFilters } from './draft.ts'
import { MatchRow } from './MatchRow.tsx'
import type { PickerItem } from './Picker.tsx'

interface Props {
  org: string
  value: DraftFilters
  onChange: (next: DraftFilters) => void
  /** The audience being edited: not offered as a filter of itself. */
  audienceId?: string
}

const addClass =
  'inline-flex items-center gap-1 rounded-full border border-dashed border-slate-400 px-3 py-1 text-sm text-slate-700 hover:border-indigo-500 hover:text-indigo-700'

function pickerState<T>(fetched: ReturnType<typeof useFetch<T>>, items: (data: T) => PickerItem[]) {
  return fetched.status === 'loaded' ? { items: items(fetched.data) } : fetched.status === 'error' ? { items: [], error: fetched.error } : { items: undefined }
}

/**
 * The filters of an audience (part 3 §3): matches on traits and audiences,
 * joined by and or or, and actions, all of which must hold. The look-ups
 * (traits, saved audiences, features) load once per editor, when needed.
 */
export function FiltersEditor({ org, value, onChange, audienceId }: Props) {
  const api = useApi()
  const traits = useFetch((signal) => api.lookups.traits(org, signal), [org])
  const needsAudiences = value.matches.some((m) => m.kind === 'audience')
  const needsFeatures = value.actions.some((a) => a.kind === 'feature')
  const audiences = useFetch((signal) => api.audiences.list(org, signal), [org], { enabled: needsAudiences })
  const features = useFetch((signal) => api.features.list(org, signal), [org], { enabled: needsFeatures })
  const audienceItems = pickerState(audiences, (d) => d.audiences.filter((a) => a.id !== audienceId).map((a) => ({ value: a.id, label: a.name })))
  const featureItems = pickerState(features, (d) => d.features.map((f) => ({ value: f.id, label: f.name })))

  const set = (patch: Partial<DraftFilters>) => onChange({ ...value, ...patch })
  const { matches, actions } = value

  return (
    <div className="space-y-5">
      <section aria-labelledby="audience-matches" className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h2 id="audience-matches" className="text-sm font-semibold text-slate-800">
            Traits
          </h2>
          {matches.length > 1 && (
            <Segmented
              label="Match aggregation"
              value={value.match_aggregation}
              onChange={(match_aggregation) => set({ match_aggregation })}
              options={[
                { value: 'and', label: 'All (and)' },
                { value: 'or', label: 'Any (or)' },
              ]}
            />
          )}
        </div>
        {matches.length > 0 && (
          <ul aria-label="Trait filters" className="space-y-2">
            {matches.map((m, i) => (
              <MatchRow
                key={m.key}
                org={org}
                index={i}
                match={m}
                traits={traits.status === 'loaded' ? traits.data : undefined}
                audiences={audienceItems}
                onChange={(next) => set({ matches: matches.map((x) => (x.key === m.key ? next : x)) })}
                onRemove={() => set({ matches: matches.filter((x) => x.key !== m.key) })}
              />
            ))}
          </ul>
        )}
        {matches.length < AUDIENCE_MATCHES_MAX && (
          <button type="button" className={addClass} onClick={() => set({ matches: [...matches, newMatch('user')] })}>
            <span aria-hidden>+</span> Add filter
          </button>
        )}
      </section>

      <section aria-labelledby="audience-actions" className="space-y-2">
        <h2 id="audience-actions" className="text-sm font-semibold text-slate-800">
          Actions
        </h2>
        {actions.length > 0 && (
          <ul aria-label="Action filters" className="space-y-2">
            {actions.map((a, i) => (
              <ActionRow
                key={a.key}
                org={org}
                index={i}
                action={a}
                features={featureItems}
                onChange={(next) => set({ actions: actions.map((x) => (x.key === a.key ? next : x)) })}
                onRemove={() => set({ actions: actions.filter((x) => x.key !== a.key) })}
              />
            ))}
          </ul>
        )}
        {actions.length < AUDIENCE_ACTIONS_MAX && (
          <button type="button" className={addClass} onClick={() => set({ actions: [...actions, newAction()] })}>
            <span aria-hidden>+</span> Add action
          </button>
        )}
      </section>
    </div>
  )
}
