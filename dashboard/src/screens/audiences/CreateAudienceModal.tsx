import { useNavigate } from 'react-router'
import { AUDIENCE_DESCRIPTION_INPUT_MAX, AUDIENCE_NAME_INPUT_MAX, AUDIENCE_TEXT, createAudienceSchema } from '@fl0/contracts/audiences'
import { useApi } from '../../api/context.tsx'
import { refetch } from '../../api/refetch.ts'
import type { AudienceFilters } from '../../api/types.ts'
import { Button } from '../../ui/Button.tsx'
import { TextAreaField } from '../../ui/form/TextAreaField.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { Modal } from '../../ui/modal/Modal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'
import { AUDIENCES, useAudiencePaths } from './paths.ts'

type Values = { name: string; description: string }

/**
 * 'Create audience...' (part 3 §4, §5): a name (required, at most 49
 * characters) and a description (at most 299; the input takes 399 so the rule
 * can be shown). On creation the audience is made, the builder's filters are
 * saved on it, the modal closes and the audience's page opens. `onCreated`:
 * the builder lets go of its filters, now the audience's.
 */
export function CreateAudienceModal({ org, filters, onClose, onCreated }: { org: string; filters: AudienceFilters; onClose: () => void; onCreated?: () => void }) {
  const api = useApi()
  const navigate = useNavigate()
  const snackbar = useSnackbar()
  const paths = useAudiencePaths()
  const form = useForm<Values>({
    initial: { name: '', description: '' },
    schema: createAudienceSchema,
    submit: async ({ name, description }) => {
      const { audience_id } = await api.audiences.create(org, { name, description })
      await api.audiences.update(org, audience_id, { filters })
      snackbar.ok(AUDIENCE_TEXT.saved(name))
      refetch(AUDIENCES)
      onCreated?.()
      onClose()
      navigate(paths.audience(audience_id))
    },
  })
  return (
    <Modal title={AUDIENCE_TEXT.createTitle} onClose={onClose}>
      <form onSubmit={form.submit} noValidate className="flex flex-col gap-4">
        <TextField label={AUDIENCE_TEXT.name} field={form.field('name')} error={form.errors.name} maxLength={AUDIENCE_NAME_INPUT_MAX} autoFocus />
        <TextAreaField label={AUDIENCE_TEXT.description} field={form.field('description')} error={form.errors.description} rows={3} maxLength={AUDIENCE_DESCRIPTION_INPUT_MAX} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            {AUDIENCE_TEXT.createTitle}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
