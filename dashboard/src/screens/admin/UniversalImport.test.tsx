import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../../routes.tsx'
import { adminServer, STAFF, tableRows } from '../../test/adminServer.ts'
import { renderRoutes } from '../../test/render.tsx'
import { appendToLog } from './ImportUniversalDialog.tsx'

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

const FILE = new File(['up_id,name\n5x5-00000000000000000000000000000001,Ada\n'], 'universal.csv', { type: 'text/csv' })

async function openDialog(server: ReturnType<typeof adminServer>) {
  renderRoutes(routes, '/admin/universal-table', { server, user: STAFF })
  fireEvent.click(await screen.findByRole('button', { name: 'Import universal table...' }))
  const dialog = within(await screen.findByRole('dialog', { name: 'Import universal table' }))
  fireEvent.change(dialog.getByLabelText('Universal table file'), { target: { files: [FILE] } })
  return dialog
}

describe("'Import universal table...'", () => {
  it('appends each chunk of progress to the log as it arrives, then loads the grid again', async () => {
    const server = adminServer({ 'universal-table': tableRows(3, 'person') })
    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    const dialog = await openDialog(server)
    const log = dialog.getByRole('log', { name: 'Import log' })
    expect(log.textContent).toBe('')
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(server.uploads).toHaveLength(1))
    expect(server.uploads[0]!.path).toBe('/api-v2/admin/universal-table/import')
    const sent = server.uploads[0]!.form.get('file') as File
    expect([sent.name, await sent.text()]).toEqual(['universal.csv', await FILE.text()])
    expect(dialog.getByText('Importing...')).toBeTruthy()

    answer.write('Reading universal.csv\n')
    await waitFor(() => expect(log.textContent).toBe('Reading universal.csv\n'))
    // The second chunk is not there before it was written, and lands after the first.
    answer.write('line 7: up_id must look like 5x5- and 32 digits, skipped\n')
    await waitFor(() => expect(log.textContent).toBe('Reading universal.csv\nline 7: up_id must look like 5x5- and 32 digits, skipped\n'))
    answer.write('100000 rows')
    answer.write(' imported\n')
    await waitFor(() => expect(log.textContent).toBe('Reading universal.csv\nline 7: up_id must look like 5x5- and 32 digits, skipped\n100000 rows imported\n'))
    expect(dialog.getByRole('button', { name: 'Stop import' })).toBeTruthy()

    const gridCalls = server.callsTo('GET', '/api-v2/admin/universal-table').length
    answer.end()
    await waitFor(() => expect(dialog.getByText('Import finished')).toBeTruthy())
    await waitFor(() => expect(server.callsTo('GET', '/api-v2/admin/universal-table').length).toBe(gridCalls + 1))
    fireEvent.click(dialog.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it("a refused import shows the server's message in the log", async () => {
    const server = adminServer()
    server.on('POST', '/api-v2/admin/universal-table/import', { status: 400, body: { message: 'The file must be a CSV with a header row' } })
    const dialog = await openDialog(server)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('The file must be a CSV with a header row\n'))
    expect(dialog.getByText('Import failed')).toBeTruthy()
  })

  it("'Stop import' aborts the request and closes", async () => {
    const server = adminServer()
    const answer = chunkedAnswer()
    server.on('POST', '/api-v2/admin/universal-table/import', answer.response)
    const dialog = await openDialog(server)
    fireEvent.click(dialog.getByRole('button', { name: 'Import' }))
    answer.write('Reading\n')
    await waitFor(() => expect(dialog.getByRole('log').textContent).toBe('Reading\n'))
    fireEvent.click(dialog.getByRole('button', { name: 'Stop import' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(server.callsTo('POST', '/api-v2/admin/universal-table/import')[0]!.signal!.aborted).toBe(true)
  })

  it('the log keeps its newest text past its limit', () => {
    expect(appendToLog('abc', 'def', 4)).toBe('cdef')
    expect(appendToLog('ab', 'c', 4)).toBe('abc')
  })
})
