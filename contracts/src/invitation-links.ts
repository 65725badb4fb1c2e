import type { MailDelivery } from './auth.ts'

/**
 * An open invitation's link, for the organisation's admins (not in the
 * specification): fl0 keeps only a hash of a link's secret, so reading the
 * link means renewing it (a new secret and a new expiry, the same
 * invitation); a link made earlier stops working.
 *
 * - GET  /api/orgs/{organization}/invitations/delivery: how invitations go out here.
 * - POST /api/orgs/{organization}/invitations/{id}/link: a fresh link to copy.
 * - POST /api/orgs/{organization}/invitations/{id}/resend: e-mails a fresh link
 *   (SMTP configured), or, without a mail server, answers it to copy.
 */

/** GET …/invitations/delivery: 'sent' through SMTP, or 'logged' (SMTP_URL unset: no e-mail leaves). */
export interface InvitationDelivery {
  delivery: MailDelivery
}

/** POST …/invitations/{id}/link */
export interface InvitationLink {
  id: string
  email: string
  link: string
  expires_at: string
}

/** POST …/invitations/{id}/resend: the link only when no e-mail carried it. */
export interface InvitationResent {
  id: string
  email: string
  delivery: MailDelivery
  link?: string
  expires_at: string
}

export const INVITATION_LINK_TEXT = {
  notSent: 'No e-mail was sent: fl0 has no mail server configured. Copy the invitation link and send it yourself.',
  copyLink: 'Copy link',
  resend: 'Resend',
  copied: 'Invitation link copied to clipboard',
  /** Said where a link is renewed: the one sent before stops working. */
  renewed: 'A new link was made; any earlier link to this invitation no longer works.',
} as const

export const INVITATION_LINK_ERRORS = {
  notFound: 'Invitation not found',
} as const
