import { z } from 'zod'

export const EMAIL_MAX = 300

/**
 * An e-mail address as the invite form checks it (part 3 §5), first rule broken
 * wins: required, at most 300 characters, shaped like an address. Trimmed first,
 * because a pasted address often carries a space; lowercased, because fl0 treats
 * addresses case-insensitively (one account per address).
 */
export const emailSchema = z
  .string({ error: 'Email must be provided' })
  .trim()
  .min(1, 'Email must be provided')
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .regex(z.regexes.email, 'Email must be a valid email address')
  .transform((s) => s.toLowerCase())
