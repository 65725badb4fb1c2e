import { useState } from 'react'
import { AdminGrid } from './grid/AdminGrid.tsx'
import { AdminScreen, FilterField, OrgPicker } from './controls.tsx'

/** people-table: an organisation, anonymous users shown or not (showIp2Company), a name filter (part 1 §2). */
export default function PeopleTablePage() {
  const [orgId, setOrgId] = useState('')
  const [showIp2Company, setShowIp2Company] = useState(false)
  const [name, setName] = useState('')
  return (
    <AdminScreen
      heading="People table"
      filters={
        <>
          <OrgPicker value={orgId} onChange={setOrgId} />
          <FilterField label="Name" value={name} onChange={setName} />
          <label className="flex items-center gap-2 py-2 text-sm text-slate-700">
            <input type="checkbox" checked={showIp2Company} onChange={(e) => setShowIp2Company(e.target.checked)} className="h-4 w-4 accent-indigo-600" />
            Show anonymous users
          </label>
        </>
      }
    >
      <AdminGrid grid="people-table" title="People table" filters={{ orgId: orgId || undefined, showIp2Company, name: name.trim() || undefined }} />
    </AdminScreen>
  )
}
