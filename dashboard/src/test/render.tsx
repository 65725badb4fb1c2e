import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { createApi } from '../api/client.ts'
import { ApiProvider } from '../api/context.tsx'
import { createHttp } from '../api/http.ts'
import type { CurrentUser } from '../api/types.ts'
import { currentUserAtom } from '../session/user.ts'
import { createStore, Provider } from '../state/jotai.ts'
import { Snackbars } from '../ui/snackbar/Snackbars.tsx'
import { fakeServer, type FakeServer } from './fakeServer.ts'

export const USER: CurrentUser = {
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  isStaff: false,
  preferences: { isMenuCollapsed: false, defaultOrgUrlCode: null },
  orgs: [
    { id: 'o1', name: 'Acme', url_code: 'acme', role: 'admin' },
    { id: 'o2', name: 'Globex', url_code: 'globex', role: 'member' },
  ],
}

interface Options {
  server?: FakeServer
  user?: CurrentUser | null
  reload?: () => void
  onUnauthorized?: () => void
}

/** Renders with the app's providers: a fresh jotai store, the API on a fake server, snackbars. */
export function renderWithApp(ui: ReactNode, options: Options = {}) {
  const server = options.server ?? fakeServer()
  const api = createApi(createHttp({ fetch: server.fetch, onUnauthorized: options.onUnauthorized }))
  const store = createStore()
  if (options.user !== null) store.set(currentUserAtom, options.user ?? USER)
  const result = render(
    <Provider store={store}>
      <ApiProvider api={api}>
        {ui}
        <Snackbars reload={options.reload ?? (() => {})} />
      </ApiProvider>
    </Provider>,
  )
  return { ...result, server, api, store }
}

/** Renders routes in a memory router at `path`. */
export function renderRoutes(routes: RouteObject[], path: string, options: Options = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const result = renderWithApp(<RouterProvider router={router} />, options)
  return { ...result, router }
}
