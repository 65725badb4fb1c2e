import { useParams } from 'react-router'
import { LEXICON_TEXT } from '@fl0/contracts/lexicon'
import { ErrorPanel } from '../../ui/ErrorPanel.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { LinkTab, LinkTabs } from '../../ui/Tabs.tsx'
import { EventsTab } from './EventsTab.tsx'
import { MappingTab } from './MappingTab.tsx'
import { TraitsTab } from './TraitsTab.tsx'

/** The tabs (part 2 §2), each at a sub-path of /lexicon so it can be linked to. */
const TABS = [
  { path: '', label: LEXICON_TEXT.tabs.events },
  { path: 'traits', label: LEXICON_TEXT.tabs.traits },
  { path: 'mapping', label: LEXICON_TEXT.tabs.mapping },
] as const
type TabPath = (typeof TABS)[number]['path']

const tabOf = (rest: string): TabPath | undefined => TABS.find((t) => t.path === rest.replace(/\/+$/, ''))?.path

/**
 * 'Lexicon' (part 2 §2): the organisation's data dictionary. Events at
 * /lexicon, Traits at /lexicon/traits, Mapping at /lexicon/mapping.
 */
export default function LexiconPage() {
  const { organization = '', '*': rest = '' } = useParams()
  const tab = tabOf(rest)
  const base = `/organizations/${encodeURIComponent(organization)}/lexicon`
  return (
    <div className="p-8">
      <Heading>{LEXICON_TEXT.heading}</Heading>
      <LinkTabs label={LEXICON_TEXT.heading} className="mb-6">
        {TABS.map((t) => (
          <LinkTab key={t.path} to={t.path ? `${base}/${t.path}` : base} selected={t.path === tab}>
            {t.label}
          </LinkTab>
        ))}
      </LinkTabs>
      <div role="tabpanel" aria-label={TABS.find((t) => t.path === tab)?.label}>
        {tab === '' && <EventsTab org={organization} />}
        {tab === 'traits' && <TraitsTab org={organization} />}
        {tab === 'mapping' && <MappingTab org={organization} />}
        {tab === undefined && <ErrorPanel message="Not found" />}
      </div>
    </div>
  )
}
