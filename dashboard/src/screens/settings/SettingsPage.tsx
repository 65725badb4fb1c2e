import { Link, useParams } from 'react-router'
import { ORG_SETTINGS_FLAG } from '@fl0/contracts/settings'
import { readToggle } from '../../toggles.ts'
import { useCurrentUser } from '../../session/user.ts'
import { CallbackSecret } from './CallbackSecret.tsx'
import { OrgSettingsForm } from './OrgSettingsForm.tsx'
import { TeamList } from './TeamList.tsx'

/**
 * 'Organization settings' (part 3 §2): a side link back to the organisation,
 * the timezone and company paths behind their flag (the fl0-org-settings
 * toggle), the team, and the identity callback's secret (not in the
 * specification: CallbackSecret.tsx).
 */
export default function SettingsPage() {
  const { organization = '' } = useParams()
  const user = useCurrentUser()
  const org = user.orgs.find((o) => o.url_code === organization)
  return (
    <div className="mx-auto flex max-w-5xl gap-10 p-8">
      <nav aria-label="Settings" className="w-48 shrink-0 pt-2">
        <Link to={`/organizations/${encodeURIComponent(organization)}`} className="text-sm text-indigo-700 hover:underline">
          ← {org?.name ?? organization}
        </Link>
      </nav>
      <div className="min-w-0 flex-1 space-y-10">
        <h1 className="text-2xl font-semibold tracking-tight">Organization settings</h1>
        {readToggle(ORG_SETTINGS_FLAG) && <OrgSettingsForm org={organization} />}
        <TeamList org={organization} orgName={org?.name ?? organization} isAdmin={org?.role === 'admin'} />
        <CallbackSecret org={organization} isAdmin={org?.role === 'admin'} />
      </div>
    </div>
  )
}
