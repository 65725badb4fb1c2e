import { useState } from 'react'
import { AdminGrid } from './grid/AdminGrid.tsx'
import { AdminScreen, FilterField, OrgPicker } from './controls.tsx'
import { isIpAddress } from './ip.ts'
import { ADMIN_TEXT } from './text.ts'

/**
 * ip-to-company-table: an organisation and an IP address filter (part 1 §2).
 * The address applies once it is whole (or cleared); until then the grid
 * keeps the last one applied.
 */
export default function IpToCompanyTablePage() {
  const [orgId, setOrgId] = useState('')
  const [ipText, setIpText] = useState('')
  const [ipAddress, setIpAddress] = useState('')
  const typed = ipText.trim()
  const change = (text: string) => {
    setIpText(text)
    const t = text.trim()
    if (!t || isIpAddress(t)) setIpAddress(t)
  }
  return (
    <AdminScreen
      heading="ip_to_company table"
      filters={
        <>
          <OrgPicker value={orgId} onChange={setOrgId} />
          <FilterField label="IP address" value={ipText} onChange={change} placeholder="203.0.113.7" invalid={typed && typed !== ipAddress ? ADMIN_TEXT.invalidIpAddress : undefined} />
        </>
      }
    >
      <AdminGrid grid="ip-to-company-table" title="ip_to_company table" filters={{ orgId: orgId || undefined, ipAddress: ipAddress || undefined }} />
    </AdminScreen>
  )
}
