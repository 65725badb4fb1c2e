import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { useApi } from '../../api/context.tsx'
import { fakeServer } from '../../test/fakeServer.ts'
import { renderWithApp } from '../../test/render.tsx'
import { TextField } from './TextField.tsx'
import { useForm } from './useForm.ts'
import { distributeErrors, MUST_BE_PROVIDED } from './errors.ts'

const schema = z.object({
  name: z.string().max(5, 'Name must have less than 6 characters').regex(/^[a-z]*$/, 'Name must be lowercase'),
  domain: z.string().min(1, 'Domain must be provided'),
})

function SourceForm({ autoSubmit = false, withSchema = false }: { autoSubmit?: boolean; withSchema?: boolean }) {
  const api = useApi()
  const form = useForm({
    initial: { name: '', domain: '' },
    schema: withSchema ? schema : undefined,
    required: withSchema ? ['name'] : [],
    autoSubmit,
    submit: (values) => api.http.post('/api/sources', values),
  })
  return (
    <form onSubmit={form.submit} noValidate>
      <TextField label="Name" field={form.field('name')} error={form.errors.name} />
      <TextField label="Domain" field={form.field('domain')} error={form.errors.domain} />
      <button type="submit">Save</button>
    </form>
  )
}

const errorOf = (label: string) => document.getElementById(`${screen.getByLabelText(label).id}-error`)?.textContent
const snackbarTexts = () => [...document.querySelectorAll('[data-kind="error"]')].map((e) => e.textContent)

describe('forms', () => {
  afterEach(() => vi.useRealTimers())

  it('puts named server errors beside their fields and focuses the first; the rest become snackbars, unnamed first', async () => {
    const server = fakeServer()
    server.on('POST', '/api/sources', {
      status: 400,
      body: {
        success: false,
        message: 'Invalid body',
        errors: [
          { name: 'domain', message: 'Domain must be valid (e.g. a www domain)' },
          { name: 'apiKey', message: 'The API key is taken' },
          { name: 'name', message: 'Name must be provided' },
          { name: '', message: 'The source limit is reached' },
          { name: 'domain', message: 'a second domain error is not shown' },
        ],
      },
    })
    renderWithApp(<SourceForm />, { server })
    fireEvent.click(screen.getByText('Save'))
    await waitFor(() => expect(errorOf('Domain')).toBe('Domain must be valid (e.g. a www domain)'))
    expect(errorOf('Name')).toBe('Name must be provided')
    expect(document.activeElement).toBe(screen.getByLabelText('Domain'))
    expect(screen.getByLabelText('Domain').getAttribute('aria-invalid')).toBe('true')
    expect(snackbarTexts()).toEqual(['The source limit is reached', 'The API key is taken'])
  })

  it("clears a field's error when its value changes, and only that field's", async () => {
    const server = fakeServer()
    server.on('POST', '/api/sources', { status: 400, body: { errors: [{ name: 'name', message: 'Name taken' }, { name: 'domain', message: 'Domain taken' }] } })
    renderWithApp(<SourceForm />, { server })
    fireEvent.click(screen.getByText('Save'))
    await waitFor(() => expect(errorOf('Name')).toBe('Name taken'))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } })
    expect(errorOf('Name')).toBeUndefined()
    expect(errorOf('Domain')).toBe('Domain taken')
  })

  it("shows the answer's message when it has no error list, and 'An error has occurred' when it has neither", async () => {
    const server = fakeServer()
    server.on('POST', '/api/sources', { status: 403, body: { message: 'Only admins can add sources' } })
    renderWithApp(<SourceForm />, { server })
    fireEvent.click(screen.getByText('Save'))
    await waitFor(() => expect(snackbarTexts()).toEqual(['Only admins can add sources']))

    expect(distributeErrors([], new Set(['name']))).toEqual({ fields: {}, focus: undefined, snackbars: ['An error has occurred'] })
    const bare = fakeServer()
    bare.on('POST', '/api/sources', new Response('', { status: 502 }))
    renderWithApp(<SourceForm />, { server: bare })
    fireEvent.click(screen.getAllByText('Save')[1])
    await waitFor(() => expect(snackbarTexts()).toContain('Request failed (502)'))
  })

  it('validates before sending: errors deduplicated by field, the generic required rule, nothing sent', async () => {
    const server = fakeServer()
    renderWithApp(<SourceForm withSchema />, { server })
    fireEvent.click(screen.getByText('Save'))
    await waitFor(() => expect(errorOf('Name')).toBe(`${MUST_BE_PROVIDED}`))
    expect(errorOf('Domain')).toBe('Domain must be provided')

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'TooLongName' } })
    fireEvent.click(screen.getByText('Save'))
    // Two rules broken by one field: only the first is shown.
    await waitFor(() => expect(errorOf('Name')).toBe('Name must have less than 6 characters'))
    expect(server.calls).toHaveLength(0)
  })

  it('auto-submits 500 ms after the last change', async () => {
    vi.useFakeTimers()
    const server = fakeServer()
    server.on('POST', '/api/sources', { body: {} })
    renderWithApp(<SourceForm autoSubmit />, { server })
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'a' } })
    await act(() => vi.advanceTimersByTimeAsync(300))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'ab' } })
    await act(() => vi.advanceTimersByTimeAsync(499))
    expect(server.calls).toHaveLength(0)
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(server.calls).toHaveLength(1)
    expect(server.calls[0].body).toEqual({ name: 'ab', domain: '' })
  })
})
