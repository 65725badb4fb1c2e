import { z } from 'zod'

/**
 * Stand-ins until contracts/src/orgs.ts lands: the two organisation-name rule
 * sets of part 1 §5, with their exact messages.
 */
export const orgNameFormSchema = z.object({
  name: z
    .string()
    .min(1, 'Organization name must be provided')
    .max(39, 'Organization name must have less than 40 characters')
    .regex(/^[a-zA-Z]/, 'Organization name must start with a-z (lowercase), or A-Z (uppercase)')
    .regex(/[a-zA-Z0-9]$/, 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9')
    .regex(/^[a-zA-Z0-9-]*$/, 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -'),
})

export const orgNameModalSchema = z.object({
  name: z
    .string()
    .min(1, 'Organization name must be provided')
    .max(300, 'Organization name must be at most 300 characters')
    .regex(/^[a-zA-Z0-9 -]*$/, 'Organization name must only contain letters, numbers, hyphens and spaces'),
})
