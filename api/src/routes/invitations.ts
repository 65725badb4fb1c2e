import { Hono } from 'hono'
import { TEAM_ERRORS, type AcceptInvitationResponse, type InvitationView } from '@fl0/contracts'
import { INVITATION_TTL_MS } from '@fl0/contracts'
import type { InvitationDelivery, InvitationLink, InvitationResent } from '@fl0/contracts/invitation-links'
import { INVITATION_LINK_ERRORS } from '@fl0/contracts/invitation-links'
import { addMembership, findInvitationByTokenHash, listOpenInvitations, markInvitationAccepted, upsertInvitation } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, forbidden, notFound } from '../http/errors.ts'
import { currentOrg, requireOrgAdmin, sessionUser } from '../guard/index.ts'
import { invitationLink, invitationStatus } from '../team/invitations.ts'
import { newSecret, secretId } from '../auth/secrets.ts'

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

/**
 * /api/orgs/{organization}/invitations: an open invitation's link, for the
 * organisation's admins only (the guard checks membership, requireOrgAdmin the
 * role: a member gets 403 and never a link). Only a hash of a link's secret is
 * stored, so a link is read by renewing it: a new secret and expiry on the same
 * invitation (upsertInvitation), which ends the link made before. Without a
 * mail server (Mailer.delivery 'logged') this is how the invitee gets a link.
 */
export function createOrgInvitationsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()
  app.use('*', requireOrgAdmin)

  app.get('/delivery', (c) => c.json({ delivery: deps.mailer.delivery } satisfies InvitationDelivery))

  /** Renews an open invitation (pending or expired) of this organisation; 404 for any other id. */
  async function renew(orgId: string, id: string, invitedBy: string) {
    const invitation = (await listOpenInvitations(deps.sql, orgId)).find((i) => i.id === id)
    if (!invitation) throw notFound(INVITATION_LINK_ERRORS.notFound)
    const now = deps.now()
    const { secret, id: tokenHash } = newSecret()
    const renewed = await upsertInvitation(deps.sql, {
      orgId,
      email: invitation.email,
      role: invitation.role,
      tokenHash,
      invitedBy,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    })
    return { invitation: renewed, link: invitationLink(deps, secret) }
  }

  app.post('/:id/link', async (c) => {
    const org = currentOrg(c)
    const user = sessionUser(c)
    const { invitation, link } = await renew(org.id, c.req.param('id'), user.id)
    deps.logger.info({ orgId: org.id, invitationId: invitation.id, by: user.id }, 'invitation link renewed for copying')
    const body: InvitationLink = { id: invitation.id, email: invitation.email, link, expires_at: invitation.expires_at.toISOString() }
    return c.json(body)
  })

  app.post('/:id/resend', async (c) => {
    const org = currentOrg(c)
    const user = sessionUser(c)
    const { invitation, link } = await renew(org.id, c.req.param('id'), user.id)
    let delivery
    try {
      delivery = await deps.mailer.sendInvitation({ to: invitation.email, organization: org.name, invitedBy: user.name, link, expiresAt: invitation.expires_at })
    } catch (err) {
      deps.logger.error({ err, orgId: org.id, invitationId: invitation.id }, 'invitation e-mail failed')
      throw new ApiError(502, 'The invitation was renewed but the email could not be sent; try again')
    }
    const body: InvitationResent = {
      id: invitation.id,
      email: invitation.email,
      delivery,
      expires_at: invitation.expires_at.toISOString(),
      // No e-mail carried the link: the admin passes it on.
      ...(delivery === 'logged' ? { link } : {}),
    }
    return c.json(body)
  })

  return app
}
