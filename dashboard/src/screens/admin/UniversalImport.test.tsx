import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { adminServer, STAFF, tableRows } from '../../test/adminServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import { appendToLog, logOutcome } from './ImportUniversalDialog.tsx'

/** A streamed text answer whose chunks the test writes one at a time; `cancelled` once the reader gives up. */
function chunkedAnswer() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const state = { cancelled: false }
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (state.cancelled = true),
  })
  return {
    state,
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  }
}

const FILE = new File(['up_id,first_name\n5x5-00000000000000000000000000000001,Ada\n'], 'universal.csv', { type: 'text/csv' })
const NONE_YET = { status: 404, body: { success: false, message: 'No universal table import has run yet', errors: [] } }

async function openDialog(server: ReturnType<typeof adminServer>) {
  renderRoutes(routes, '/admin/universal-table', { server, user: STAFF })
  fireEvent.click(await screen.findByRole('button', { name: 'Import universal table...' }))
  const dialog = within(await screen.findByRole('dialog', { name: 'Import universal table' }))
  return dialog
}

const choose = (dialog: ReturnType<typeof within>) => fireEvent.change(dialog.getByLabelText('Universal table file'), { target: { files: [FILE] } })

describe("'Import universal table...'", () => {
  it('appends each chunk of progress to the log as it arrives, then loads the grid again', async () => {
    const server = adminServer({ 'universal-table': tableRows(3, 'person') })
    server.on('GET', '/api-v2/admin/universal-table/import', NONE_YET)
    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    const dialog = await openDialog(server)
    const log = dialog.getByRole('log', { name: 'Import log' })
    await waitFor(() => expect(log.textContent).toBe('No universal table import has run yet'))
    expect((dialog.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true)
    choose(dialog)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(server.uploads).toHaveLength(1))
    expect(server.uploads[0]!.path).toBe('/api-v2/admin/universal-table/import')
    const sent = server.uploads[0]!.form.get('file') as File
    expect([sent.name, await sent.text()]).toEqual(['universal.csv', await FILE.text()])
    expect(dialog.getByText('Importing...')).toBeTruthy()
    expect(log.textContent).toBe('')

    answer.write('Importing universal table from universal.csv\n')
    await waitFor(() => expect(log.textContent).toBe('Importing universal table from universal.csv\n'))
    // The second chunk is not there before it was written, and lands after the first.
    answer.write('line 7: up_id must be 5x5- followed by 32 digits (skipped)\n')
    await waitFor(() => expect(log.textContent).toBe('Importing universal table from universal.csv\nline 7: up_id must be 5x5- followed by 32 digits (skipped)\n'))
    answer.write('Done: 2 rows read')
    answer.write(': 1 imported, 0 unchanged, 1 skipped in 0.1 s\n')
    await waitFor(() => expect(log.textContent).toMatch(/\(skipped\)\nDone: 2 rows read: 1 imported, 0 unchanged, 1 skipped in 0\.1 s\n$/))
    expect(dialog.getByText('Importing...')).toBeTruthy()

    const gridCalls = server.callsTo('GET', '/api-v2/admin/universal-table').length
    answer.end()
    await waitFor(() => expect(dialog.getByText('Import finished')).toBeTruthy())
    await waitFor(() => expect(server.callsTo('GET', '/api-v2/admin/universal-table').length).toBe(gridCalls + 1))
    // Finished, it closes without asking.
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it("opening shows the running or last import's log, streamed; a 'Failed:' last line says the import failed", async () => {
    const server = adminServer()
    const last = chunkedAnswer()
    server.on('GET', '/api-v2/admin/universal-table/import', last.response)
    const dialog = await openDialog(server)
    expect(dialog.getByText('Last import')).toBeTruthy()
    last.write('Importing universal table from people.csv\n')
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('Importing universal table from people.csv\n'))
    last.write('Done: 10 rows read: 10 imported, 0 unchanged, 0 skipped in 0.2 s\n')
    last.end()
    await waitFor(() => expect(dialog.getByRole('log').textContent).toContain('Done: 10 rows read'))

    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    choose(dialog)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    answer.write('Importing universal table from universal.csv\nFailed: the file has no up_id column\n')
    answer.end()
    await waitFor(() => expect(dialog.getByText('Import failed')).toBeTruthy())
    expect(dialog.getByRole('log').textContent).toBe('Importing universal table from universal.csv\nFailed: the file has no up_id column\n')
  })

  it("a refused import shows the server's message in the log", async () => {
    const server = adminServer()
    server.on('GET', '/api-v2/admin/universal-table/import', NONE_YET)
    server.on('POST', '/api-v2/admin/universal-table/import', { status: 409, body: { success: false, message: 'A job of this kind is already running', errors: [] } })
    const dialog = await openDialog(server)
    choose(dialog)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('A job of this kind is already running\n'))
    expect(dialog.getByText('Import failed')).toBeTruthy()
  })

  it('closing during an import asks first, then aborts the request', async () => {
    const server = adminServer()
    server.on('GET', '/api-v2/admin/universal-table/import', NONE_YET)
    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    const dialog = await openDialog(server)
    choose(dialog)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    answer.write('Reading\n')
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('Reading\n'))
    const post = server.callsTo('POST', '/api-v2/admin/universal-table/import')[0]!
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }))
    const confirm = within(await screen.findByRole('dialog', { name: 'Close during the import?' }))
    // Cancel: the import goes on, its log still growing.
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Close during the import?' })).toBeNull())
    answer.write('Still reading\n')
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('Reading\nStill reading\n'))
    expect(post.signal!.aborted).toBe(false)
    fireEvent.click(dialog.getByRole('button', { name: 'Close' }))
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Close during the import?' })).getByRole('button', { name: 'Close anyway' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(post.signal!.aborted).toBe(true)
  })

  it('the log keeps its newest text past its limit; its last line says how it ended', () => {
    expect(appendToLog('abc', 'def', 4)).toBe('cdef')
    expect(appendToLog('ab', 'c', 4)).toBe('abc')
    expect(logOutcome('a\nDone: 1 row\n')).toBe('done')
    expect(logOutcome('a\nFailed: no file\n')).toBe('failed')
    expect(logOutcome('a\nline 3: bad\n')).toBeNull()
  })
})
