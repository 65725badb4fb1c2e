import type { IconName } from './icons.tsx'

export interface MenuItem {
  label: string
  /** Relative to /organizations/{organization}. */
  path: string
  icon: IconName
}
export interface MenuSection {
  heading?: string
  items: MenuItem[]
  /** An expandable group (the AI layout's Data model). */
  group?: boolean
}

/** Normal layout (part 1 §2): headings ID and Tools. */
export const NORMAL_MENU: MenuSection[] = [
  { heading: 'ID', items: [{ label: 'People', path: 'people', icon: 'people' }] },
  {
    heading: 'Tools',
    items: [
      { label: 'Data sources', path: 'data-sources', icon: 'source' },
      { label: 'Integrations', path: 'integrations', icon: 'plug' },
    ],
  },
]

/** AI layout (toggle fl0-ai): reports, AI scoring, people, and the Data model group. */
export const AI_MENU: MenuSection[] = [
  {
    items: [
      { label: 'Reports', path: 'reports', icon: 'report' },
      { label: 'AI scoring', path: 'scoring', icon: 'spark' },
      { label: 'People', path: 'people-ai', icon: 'people' },
    ],
  },
  {
    heading: 'Data model',
    group: true,
    items: [
      { label: 'Metrics', path: 'metrics', icon: 'metric' },
      { label: 'Features', path: 'features', icon: 'feature' },
      { label: 'Connections', path: 'connections', icon: 'link' },
      { label: 'Lexicon', path: 'lexicon', icon: 'book' },
    ],
  },
]

/** True when `pathname` is under one of the section's routes in organisation `org`. */
export function isUnderSection(pathname: string, org: string, section: MenuSection): boolean {
  const base = `/organizations/${encodeURIComponent(org)}/`
  return section.items.some((item) => pathname === base + item.path || pathname.startsWith(`${base}${item.path}/`))
}
