import nodemailer from 'nodemailer'
import type { MailDelivery } from '@fl0/contracts'
import type { ApiLogger } from '../logger.ts'

export interface InvitationMail {
  to: string
  organization: string
  invitedBy: string
  link: string
  expiresAt: Date
}

/** The links a local account is sent: confirm its address, reset its password, or (on a sign-up with a taken address) a note that it exists. */
export type AccountMailKind = 'verify-email' | 'reset-password' | 'account-exists'

export interface AccountMail {
  to: string
  kind: AccountMailKind
  link: string
  expiresAt: Date
}

export interface Mailer {
  /** What sending does here: 'sent' through SMTP, or 'logged' when no SMTP server is configured. */
  readonly delivery: MailDelivery
  /** 'sent' through SMTP, or 'logged' when no SMTP server is configured. */
  sendInvitation(mail: InvitationMail): Promise<MailDelivery>
  sendAccountMail(mail: AccountMail): Promise<MailDelivery>
}

/**
 * Invitations and account links go out through SMTP when SMTP_URL is set
 * (smtp:// or smtps://, credentials in the URL, as nodemailer reads it).
 * Without it, the link is written to the server log, so a self-hosted install
 * with no mail server can still invite, confirm addresses and reset
 * passwords: whoever runs fl0 passes the link on.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; logger: ApiLogger }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined
  /** Sends a mail holding a link, or, with no SMTP server, logs the link (with its kind, so the log tells an invitation from a reset). */
  async function deliver(to: string, kind: AccountMailKind | 'invitation', link: string, mail: () => { subject: string; text: string }, extra: object = {}): Promise<MailDelivery> {
    if (!transport) {
      opts.logger.info({ email: to, kind, link, ...extra }, `${kind === 'invitation' ? 'invitation' : 'e-mail'} link (SMTP_URL is not set, so no e-mail was sent)`)
      return 'logged'
    }
    await transport.sendMail({ from: opts.from, to, ...mail() })
    return 'sent'
  }
  return {
    delivery: transport ? 'sent' : 'logged',
    sendAccountMail: (mail) => deliver(mail.to, mail.kind, mail.link, () => accountMailText(mail)),
    sendInvitation: (mail) =>
      deliver(mail.to, 'invitation', mail.link, () => ({ subject: `${mail.invitedBy} invited you to ${mail.organization} on fl0`, text: invitationText(mail) }), {
        organization: mail.organization,
      }),
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

export function accountMailText(mail: AccountMail): { subject: string; text: string } {
  const until = `The link works until ${mail.expiresAt.toUTCString()}.`
  switch (mail.kind) {
    case 'verify-email':
      return {
        subject: 'Confirm your email address for fl0',
        text: [`Confirm your email address and sign in to fl0: ${mail.link}`, '', until, '', 'If you did not create an account on fl0, ignore this e-mail.'].join('\n'),
      }
    case 'reset-password':
      return {
        subject: 'Reset your fl0 password',
        text: [`Choose a new password for fl0: ${mail.link}`, '', until, '', 'If you did not ask for this, ignore this e-mail: your password stays as it is.'].join('\n'),
      }
    case 'account-exists':
      return {
        subject: 'You already have an fl0 account',
        text: [
          'Someone, maybe you, tried to create an fl0 account with this address, which already has one.',
          '',
          `Sign in with your password, or, if you have forgotten it, choose a new one: ${mail.link}`,
          '',
          until,
        ].join('\n'),
      }
  }
}
