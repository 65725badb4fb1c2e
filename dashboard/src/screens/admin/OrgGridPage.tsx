import { useState } from 'react'
import type { AdminGridName } from '../../api/admin.ts'
import { AdminGrid } from './grid/AdminGrid.tsx'
import { AdminScreen, OrgPicker } from './controls.tsx'

/** A paged grid with an organisation picker: pages-table and identified-visits-table (part 1 §2). */
export function OrgGridPage({ grid, heading }: { grid: Extract<AdminGridName, 'pages-table' | 'identified-visits-table'>; heading: string }) {
  const [orgId, setOrgId] = useState('')
  return (
    <AdminScreen heading={heading} filters={<OrgPicker value={orgId} onChange={setOrgId} />}>
      <AdminGrid grid={grid} title={heading} filters={{ orgId: orgId || undefined }} />
    </AdminScreen>
  )
}
