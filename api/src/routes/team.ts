import { Hono } from 'hono'
import { INVITATION_TTL_MS, inviteSchema, TEAM_ERRORS, type TeamMember } from '@fl0/contracts'
import { deleteOpenInvitation, isMember, findUserByEmail, listMembers, listOpenInvitations, removeMembership, upsertInvitation } from '@fl0/stores'
import type { ApiDeps } from '../deps.ts'
import type { ApiEnv } from '../env.ts'
import { ApiError, fieldError, notFound } from '../http/errors.ts'
import { jsonBody } from '../http/validate.ts'
import { currentOrg, requireOrgAdmin, sessionUser } from '../guard/index.ts'
import { invitationLink, invitationStatus } from '../team/invitations.ts'
import { newSecret } from '../auth/secrets.ts'

export const INVITE_NOT_SENT = 'The invitation was saved but the email could not be sent; try again'


/**
 * /api/orgs/{organization}/users: the team (members, then open invitations),
 * inviting (admins) and removing a member or revoking an invitation (admins).
 * Membership is checked by the guard before any of this runs.
 */
export function createTeamRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>()

  app.get('/', async (c) => {
    const org = currentOrg(c)
    const now = deps.now()
    const [members, invitations] = await Promise.all([listMembers(deps.sql, org.id), listOpenInvitations(deps.sql, org.id)])
    const team: TeamMember[] = [
      ...members.map((m) => ({ id: m.user_id, email: m.email, name: m.name, role: m.role, invitation_status: 'accepted' as const })),
      ...invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, invitation_status: invitationStatus(i, now) })),
    ]
    return c.json(team)
  })

  app.post('/', requireOrgAdmin, jsonBody(inviteSchema), async (c) => {
    const org = currentOrg(c)
    const inviter = sessionUser(c)
    const email = c.req.valid('json').invitee_email
    const existing = await findUserByEmail(deps.sql, email)
    if (existing && (await isMember(deps.sql, org.id, existing.id))) throw fieldError('invitee_email', TEAM_ERRORS.alreadyMember, 409)

    const now = deps.now()
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)
    const { secret, id: hash } = newSecret()
    const invitation = await upsertInvitation(deps.sql, { orgId: org.id, email, tokenHash: hash, invitedBy: inviter.id, now, expiresAt })
    try {
      await deps.mailer.sendInvitation({ to: email, organization: org.name, invitedBy: inviter.name, link: invitationLink(deps, secret), expiresAt })
    } catch (err) {
      deps.logger.error({ err, orgId: org.id, invitationId: invitation.id }, 'invitation e-mail failed')
      throw new ApiError(502, INVITE_NOT_SENT)
    }
    const body: TeamMember = { id: invitation.id, email: invitation.email, role: invitation.role, invitation_status: 'pending' }
    return c.json(body, 201)
  })

  app.delete('/:userId', requireOrgAdmin, async (c) => {
    const org = currentOrg(c)
    const id = c.req.param('userId')
    const removed = await removeMembership(deps.sql, org.id, id)
    if (removed === 'last-admin') throw new ApiError(409, TEAM_ERRORS.lastAdmin)
    if (removed) {
      deps.logger.info({ orgId: org.id, userId: id, by: sessionUser(c).id }, 'team member removed')
      return c.body(null, 204)
    }
    if (await deleteOpenInvitation(deps.sql, org.id, id)) return c.body(null, 204)
    throw notFound(TEAM_ERRORS.notFound)
  })

  return app
}
