import { Hono } from 'hono'
import { TEAM_ERRORS, type AcceptInvitationResponse, type InvitationView } from '@fl0/contracts'
import { addMembership, findInvitationByTokenHash, markInvitationAccepted } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, forbidden, notFound } from '../http/errors.ts'
import { sessionUser } from '../guard/index.ts'
import { invitationStatus } from '../team/invitations.ts'
import { secretId } from '../auth/secrets.ts'

/**
 * /api/invitations/{token}: reading one is public (the invitee may have no
 * account yet); accepting needs a session whose address is the invited one.
 */
export function createInvitationsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  const find = async (token: string) => {
    const invitation = await findInvitationByTokenHash(deps.sql, secretId(token))
    if (!invitation) throw notFound(TEAM_ERRORS.invitationNotFound)
    return invitation
  }

  app.get('/:token', async (c) => {
    const invitation = await find(c.req.param('token'))
    const body: InvitationView = {
      email: invitation.email,
      organization: { name: invitation.organization.name, url_code: invitation.organization.url_code },
      status: invitationStatus(invitation, deps.now()),
    }
    return c.json(body)
  })

  app.post('/:token/accept', async (c) => {
    const user = sessionUser(c)
    const invitation = await find(c.req.param('token'))
    const now = deps.now()
    const answer: AcceptInvitationResponse = { url_code: invitation.organization.url_code }
    if (user.email !== invitation.email) throw forbidden(TEAM_ERRORS.wrongEmail)
    const status = invitationStatus(invitation, now)
    if (status === 'expired') throw new ApiError(410, TEAM_ERRORS.invitationExpired)
    if (status === 'accepted') return c.json(answer) // the same person following the link twice
    await deps.sql.transaction(async (tx) => {
      if (await markInvitationAccepted(tx, { id: invitation.id, userId: user.id, now })) {
        await addMembership(tx, { orgId: invitation.org_id, userId: user.id, role: invitation.role })
      }
    })
    deps.logger.info({ orgId: invitation.org_id, userId: user.id }, 'invitation accepted')
    return c.json(answer)
  })

  return app
}
