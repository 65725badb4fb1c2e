import { useState } from 'react'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import type { TeamMember } from '../../api/types.ts'
import { useFetch } from '../../api/useFetch.ts'
import { useCurrentUser } from '../../session/user.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { copyText } from '../../ui/clipboard.ts'
import { InvitationLinkModal, InviteModal, invitationLinkApi } from './InviteModal.tsx'
import { TEAM_TEXT } from '@fl0/contracts/team'
import { INVITATION_LINK_TEXT } from '@fl0/contracts/invitation-links'

export const TEAM = 'team'

function Badge({ children, tone }: { children: string; tone: 'indigo' | 'amber' | 'slate' }) {
  const tones = { indigo: 'bg-indigo-50 text-indigo-700', amber: 'bg-amber-50 text-amber-800', slate: 'bg-slate-100 text-slate-600' }
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>
}

/**
 * The team (part 3 §2, §6): search, invite and remove for admins, badges,
 * '(you)'; for admins, an open invitation's Copy link and Resend (not in the
 * specification: without a mail server they are how an invitee gets a link).
 */
export function TeamList({ org, orgName, isAdmin }: { org: string; orgName: string; isAdmin: boolean }) {
  const api = useApi()
  const user = useCurrentUser()
  const snackbar = useSnackbar()
  const [search, setSearch] = useState('')
  const [inviting, setInviting] = useState(false)
  const [removing, setRemoving] = useState<TeamMember | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [resentLink, setResentLink] = useState<{ email: string; link: string } | null>(null)
  const fetched = useFetch((signal) => api.team.list(org, signal), [org], { name: TEAM })

  const remove = async (member: TeamMember) => {
    try {
      await api.team.remove(org, member.id)
      snackbar.ok(TEAM_TEXT.removed(member.email))
      refetch(TEAM)
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
    } finally {
      setRemoving(null)
    }
  }

  /** Runs an invitation action, one at a time, its failure as a snackbar. */
  const act = async (key: string, action: () => Promise<void>) => {
    setBusy(key)
    try {
      await action()
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
    } finally {
      setBusy(null)
    }
  }
  const copyLink = (m: TeamMember) =>
    act(`copy:${m.id}`, async () => {
      const { link } = await invitationLinkApi(api, org).link(m.id)
      await copyText(link)
      snackbar.ok(`${INVITATION_LINK_TEXT.copied}. ${INVITATION_LINK_TEXT.renewed}`)
      refetch(TEAM)
    })
  const resend = (m: TeamMember) =>
    act(`resend:${m.id}`, async () => {
      const resent = await invitationLinkApi(api, org).resend(m.id)
      refetch(TEAM)
      if (resent.link) setResentLink({ email: resent.email, link: resent.link })
      else snackbar.ok(TEAM_TEXT.inviteSent(resent.email))
    })

  return (
    <section aria-labelledby="team-heading" className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="team-heading" className="text-lg font-semibold">
          Team
        </h2>
      </div>
      <FetchView fetched={fetched}>
        {(members) => {
          const q = search.trim().toLowerCase()
          // 'Search team by name...': members carry their name; invitations only an address.
          const shown = q ? members.filter((m) => m.email.toLowerCase().includes(q) || (m.name ?? '').toLowerCase().includes(q)) : members
          return (
            <>
              <div className="flex items-center justify-between gap-4">
                <input
                  type="search"
                  aria-label="Search team"
                  placeholder={TEAM_TEXT.searchPlaceholder}
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  className="w-72 rounded-md border border-slate-300 px-3 py-2 text-sm"
                />
                {isAdmin && members.length > 0 && <Button onClick={() => setInviting(true)}>{TEAM_TEXT.inviteButton}</Button>}
              </div>
              {members.length === 0 ? (
                <div className="rounded-lg border border-dashed border-slate-300 p-10 text-center">
                  <p className="text-slate-600">{TEAM_TEXT.emptyInvite}</p>
                  {isAdmin && (
                    <Button className="mt-4" onClick={() => setInviting(true)}>
                      {TEAM_TEXT.inviteButton}
                    </Button>
                  )}
                </div>
              ) : shown.length === 0 ? (
                <p className="rounded-lg border border-slate-200 bg-white p-10 text-center text-slate-500">{TEAM_TEXT.emptyNoUsers}</p>
              ) : (
                <ul aria-label="Team members" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
                  {shown.map((m) => (
                    <li key={m.id} className="flex items-center gap-3 px-4 py-3 text-sm">
                      <span className="min-w-0 flex-1 truncate">
                        {m.name && <span className="mr-2 font-medium">{m.name}</span>}
                        <span className={m.name ? 'text-slate-600' : ''}>{m.email}</span>
                        {m.email === user.email && <span className="ml-1 text-slate-500">{TEAM_TEXT.you}</span>}
                      </span>
                      {m.invitation_status === 'pending' && <Badge tone="amber">{TEAM_TEXT.pendingBadge}</Badge>}
                      {m.invitation_status === 'expired' && <Badge tone="slate">{TEAM_TEXT.expiredBadge}</Badge>}
                      {m.role === 'admin' && <Badge tone="indigo">{TEAM_TEXT.adminBadge}</Badge>}
                      {isAdmin && m.invitation_status !== 'accepted' && (
                        <>
                          <Button variant="ghost" aria-label={`Copy invitation link for ${m.email}`} loading={busy === `copy:${m.id}`} disabled={busy !== null} onClick={() => void copyLink(m)}>
                            {INVITATION_LINK_TEXT.copyLink}
                          </Button>
                          <Button variant="ghost" aria-label={`Resend invitation to ${m.email}`} loading={busy === `resend:${m.id}`} disabled={busy !== null} onClick={() => void resend(m)}>
                            {INVITATION_LINK_TEXT.resend}
                          </Button>
                        </>
                      )}
                      {isAdmin && m.email !== user.email && (
                        <Button variant="ghost" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                          Remove
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )
        }}
      </FetchView>
      {inviting && <InviteModal org={org} onClose={() => setInviting(false)} />}
      {resentLink && <InvitationLinkModal title="Invitation renewed" email={resentLink.email} link={resentLink.link} onClose={() => setResentLink(null)} />}
      {removing && (
        <ConfirmModal
          header="Remove team member"
          description={TEAM_TEXT.removeConfirm(removing.email, orgName)}
          submitLabel="Remove..."
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  )
}
