import { createOrgModalSchema, ORG_NAME_B_INPUT_MAX } from '@fl0/contracts/orgs'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { useCreateOrg } from './useCreateOrg.ts'

/** The create-organisation modal (rule set B; the input stops at 99 characters). */
export default function CreateOrgModal({ onClose }: { onClose: () => void }) {
  const create = useCreateOrg('modal')
  const form = useForm({
    initial: { name: '' },
    schema: createOrgModalSchema,
    submit: async (values: { name: string }) => {
      await create(values)
      onClose()
    },
  })
  return (
    <Modal title="Create organization" onClose={onClose}>
      <form onSubmit={form.submit} noValidate className="space-y-5">
        <TextField label="Organization name" field={form.field('name')} error={form.errors.name} maxLength={ORG_NAME_B_INPUT_MAX} autoFocus />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Create
          </Button>
        </div>
      </form>
    </Modal>
  )
}
