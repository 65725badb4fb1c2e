import { useState } from 'react'
import type { Api } from '../../api/client.ts'
import { useApi } from '../../api/context.tsx'
import { refetch } from '../../api/refetch.ts'
import { Button } from '../../ui/Button.tsx'
import { CopyButton } from '../../ui/CopyButton.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { inviteSchema, TEAM_TEXT } from '@fl0/contracts/team'
import { INVITATION_LINK_TEXT, type InvitationDelivery, type InvitationLink, type InvitationResent } from '@fl0/contracts/invitation-links'

const invitations = (org: string) => `/api/orgs/${encodeURIComponent(org)}/invitations`

/** The admins' invitation-link calls (contracts/invitation-links.ts), beside the screens that make them. */
export function invitationLinkApi(api: Api, org: string) {
  return {
    delivery: () => api.http.get<InvitationDelivery>(`${invitations(org)}/delivery`),
    link: (id: string) => api.http.post<InvitationLink>(`${invitations(org)}/${encodeURIComponent(id)}/link`),
    resend: (id: string) => api.http.post<InvitationResent>(`${invitations(org)}/${encodeURIComponent(id)}/resend`),
  }
}

/**
 * The link to pass on when no e-mail carried it: the truth first (no mail
 * server, so nothing was sent), then the link itself, selectable, and Copy link.
 */
function InvitationLinkView({ email, link }: { email: string; link: string }) {
  return (
    <div className="space-y-3">
      <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {INVITATION_LINK_TEXT.notSent}
      </p>
      <label className="block text-sm">
        <span className="mb-1 block font-medium text-slate-700">Invitation link for {email}</span>
        <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-700" />
      </label>
      <CopyButton text={link} label={INVITATION_LINK_TEXT.copyLink} copiedMessage={INVITATION_LINK_TEXT.copied} />
    </div>
  )
}

/** A dialog holding an invitation's link (after inviting or resending without a mail server). */
export function InvitationLinkModal({ title, email, link, onClose }: { title: string; email: string; link: string; onClose: () => void }) {
  return (
    <Modal title={title} onClose={onClose}>
      <div className="space-y-5">
        <InvitationLinkView email={email} link={link} />
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    </Modal>
  )
}

/**
 * Invite a team member by e-mail (part 3 §5 rules, §8 message). The
 * specification's 'A team invite email has been sent to …' only where an
 * e-mail went (SMTP configured); without a mail server the dialog says so and
 * gives the link to copy (renewed for this: only its hash is stored).
 */
export function InviteModal({ org, onClose }: { org: string; onClose: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [unsent, setUnsent] = useState<{ email: string; link: string } | null>(null)
  const form = useForm({
    initial: { invitee_email: '' },
    schema: inviteSchema,
    submit: async (values: { invitee_email: string }) => {
      const email = values.invitee_email.trim()
      const links = invitationLinkApi(api, org)
      const invited = await api.team.invite(org, { invitee_email: email })
      refetch('team')
      const { delivery } = await links.delivery()
      if (delivery === 'sent') {
        snackbar.ok(TEAM_TEXT.inviteSent(invited.email))
        onClose()
        return
      }
      const { link } = await links.link(invited.id)
      setUnsent({ email: invited.email, link })
    },
  })
  if (unsent) return <InvitationLinkModal title="Invitation created" email={unsent.email} link={unsent.link} onClose={onClose} />
  return (
    <Modal title="Invite team member" onClose={onClose}>
      <form onSubmit={form.submit} noValidate className="space-y-5">
        <TextField label="Email" type="email" field={form.field('invitee_email')} error={form.errors.invitee_email} autoFocus />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Invite
          </Button>
        </div>
      </form>
    </Modal>
  )
}
