import { useState } from 'react'
import { AdminGrid } from './grid/AdminGrid.tsx'
import { AdminScreen, FilterField, OrgPicker } from './controls.tsx'

/** ip-to-company-table: an organisation and an IP address filter (part 1 §2). */
export default function IpToCompanyTablePage() {
  const [orgId, setOrgId] = useState('')
  const [ipAddress, setIpAddress] = useState('')
  return (
    <AdminScreen
      heading="ip_to_company table"
      filters={
        <>
          <OrgPicker value={orgId} onChange={setOrgId} />
          <FilterField label="IP address" value={ipAddress} onChange={setIpAddress} placeholder="203.0.113.7" />
        </>
      }
    >
      <AdminGrid grid="ip-to-company-table" title="ip_to_company table" filters={{ orgId: orgId || undefined, ipAddress: ipAddress.trim() || undefined }} />
    </AdminScreen>
  )
}
