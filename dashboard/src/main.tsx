import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createApi } from './api/client.ts'
import { createHttp } from './api/http.ts'
import { App } from './App.tsx'
import { signOut } from './session/signOut.ts'
import './index.css'

// A 401 from /api-v2 means the session is gone: the user is logged out (part 1 §6).
const api = createApi(createHttp({ onUnauthorized: () => void signOut(api) }))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} />
  </StrictMode>,
)
