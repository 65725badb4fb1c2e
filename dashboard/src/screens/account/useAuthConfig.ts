import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'

/** Which provider signs users in: fl0's own, or an external OIDC issuer. */
export function useAuthConfig() {
  const api = useApi()
  return useFetch((signal) => api.auth.config(signal), [])
}
