import { createContext, useContext, type ReactNode } from 'react'
import type { Api } from './client.ts'

const ApiContext = createContext<Api | null>(null)

/** The typed API client for the screens below; tests give one with their own fetch. */
export function ApiProvider({ api, children }: { api: Api; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>
}

export function useApi(): Api {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi outside ApiProvider')
  return api
}
