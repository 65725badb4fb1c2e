import { LEXICON_TEXT } from '@fl0/contracts/lexicon'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { TypeBadge } from './controls.tsx'

/** An expanded event row: its properties with their types, or 'No properties found'. */
export function EventProperties({ org, event }: { org: string; event: string }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.lexicon.properties(org, event, signal), [org, event])
  return (
    <FetchView fetched={fetched}>
      {({ properties }) =>
        properties.length === 0 ? (
          <p className="pl-5 text-sm text-slate-500">{LEXICON_TEXT.noProperties}</p>
        ) : (
          <ul aria-label={`Properties of ${event}`} className="grid grid-cols-1 gap-x-8 gap-y-1 pl-5 sm:grid-cols-2">
            {properties.map((p) => (
              <li key={p.name} className="flex items-center justify-between gap-3 border-b border-slate-100 py-1 text-sm">
                <span className="truncate font-mono text-slate-800" title={p.name}>
                  {p.name}
                </span>
                <TypeBadge type={p.propertyType} />
              </li>
            ))}
          </ul>
        )
      }
    </FetchView>
  )
}
