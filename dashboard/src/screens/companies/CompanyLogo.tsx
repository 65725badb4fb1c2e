import { useState } from 'react'
import { readToggle } from '../../toggles.ts'
import { initials } from './format.ts'

/**
 * The company's logo from the logo service (logoUrl, from FL0_LOGO_URL), or
 * its initials: when there is no service, when the image fails to load, and
 * when third-party content is off (the disable-3rd-party toggle), in which
 * case the browser never asks the service.
 */
export function CompanyLogo({ name, logoUrl }: { name: string; logoUrl: string | null }) {
  const [failed, setFailed] = useState<string | null>(null)
  const box = 'h-12 w-12 shrink-0 rounded-lg border border-slate-200'
  if (!logoUrl || failed === logoUrl || readToggle('disable-3rd-party')) {
    return (
      <span role="img" aria-label={`${name} logo`} data-placeholder="" className={`${box} inline-flex items-center justify-center bg-indigo-50 text-sm font-semibold text-indigo-700`}>
        {initials(name)}
      </span>
    )
  }
  return <img src={logoUrl} alt={`${name} logo`} referrerPolicy="no-referrer" onError={() => setFailed(logoUrl)} className={`${box} bg-white object-contain p-1`} />
}
