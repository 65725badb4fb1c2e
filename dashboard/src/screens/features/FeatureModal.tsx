import { useState } from 'react'
import { createFeatureSchema, FEATURE_TEXT } from '@fl0/contracts/features'
import { useApi } from '../../api/context.tsx'
import { isSilentError, messageOf } from '../../api/errors.ts'
import { refetch } from '../../api/refetch.ts'
import { useFetch } from '../../api/useFetch.ts'
import { Button } from '../../ui/Button.tsx'
import { EventPicker } from '../../ui/EventPicker.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { TextField } from '../../ui/form/TextField.tsx'
import { useForm } from '../../ui/form/useForm.ts'
import { ConfirmModal } from '../../ui/modal/ConfirmModal.tsx'
import { Drawer } from '../../ui/modal/Modal.tsx'
import { useSnackbar } from '../../ui/snackbar/state.ts'

/** The name the features list is refetched by after a save or a delete. */
export const FEATURES = 'features'

interface Values extends Record<string, unknown> {
  name: string
  events: string[]
}

/** The events as removable chips, and the picker that adds to them. */
function EventChips({ org, events, onChange, field, error }: { org: string; events: string[]; onChange: (events: string[]) => void; field: ReturnType<ReturnType<typeof useForm<Values>>['field']>; error?: string }) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">Events</legend>
      {events.length === 0 ? (
        <p className="text-sm text-slate-500">No events added yet</p>
      ) : (
        <ul aria-label="Events" className="flex flex-wrap gap-2">
          {events.map((name) => (
            <li key={name} className="inline-flex max-w-full items-center gap-1 rounded-full bg-indigo-50 py-1 pl-3 pr-1 text-sm text-indigo-800">
              <span className="truncate">{name}</span>
              <button
                type="button"
                aria-label={`Remove ${name}`}
                onClick={() => onChange(events.filter((e) => e !== name))}
                className="rounded-full px-1.5 text-indigo-500 hover:bg-indigo-100 hover:text-indigo-800"
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <EventPicker
        org={org}
        label={FEATURE_TEXT.addEvent}
        chosen={events}
        onPick={(name) => onChange([...events, name])}
        buttonRef={field.ref}
        buttonProps={{ 'aria-invalid': field['aria-invalid'], 'aria-describedby': field['aria-describedby'] }}
      />
      {error && (
        <p id="field-events-error" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  )
}

function FeatureForm({ org, featureId, initial, onClose }: { org: string; featureId?: string; initial: Values; onClose: () => void }) {
  const api = useApi()
  const snackbar = useSnackbar()
  const [deleting, setDeleting] = useState(false)
  const form = useForm<Values>({
    initial,
    schema: createFeatureSchema,
    submit: async (values) => {
      const body = { name: values.name, events: values.events }
      if (featureId) await api.features.update(org, featureId, body)
      else await api.features.create(org, body)
      refetch(FEATURES)
      onClose()
    },
  })

  const remove = async () => {
    try {
      await api.features.remove(org, featureId!)
      snackbar.ok(FEATURE_TEXT.deleted(initial.name))
      refetch(FEATURES)
      onClose()
    } catch (error) {
      if (!isSilentError(error)) snackbar.error(messageOf(error))
      setDeleting(false)
    }
  }

  return (
    <form onSubmit={form.submit} noValidate className="flex h-full flex-col gap-6">
      <TextField label="Name" field={form.field('name')} error={form.errors.name} autoFocus={!featureId} />
      <EventChips org={org} events={form.values.events} onChange={(events) => form.setValue('events', events)} field={form.field('events')} error={form.errors.events} />
      <div className="mt-auto flex items-center gap-2 border-t border-slate-200 pt-4">
        {featureId && (
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        )}
        <div className="ml-auto flex gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Save
          </Button>
        </div>
      </div>
      {deleting && (
        <ConfirmModal header="Delete feature" description={FEATURE_TEXT.deleteConfirm(initial.name)} submitLabel="Delete..." onConfirm={remove} onClose={() => setDeleting(false)} />
      )}
    </form>
  )
}

function ExistingFeature({ org, featureId, onClose }: { org: string; featureId: string; onClose: () => void }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.features.get(org, featureId, signal), [org, featureId])
  return (
    <FetchView fetched={fetched}>
      {(f) => <FeatureForm org={org} featureId={featureId} initial={{ name: f.name, events: f.events.map((e) => e.event_name) }} onClose={onClose} />}
    </FetchView>
  )
}

/**
 * feature-modal (part 1 §2, §4): 'Track new feature' without an id, 'Feature'
 * with one; a name, the events as chips with the event picker, Delete with a
 * confirmation for an existing feature. After a save or a delete the features
 * list is refetched and the drawer closes.
 */
export function FeatureModal({ org, featureId, onClose }: { org: string; featureId?: string; onClose: () => void }) {
  return (
    <Drawer title={featureId ? FEATURE_TEXT.title : FEATURE_TEXT.newTitle} onClose={onClose}>
      {featureId ? <ExistingFeature org={org} featureId={featureId} onClose={onClose} /> : <FeatureForm org={org} initial={{ name: '', events: [] }} onClose={onClose} />}
    </Drawer>
  )
}
