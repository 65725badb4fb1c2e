import { fireEvent, render, screen, act } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { DataGrid, pageRange } from './DataGrid.tsx'
import { usePage } from './usePage.ts'

type Row = { id: number; name: string }
const rows = (from: number, n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `Row ${from + i}` }))
const columns = [{ key: 'name', header: 'Name', width: 100, render: (r: Row) => r.name }]

function Paged({ total }: { total: number }) {
  const [filter, setFilter] = useState('')
  const [page, setPage] = usePage({ filter })
  const shown = rows((page - 1) * 20 + 1, Math.max(0, Math.min(20, total - (page - 1) * 20)))
  return (
    <>
      <input aria-label="Filter" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <output aria-label="page">{page}</output>
      <DataGrid columns={columns} rows={shown} rowKey={(r) => String(r.id)} total={total} page={page} onPage={setPage} />
    </>
  )
}

describe('data grids', () => {
  it('shows 20 rows a page as a range of the total, and pages', () => {
    render(<Paged total={45} />)
    expect(screen.getAllByRole('row')).toHaveLength(21)
    expect(screen.getByText('1–20 of 45')).toBeTruthy()
    fireEvent.click(screen.getByLabelText('Next page'))
    fireEvent.click(screen.getByLabelText('Next page'))
    expect(screen.getByText('41–45 of 45')).toBeTruthy()
    expect(screen.getAllByRole('row')).toHaveLength(6)
    expect((screen.getByLabelText('Next page') as HTMLButtonElement).disabled).toBe(true)
    expect(pageRange(1, 0)).toBe('0 of 0')
    expect(pageRange(1, 13678)).toBe('1–20 of 13,678')
    expect(pageRange(684, 13678)).toBe('13,661–13,678 of 13,678')
  })

  it('goes back to page 1 when the filters change', () => {
    render(<Paged total={45} />)
    fireEvent.click(screen.getByLabelText('Next page'))
    expect(screen.getByLabelText('page').textContent).toBe('2')
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'acme' } })
    expect(screen.getByLabelText('page').textContent).toBe('1')
    expect(screen.getByText('1–20 of 45')).toBeTruthy()
  })

  it('opens a clickable row with the keyboard as with the mouse, leaving its controls their keys', () => {
    const opened: string[] = []
    const withButton = [...columns, { key: 'act', header: 'Act', width: 80, render: (r: Row) => <button type="button">Act on {r.name}</button> }]
    render(<DataGrid columns={withButton} rows={rows(1, 2)} rowKey={(r) => String(r.id)} total={2} onPage={() => {}} onRowClick={(r) => opened.push(r.name)} />)
    const [first, second] = screen.getAllByRole('row').slice(1)
    expect(first!.tabIndex).toBe(0)
    fireEvent.keyDown(first!, { key: 'Enter' })
    fireEvent.keyDown(second!, { key: ' ' })
    fireEvent.keyDown(second!, { key: 'a' })
    fireEvent.keyDown(screen.getByRole('button', { name: 'Act on Row 1' }), { key: 'Enter' })
    fireEvent.click(second!)
    expect(opened).toEqual(['Row 1', 'Row 2', 'Row 2'])
  })

  it('leaves rows that open nothing out of the tab order', () => {
    render(<DataGrid columns={columns} rows={rows(1, 1)} rowKey={(r) => String(r.id)} total={1} onPage={() => {}} />)
    expect(screen.getAllByRole('row')[1]!.hasAttribute('tabindex')).toBe(false)
  })

  it("shows 'No data found' when empty", () => {
    render(<DataGrid columns={columns} rows={[]} rowKey={(r: Row) => String(r.id)} />)
    expect(screen.getByText('No data found')).toBeTruthy()
  })

  it('resizes columns by dragging the header edge, never below 60 px', () => {
    render(<DataGrid columns={columns} rows={rows(1, 1)} rowKey={(r) => String(r.id)} />)
    const header = screen.getByText('Name').closest('th')!
    const handle = screen.getByRole('separator', { name: 'Resize Name' })
    act(() => {
      fireEvent.pointerDown(handle, { clientX: 100 })
      window.dispatchEvent(new MouseEvent('pointermove', { clientX: 150 }))
    })
    expect(header.style.width).toBe('150px')
    act(() => {
      window.dispatchEvent(new MouseEvent('pointermove', { clientX: -500 }))
      window.dispatchEvent(new MouseEvent('pointerup'))
    })
    expect(header.style.width).toBe('60px')
    act(() => {
      window.dispatchEvent(new MouseEvent('pointermove', { clientX: 400 }))
    })
    expect(header.style.width).toBe('60px')
  })
})
