import { createHash, randomBytes } from 'node:crypto'
import type { InvitationStatus } from '@fl0/contracts'
import type { ApiDeps } from '../deps.ts'

/**
 * Invitations as the team's routes (routes/team.ts) and the invitee's
 * (routes/invitations.ts) both see them: the link's secret, its hash (all that
 * is stored), the link itself, and the status shown beside an invitee.
 */

/** The link carries a random secret; only its hash is stored. */
export function newInvitationSecret() {
  const secret = randomBytes(32).toString('base64url')
  return { secret, hash: invitationHash(secret) }
}

export const invitationHash = (secret: string) => createHash('sha256').update(secret).digest('hex')

/** The dashboard's route for an invitation; it signs the invitee up or in, then accepts. */
export const invitationLink = (deps: Pick<ApiDeps, 'publicUrl'>, secret: string) => `${deps.publicUrl().replace(/\/+$/, '')}/invitations/${secret}`

export function invitationStatus(inv: { accepted_at: Date | null; expires_at: Date }, now: Date): InvitationStatus {
  if (inv.accepted_at) return 'accepted'
  return inv.expires_at.getTime() <= now.getTime() ? 'expired' : 'pending'
}
