import type { InvitationStatus } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'
import { publicLink } from '../auth/secrets.ts'

/**
 * Invitations as the team's routes (routes/team.ts) and the invitee's
 * (routes/invitations.ts) both see them: the link, and the status shown
 * beside an invitee.
 */

/** The dashboard's route for an invitation (its secret: auth/secrets.ts); it signs the invitee up or in, then accepts. */
export const invitationLink = (deps: Pick<ApiDeps, 'publicUrl'>, secret: string) => publicLink(deps, `/invitations/${secret}`)

export function invitationStatus(inv: { accepted_at: Date | null; expires_at: Date }, now: Date): InvitationStatus {
  if (inv.accepted_at) return 'accepted'
  return inv.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending'
}
