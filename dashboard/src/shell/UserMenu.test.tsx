import { fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { routes } from '../routes.tsx'
import { fakeServer } from '../test/fakeServer.ts'
import { renderRoutes, USER } from '../test/render.tsx'

/** The user menu's Admin entry: for staff (the rule the API applies to /api-v2/admin/*), never for anyone else. */
async function openUserMenu(isStaff: boolean) {
  const server = fakeServer()
  server.on('PATCH', '/api/users/me/preferences', { body: {} })
  const rendered = renderRoutes(routes, '/organizations/acme/people', { server, user: { ...USER, isStaff } })
  fireEvent.click(await screen.findByRole('button', { name: 'User menu' }))
  return { ...rendered, items: () => within(screen.getByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent) }
}

describe('the user menu', () => {
  it('shows staff an Admin entry to /admin', async () => {
    const { items } = await openUserMenu(true)
    expect(items()).toEqual(['Settings', 'Admin', 'Log out'])
    expect(screen.getByRole('menuitem', { name: 'Admin' }).getAttribute('href')).toBe('/admin')
  })

  it('shows no Admin entry to anyone else', async () => {
    const { items } = await openUserMenu(false)
    expect(items()).toEqual(['Settings', 'Log out'])
  })
})
