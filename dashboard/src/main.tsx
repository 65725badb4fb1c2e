import './jitless.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createApi } from './api/client.ts'
import { createHttp } from './api/http.ts'
import { App } from './App.tsx'
import { signOutOnce } from './session/signOut.ts'
import './index.css'

// A 401 from /api-v2 means the session is gone: the user is logged out (part 1 §6), once. A screen that
// loads several things at once gets a 401 for each, and the user menu's Log out meets those of the requests
// in flight: signing out for each would start one navigation per 401, each cutting the one before it short.
const api = createApi(createHttp({ onUnauthorized: () => void signOutOnce(api) }))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} />
  </StrictMode>,
)
