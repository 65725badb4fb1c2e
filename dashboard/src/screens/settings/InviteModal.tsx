import { useApi } from '../../api/context.tsx'
import { refetch } from '../../api/refetch.ts'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { inviteSchema, TEAM_TEXT } from '@fl0/contracts/team'

/** Invite a team member by e-mail (part 3 §5 rules, §8 message). */
export function InviteModal({ org, onClose }: { org: string; onClose: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const form = useForm({
    initial: { invitee_email: '' },
    schema: inviteSchema,
    submit: async (values: { invitee_email: string }) => {
      const email = values.invitee_email.trim()
      await api.team.invite(org, { invitee_email: email })
      snackbar.ok(TEAM_TEXT.inviteSent(email))
      refetch('team')
      onClose()
    },
  })
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
