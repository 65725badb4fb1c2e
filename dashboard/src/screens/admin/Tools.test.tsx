import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { adminServer, STAFF } from '../../test/adminServer.ts'
import { deferred } from '../../test/fakeServer.ts'
import { renderRoutes } from '../../test/render.tsx'

const notice = (text: string) => screen.findByText(text, { selector: '[data-kind]' })
const tool = (label: string) => within(screen.getByRole('button', { name: label }).closest('li')!)

describe('admin Tools', () => {
  it('lists the six actions, imports each with its own file chooser', async () => {
    renderRoutes(routes, '/admin', { server: adminServer(), user: STAFF })
    expect(await screen.findByRole('heading', { level: 1, name: 'Tools' })).toBeTruthy()
    expect(within(screen.getByRole('list', { name: 'Tools' })).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Import cookies...',
      'Import ip to company...',
      'Import business intents...',
      'Refresh sessions and people',
      'Refresh pages and activities',
      'Copy people and pages to supabase',
    ])
    expect(['Cookies file', 'Ip to company file', 'Business intents file'].map((l) => (screen.getByLabelText(l) as HTMLInputElement).type)).toEqual(['file', 'file', 'file'])
  })

  it.each([
    ['Import cookies...', 'Cookies file', 'import-cookies', 'Importing cookies...'],
    ['Import ip to company...', 'Ip to company file', 'import-ip-to-company', 'Importing ip to company...'],
    ['Import business intents...', 'Business intents file', 'import-business-intents', 'Importing business intents...'],
  ])("'%s' opens '%s'; the chosen file goes to /api-v2/admin/%s, '%s' shows while it runs, then the outcome", async (button, chooser, action, progress) => {
    const server = adminServer()
    const answer = deferred<{ status: number; body: unknown }>()
    server.on('POST', `/api-v2/admin/${action}`, answer.promise)
    renderRoutes(routes, '/admin', { server, user: STAFF })
    const clicked: string[] = []
    const input = (await screen.findByLabelText(chooser)) as HTMLInputElement
    input.addEventListener('click', () => clicked.push(chooser))
    // The button opens the chooser.
    fireEvent.click(screen.getByRole('button', { name: button }))
    expect(clicked).toEqual([chooser])
    const file = new File(['a,b\n1,2\n'], 'partner.csv', { type: 'text/csv' })
    fireEvent.change(input, { target: { files: [file] } })
    expect((await notice(progress)).dataset.kind).toBe('info')
    await waitFor(() => expect(server.uploads).toHaveLength(1))
    expect(server.uploads[0]!.path).toBe(`/api-v2/admin/${action}`)
    expect((server.uploads[0]!.form.get('file') as File).name).toBe('partner.csv')
    expect(screen.getByRole('button', { name: button }).getAttribute('aria-busy')).toBe('true')

    answer.resolve({ status: 200, body: { message: '2 rows imported, 0 skipped' } })
    expect((await notice('2 rows imported, 0 skipped')).dataset.kind).toBe('ok')
    // The outcome stays beside the button once the snackbar has gone.
    expect(tool(button).getByRole('status').textContent).toBe('2 rows imported, 0 skipped')
    expect(screen.getByRole('button', { name: button }).getAttribute('aria-busy')).toBeNull()
  })

  it.each([
    ['Refresh sessions and people', 'refresh-sessions', 'Refreshing sessions and people...', 'Sessions and people refreshed'],
    ['Refresh pages and activities', 'refresh-pages-and-activities', 'Refreshing pages and activities...', 'Pages and activities refreshed'],
    ['Copy people and pages to supabase', 'copy-pages-to-supabase', 'Copying people and pages to supabase...', 'People and pages copied to supabase'],
  ])("'%s' posts to /api-v2/admin/%s at once, '%s' shows while it runs, then '%s'", async (button, action, progress, done) => {
    const server = adminServer()
    const answer = deferred<{ status: number; body: unknown }>()
    server.on('POST', `/api-v2/admin/${action}`, answer.promise)
    renderRoutes(routes, '/admin', { server, user: STAFF })
    fireEvent.click(await screen.findByRole('button', { name: button }))
    expect((await notice(progress)).dataset.kind).toBe('info')
    expect(server.callsTo('POST', `/api-v2/admin/${action}`)).toHaveLength(1)
    expect(server.uploads).toHaveLength(0)
    answer.resolve({ status: 200, body: {} })
    expect((await notice(done)).dataset.kind).toBe('ok')
  })

  it("the job's message is the notice; the lines it skipped are listed beside the button", async () => {
    const server = adminServer()
    const job = {
      id: 'j1', kind: 'import-cookies', status: 'succeeded', fileName: 'cookies.csv', startedAt: '2026-02-27T10:00:00Z', finishedAt: '2026-02-27T10:00:01Z', startedBy: 'u1',
      counts: { read: 4, inserted: 3, unchanged: 0, skipped: 1 },
      errors: [{ line: 3, message: 'upid must be 5x5- followed by 32 digits' }],
      message: 'Imported 3 cookie links from cookies.csv (0 unchanged, 1 line skipped)',
    }
    server.on('POST', '/api-v2/admin/import-cookies', { body: job })
    renderRoutes(routes, '/admin', { server, user: STAFF })
    fireEvent.change(await screen.findByLabelText('Cookies file'), { target: { files: [new File(['x'], 'cookies.csv')] } })
    expect((await notice('Imported 3 cookie links from cookies.csv (0 unchanged, 1 line skipped)')).dataset.kind).toBe('ok')
    const row = tool('Import cookies...')
    expect(row.getByText('1 line reported')).toBeTruthy()
    expect(row.getByRole('list', { name: 'Import cookies: lines reported' }).textContent).toBe('line 3: upid must be 5x5- followed by 32 digits')
  })

  it('a failed job: its message as an error notice, its lines beside the button', async () => {
    const server = adminServer()
    server.on('POST', '/api-v2/admin/import-business-intents', {
      status: 422,
      body: { success: false, message: 'No usable row in intents.csv', errors: [{ name: 'line 2', message: 'score must be a number' }, { name: 'line 3', message: 'date must be YYYY-MM-DD' }] },
    })
    renderRoutes(routes, '/admin', { server, user: STAFF })
    fireEvent.change(await screen.findByLabelText('Business intents file'), { target: { files: [new File(['x'], 'intents.csv')] } })
    expect((await notice('No usable row in intents.csv')).dataset.kind).toBe('error')
    const row = tool('Import business intents...')
    expect(row.getByRole('alert').textContent).toBe('No usable row in intents.csv')
    expect(row.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['line 2: score must be a number', 'line 3: date must be YYYY-MM-DD'])
  })

  it("a failure shows the server's message as an error, beside the button too", async () => {
    const server = adminServer()
    server.on('POST', '/api-v2/admin/refresh-sessions', { status: 409, body: { message: 'A refresh is already running' } })
    renderRoutes(routes, '/admin', { server, user: STAFF })
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh sessions and people' }))
    expect((await notice('Refreshing sessions and people...')).dataset.kind).toBe('info')
    expect((await notice('A refresh is already running')).dataset.kind).toBe('error')
    expect(tool('Refresh sessions and people').getByText('A refresh is already running', { selector: 'p' })).toBeTruthy()
  })
})
