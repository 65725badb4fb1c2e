import { z } from 'zod'
import { emailSchema } from './email.ts'

/**
 * Sign-in: the built-in provider's sign-up and sign-in forms, the ID token the
 * dashboard posts to /api/sign-in, and the current user (docs/api-session-contract.md).
 * The specification leaves the built-in provider's forms to fl0 (its sign-in is
 * delegated to an identity provider), so these messages are fl0's own, written in
 * the specification's style ('X must be provided').
 */
export const PASSWORD_MIN = 8
/** scrypt's cost grows with input; a cap keeps a huge "password" from being a cheap denial of service. */
export const PASSWORD_MAX = 200
export const USER_NAME_MAX = 100

export const SIGN_IN_FAILED = 'An error has occurred signing in.'
export const INVALID_CREDENTIALS = 'Invalid email or password'

const password = z
  .string({ error: 'Password must be provided' })
  .min(1, 'Password must be provided')
  .min(PASSWORD_MIN, `Password must have at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must have at most ${PASSWORD_MAX} characters`)

export const localSignUpSchema = z.object({
  name: z
    .string({ error: 'Name must be provided' })
    .trim()
    .min(1, 'Name must be provided')
    .max(USER_NAME_MAX, `Name must have at most ${USER_NAME_MAX} characters`),
  email: emailSchema,
  password,
})

/** Sign-in only checks presence: the length rules belong to choosing a password, not to typing it. */
export const localSignInSchema = z.object({
  email: z.string({ error: 'Email must be provided' }).trim().min(1, 'Email must be provided').max(300, 'Email must be at most 300 characters'),
  password: z.string({ error: 'Password must be provided' }).min(1, 'Password must be provided').max(PASSWORD_MAX, `Password must have at most ${PASSWORD_MAX} characters`),
})

/** POST /api/sign-in: the ID token from the identity provider (built-in or external). */
export const signInSchema = z.object({
  token: z.string({ error: 'Token must be provided' }).min(1, 'Token must be provided').max(16_384, 'Token is too long'),
})

/** POST /api/auth/local/password-reset: the address to send a reset link to. */
export const passwordResetRequestSchema = z.object({ email: emailSchema })

/** The secret of a link fl0 e-mailed. */
const emailLinkSchema = z.object({
  token: z.string({ error: 'Token must be provided' }).min(1, 'Token must be provided').max(200, 'Token is too long'),
})

/**
 * POST /api/auth/local/verify-email: the confirmation link's secret and the
 * password chosen at sign-up, typed again: the account is made only for the
 * one who signed up, not for whoever the link reaches.
 */
export const verifyEmailSchema = emailLinkSchema.extend({ password: localSignInSchema.shape.password })

/** POST /api/auth/local/password-reset/confirm: the reset link's secret and the new password. */
export const passwordResetSchema = emailLinkSchema.extend({ password })

export type LocalSignUp = z.output<typeof localSignUpSchema>
export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>
export type PasswordReset = z.output<typeof passwordResetSchema>
export type VerifyEmail = z.output<typeof verifyEmailSchema>

/**
 * How fl0 delivers the links it e-mails: 'sent' through SMTP, or 'logged'
 * (no SMTP_URL: the link is in the server's log, and the screen says so).
 */
export type MailDelivery = 'sent' | 'logged'

/**
 * Answer of sign-up and of a reset request (202), the same whether the
 * address has an account or not: the e-mail tells its owner, nobody else.
 */
export interface MailedResponse {
  email: string
  delivery: MailDelivery
}

export const EMAIL_LINK_INVALID = 'This link has expired or has already been used'
export const NOT_THE_SIGN_UP_PASSWORD = 'This is not the password chosen when signing up'
export type LocalSignIn = z.output<typeof localSignInSchema>

/** GET /api/auth/config: which provider the dashboard talks to. */
export interface AuthConfig {
  provider: 'local' | 'oidc'
  issuer?: string
  clientId?: string
}

/** Answer of the built-in provider's sign-in, of following a confirmation link and of a password reset. */
export interface TokenResponse {
  token: string
}

export const ORG_ROLES = ['admin', 'member'] as const
export type OrgRole = (typeof ORG_ROLES)[number]

export interface Preferences {
  isMenuCollapsed: boolean
  defaultOrgUrlCode: string | null
}

export interface UserOrg {
  id: string
  name: string
  url_code: string
  role: OrgRole
}

/** GET /api/users/me; also the `user` of POST /api/sign-in. */
export interface CurrentUser {
  id: string
  name: string
  email: string
  isStaff: boolean
  preferences: Preferences
  orgs: UserOrg[]
}

/** PATCH /api/users/me/preferences: either key, or both. */
export const preferencesPatchSchema = z.strictObject({
  isMenuCollapsed: z.boolean({ error: 'isMenuCollapsed must be true or false' }).optional(),
  defaultOrgUrlCode: z.string({ error: 'defaultOrgUrlCode must be a string or null' }).max(100, 'defaultOrgUrlCode must have at most 100 characters').nullable().optional(),
})

export type PreferencesPatch = z.output<typeof preferencesPatchSchema>

/** PATCH /api-v2/admin/users/{userId} (staff only). */
export const adminUserPatchSchema = z.object({
  isStaff: z.boolean({ error: 'isStaff must be true or false' }),
})
