import { z } from 'zod'

/** Stand-in until contracts/src/team.ts lands: part 3 §5's invitation rules. */
export const inviteSchema = z.object({
  invitee_email: z
    .string()
    .trim()
    .min(1, 'Email must be provided')
    .max(300, 'Email must be at most 300 characters')
    .email('Email must be a valid email address'),
})
