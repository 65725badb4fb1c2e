import nodemailer from 'nodemailer'
import type { ApiLogger } from '../deps.ts'

export interface InvitationMail {
  to: string
  organization: string
  invitedBy: string
  link: string
  expiresAt: Date
}

export interface Mailer {
  /** 'sent' through SMTP, or 'logged' when no SMTP server is configured. */
  sendInvitation(mail: InvitationMail): Promise<'sent' | 'logged'>
}

/**
 * Invitations go out through SMTP when SMTP_URL is set (smtp:// or smtps://,
 * credentials in the URL, as nodemailer reads it). Without it, the accept link
 * is written to the server log, so a self-hosted install with no mail server
 * can still invite: the admin passes the link on.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; logger: ApiLogger }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined
  return {
    async sendInvitation(mail) {
      if (!transport) {
        opts.logger.info({ email: mail.to, organization: mail.organization, link: mail.link }, 'invitation link (SMTP_URL is not set, so no e-mail was sent)')
        return 'logged'
      }
      await transport.sendMail({
        from: opts.from,
        to: mail.to,
        subject: `${mail.invitedBy} invited you to ${mail.organization} on fl0`,
        text: invitationText(mail),
      })
      return 'sent'
    },
  }
}

export function invitationText(mail: InvitationMail): string {
  return [
    `${mail.invitedBy} has invited you to join the organization ${mail.organization} on fl0.`,
    '',
    `Accept the invitation: ${mail.link}`,
    '',
    `The link works until ${mail.expiresAt.toUTCString()}.`,
  ].join('\n')
}
