import { useEffect, useState } from 'react'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import { messageOf } from '../../api/errors.ts'
import type { ProfileTrait, ProfileTraitSetting, ProfileTraitType } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { Popover } from '../../ui/Popover.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { TraitIcon } from '../companies/TraitIcon.tsx'
import { traitIcon, traitLabel } from '@fl0/contracts/companies'
import { formatTrait } from './format.ts'

/**
 * The Traits card (part 3 §2): the profile's traits that the organisation
 * chose to show (profile_traits, per profile type), and an add button that
 * lists every trait of this profile to tick in or out. A choice is saved at
 * once and holds for everyone in the organisation, on every profile of the
 * type. A trait nobody has chosen stays hidden unless it is a default (the
 * server's list says which).
 */
export function TraitsCard({ organization, type, traits }: { organization: string; type: ProfileTraitType; traits: ProfileTrait[] }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const fetched = useFetch((signal) => api.profiles.traits(organization, type, signal), [organization, type])
  const [settings, setSettings] = useState<ProfileTraitSetting[] | null>(null)
  const loaded = fetched.status === 'loaded' ? fetched.data : null
  useEffect(() => {
    if (loaded) setSettings(loaded)
  }, [loaded])
  const visibleNames = new Set((settings ?? []).filter((s) => !s.hidden).map((s) => s.name))
  const shown = traits.filter((t) => visibleNames.has(t.key))

  async function choose(name: string, visible: boolean) {
    // Shown at once; the server's answer (every choice of the organisation) then stands.
    setSettings((list) => [...(list ?? []).filter((s) => s.name !== name), { name, hidden: !visible }])
    try {
      setSettings(await api.profiles.chooseTrait(organization, type, { name, hidden: !visible }))
    } catch (error) {
      snackbar.error(messageOf(error))
      fetched.refetch()
    }
  }

  return (
    <section aria-labelledby={`traits-${type}`} className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-center justify-between">
        <h2 id={`traits-${type}`} className="text-sm font-semibold">
          {PEOPLE_TEXT.traits}
        </h2>
        <Popover
          label="Add trait"
          align="end"
          button={<span aria-hidden>+</span>}
          buttonClassName="inline-flex h-7 w-7 items-center justify-center rounded-md border border-slate-300 text-lg leading-none text-slate-700 hover:bg-slate-50"
        >
          {() =>
            traits.length === 0 ? (
              <p className="px-3 py-2 text-sm text-slate-500">{PEOPLE_TEXT.noTraits}</p>
            ) : (
              <div className="max-h-72 overflow-y-auto">
                {traits.map((t) => {
                  const on = visibleNames.has(t.key)
                  return (
                    <button
                      key={t.key}
                      type="button"
                      role="menuitemcheckbox"
                      aria-checked={on}
                      disabled={settings === null}
                      onClick={() => void choose(t.key, !on)}
                      className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-slate-50"
                    >
                      <span aria-hidden className={`inline-flex h-4 w-4 shrink-0 items-center justify-center rounded border ${on ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300'}`}>
                        {on && (
                          <svg viewBox="0 0 16 16" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round">
                            <path d="M3.5 8.5l3 3 6-7" />
                          </svg>
                        )}
                      </span>
                      <span className="truncate">{traitLabel(t.key)}</span>
                    </button>
                  )
                })}
              </div>
            )
          }
        </Popover>
      </div>
      {shown.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{PEOPLE_TEXT.noTraits}</p>
      ) : (
        <dl className="mt-2 divide-y divide-slate-100 text-sm">
          {shown.map((t) => (
            <div key={t.key} className="flex items-center gap-2 py-1.5">
              <TraitIcon type={traitIcon(t.value)} />
              <dt className="text-slate-500">{traitLabel(t.key)}</dt>
              <dd className="ml-auto truncate text-right font-medium text-slate-800" title={formatTrait(t)}>
                {formatTrait(t)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
