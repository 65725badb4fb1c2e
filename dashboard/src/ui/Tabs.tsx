import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'

/** Classes joined, the empty ones left out. */
const join = (...classes: Array<string | undefined>) => classes.filter(Boolean).join(' ')

/** The bar under a row of tabs; `className` goes before its own classes (a margin, say). */
const barClass = (className?: string) => join(className, 'flex gap-1 border-b border-slate-200')

/** An underlined tab, selected or not; `layout` for a tab with more than its label in it (a count). */
export const tabClass = (selected: boolean, layout?: string) =>
  join('-mb-px', layout, 'border-b-2 px-3 py-2 text-sm font-medium', selected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900')

export interface NavTab {
  to: string
  label: string
  /** Selected only at `to` itself, not below it (the index tab). */
  end: boolean
}

/** Tabs that are pages of their own: a navigation of links, the current one marked by NavLink (aria-current="page"). */
export function NavTabs({ label, tabs, className }: { label: string; tabs: NavTab[]; className?: string }) {
  return (
    <nav aria-label={label} className={barClass(className)}>
      {tabs.map((t) => (
        <NavLink key={t.label} to={t.to} end={t.end} className={({ isActive }) => tabClass(isActive)}>
          {t.label}
        </NavLink>
      ))}
    </nav>
  )
}

/** A tablist whose tabs are links (LinkTab): each tab has an address, and the page shows its panel. */
export function LinkTabs({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="tablist" aria-label={label} className={barClass(className)}>
      {children}
    </div>
  )
}

export function LinkTab({ to, selected, layout, children }: { to: string; selected: boolean; layout?: string; children: ReactNode }) {
  return (
    <Link role="tab" aria-selected={selected} to={to} className={tabClass(selected, layout)}>
      {children}
    </Link>
  )
}
