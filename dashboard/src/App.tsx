import { useMemo } from 'react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { ApiProvider } from './api/context.tsx'
import type { Api } from './api/client.ts'
import { Provider, createStore } from './state/jotai.ts'
import { routes } from './routes.tsx'
import { Snackbars } from './ui/snackbar/Snackbars.tsx'

/** The app: one jotai store, the API client, the router and the snackbars. */
export function App({ api }: { api: Api }) {
  const store = useMemo(() => createStore(), [])
  const router = useMemo(() => createBrowserRouter(routes), [])
  return (
    <Provider store={store}>
      <ApiProvider api={api}>
        <RouterProvider router={router} />
        <Snackbars />
      </ApiProvider>
    </Provider>
  )
}
