import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '../../test/render.tsx'
import { ConfirmModal, stripEllipsis } from './ConfirmModal.tsx'
import { Drawer } from './Modal.tsx'

describe('confirm modal', () => {
  it('shows icon, header, description, the submit label without its ellipsis, and cancel', async () => {
    const onConfirm = vi.fn().mockResolvedValue(undefined)
    const onClose = vi.fn()
    renderWithApp(<ConfirmModal icon="!" header="Delete audience" description='Are you sure you want to delete the audience "Buyers"?' submitLabel="Delete..." onConfirm={onConfirm} onClose={onClose} />)
    const dialog = screen.getByRole('dialog', { name: 'Delete audience' })
    expect(dialog.textContent).toContain('Are you sure you want to delete the audience "Buyers"?')
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete...' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('removes a trailing ellipsis only', () => {
    expect(stripEllipsis('Remove...')).toBe('Remove')
    expect(stripEllipsis('Remove…')).toBe('Remove')
    expect(stripEllipsis('Add source... now')).toBe('Add source... now')
    expect(stripEllipsis('Save')).toBe('Save')
  })

  it('opens drawers on the right; Escape and the backdrop close them', () => {
    const onClose = vi.fn()
    renderWithApp(
      <Drawer title="Feature" onClose={onClose}>
        body
      </Drawer>,
    )
    expect(screen.getByRole('dialog', { name: 'Feature' }).dataset.side).toBe('right')
    fireEvent.keyDown(window, { key: 'Escape' })
    fireEvent.click(screen.getByTestId('modal-backdrop'))
    expect(onClose).toHaveBeenCalledTimes(2)
  })
})
