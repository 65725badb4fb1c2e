import { useNavigate } from 'react-router'
import { useApi } from '../../api/context.tsx'
import { useSetCurrentUser } from '../../session/user.ts'

/**
 * Creates an organisation, reloads the user (whose list now has it) and
 * replaces the page with the new organisation's address (part 1 §4).
 */
export function useCreateOrg(variant: 'form' | 'modal') {
  const api = useApi()
  const setUser = useSetCurrentUser()
  const navigate = useNavigate()
  return async ({ name }: { name: string }) => {
    const { url_code } = await api.orgs.create({ name, variant })
    setUser(await api.me.get())
    navigate(`/organizations/${encodeURIComponent(url_code)}`, { replace: true })
  }
}
