import { useEffect, useState } from 'react'
import { NavLink, useLocation } from 'react-router'
import { readToggles } from '../toggles.ts'
import { useCurrentUser, useSavePreferences } from '../session/user.ts'
import { Icon } from './icons.tsx'
import { AI_MENU, NORMAL_MENU, isUnderSection, type MenuItem, type MenuSection } from './menuItems.ts'
import { OrgSwitcher } from './OrgSwitcher.tsx'
import { UserMenu } from './UserMenu.tsx'

function Item({ org, item, collapsed }: { org: string; item: MenuItem; collapsed: boolean }) {
  return (
    <NavLink
      to={`/organizations/${encodeURIComponent(org)}/${item.path}`}
      title={collapsed ? item.label : undefined}
      className={({ isActive }) =>
        `flex items-center gap-3 rounded-md px-3 py-2 text-sm ${isActive ? 'bg-indigo-50 font-medium text-indigo-700' : 'text-slate-700 hover:bg-slate-100'}`
      }
    >
      <Icon name={item.icon} />
      {!collapsed && <span>{item.label}</span>}
    </NavLink>
  )
}

/** The Data model group: open from the start when the path is under one of its routes. */
function Group({ org, section, collapsed }: { org: string; section: MenuSection; collapsed: boolean }) {
  const { pathname } = useLocation()
  const inside = isUnderSection(pathname, org, section)
  const [open, setOpen] = useState(inside)
  useEffect(() => {
    if (inside) setOpen(true)
  }, [inside])
  return (
    <div role="group" aria-label={section.heading}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        title={collapsed ? section.heading : undefined}
        className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
      >
        <Icon name="model" />
        {!collapsed && <span className="flex-1 text-left">{section.heading}</span>}
        {!collapsed && <Icon name="chevron" className={`h-4 w-4 transition-transform ${open ? 'rotate-90' : ''}`} />}
      </button>
      {open && (
        <div className={collapsed ? '' : 'ml-4 border-l border-slate-200 pl-2'}>
          {section.items.map((item) => (
            <Item key={item.path} org={org} item={item} collapsed={collapsed} />
          ))}
        </div>
      )}
    </div>
  )
}

/**
 * The left menu (part 1 §2): organisation switcher, the normal or AI layout by
 * the fl0-ai toggle, the user menu; collapsible, the state saved as the
 * isMenuCollapsed preference.
 */
export function Menu({ org }: { org: string }) {
  const user = useCurrentUser()
  const savePreferences = useSavePreferences()
  const collapsed = user.preferences.isMenuCollapsed
  const sections = readToggles().ai ? AI_MENU : NORMAL_MENU
  return (
    <aside
      aria-label="Main menu"
      data-collapsed={collapsed}
      data-layout={readToggles().ai ? 'ai' : 'normal'}
      className={`flex h-screen shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] ${collapsed ? 'w-16' : 'w-60'}`}
    >
      <div className="flex items-center gap-1 border-b border-slate-200 p-2">
        <div className="min-w-0 flex-1">
          <OrgSwitcher org={org} collapsed={collapsed} />
        </div>
      </div>
      <nav className="flex-1 space-y-4 overflow-y-auto p-2">
        {sections.map((section, i) =>
          section.group ? (
            <Group key={i} org={org} section={section} collapsed={collapsed} />
          ) : (
            <div key={i} className="space-y-1">
              {section.heading && !collapsed && <div className="px-3 pb-1 text-xs font-semibold uppercase tracking-wider text-slate-400">{section.heading}</div>}
              {section.items.map((item) => (
                <Item key={item.path} org={org} item={item} collapsed={collapsed} />
              ))}
            </div>
          ),
        )}
      </nav>
      <div className="border-t border-slate-200 p-2">
        <button
          type="button"
          onClick={() => savePreferences({ isMenuCollapsed: !collapsed })}
          aria-label={collapsed ? 'Expand menu' : 'Collapse menu'}
          className="mb-1 flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-500 hover:bg-slate-100"
        >
          <Icon name="collapse" className={`h-5 w-5 transition-transform ${collapsed ? 'rotate-180' : ''}`} />
          {!collapsed && <span>Collapse</span>}
        </button>
        <UserMenu org={org} collapsed={collapsed} />
      </div>
    </aside>
  )
}
