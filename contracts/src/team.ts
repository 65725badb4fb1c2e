import { z } from 'zod'
import { emailSchema } from './email.ts'
import type { OrgRole } from './auth.ts'

/** Team and invitations (part 3: settings and team). */

export const INVITATION_STATUSES = ['pending', 'expired', 'accepted'] as const
export type InvitationStatus = (typeof INVITATION_STATUSES)[number]

/** An invitation can be accepted for 7 days after it is sent (or sent again). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** POST /api/orgs/{organization}/users */
export const inviteSchema = z.object({ invitee_email: emailSchema })
export type Invite = z.output<typeof inviteSchema>

/**
 * One row of GET /api/orgs/{organization}/users: a member (id = the user's id,
 * invitation_status 'accepted') or an open invitation (id = the invitation's id,
 * 'pending' or 'expired').
 */
export interface TeamMember {
  id: string
  email: string
  /** Members only: the user's name, for 'Search team by name...'; invitations have none yet. */
  name?: string
  role: OrgRole
  invitation_status: InvitationStatus
}

/** GET /api/invitations/{token} (public): what the invitation page shows before accepting. */
export interface InvitationView {
  email: string
  organization: { name: string; url_code: string }
  status: InvitationStatus
}

/** Answer of POST /api/invitations/{token}/accept. */
export interface AcceptInvitationResponse {
  url_code: string
}

/** The screens' texts (part 3 §4, §8), kept beside the calls they follow. */
export const TEAM_TEXT = {
  searchPlaceholder: 'Search team by name...',
  inviteButton: 'Invite team member',
  emptyInvite: 'Invite team members',
  emptyNoUsers: 'No users found',
  pendingBadge: 'Invitation pending',
  expiredBadge: 'Invitation expired',
  adminBadge: 'Admin',
  you: '(you)',
  inviteSent: (email: string) => `A team invite email has been sent to ${email}.`,
  removed: (email: string) => `Removed team member ${email} successfully`,
  removeConfirm: (email: string, organization: string) =>
    `Are you sure you want to remove the team member ${email} from the organization ${organization}?`,
} as const

/** Server answers for the team calls that the specification leaves to fl0. */
export const TEAM_ERRORS = {
  alreadyMember: 'This person is already a member of the organization',
  lastAdmin: 'An organization must keep at least one admin',
  notFound: 'Team member not found',
  invitationNotFound: 'Invitation not found',
  invitationExpired: 'This invitation has expired',
  invitationAccepted: 'This invitation has already been accepted',
  wrongEmail: 'This invitation was sent to another email address',
} as const
