import { createOrgFormSchema } from '@fl0/contracts/orgs'
import { Button } from '../../ui/Button.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { useCreateOrg } from './useCreateOrg.ts'

/** 'Create your Organization': shown to a user with no organisation (rule set A). */
export default function CreateOrgForm() {
  const create = useCreateOrg('form')
  const form = useForm({ initial: { name: '' }, schema: createOrgFormSchema, submit: create })
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <form onSubmit={form.submit} noValidate className="w-full max-w-sm space-y-5 rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Create your Organization</h1>
        <TextField label="Organization name" field={form.field('name')} error={form.errors.name} autoFocus />
        <Button type="submit" className="w-full" loading={form.submitting}>
          Create organization
        </Button>
      </form>
    </main>
  )
}
