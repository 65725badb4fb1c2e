import { z } from 'zod'

/**
 * Organisation names: two rule sets, each on its own surface (part 1 §5). The
 * specification keeps both because the two creation surfaces disagree:
 * A on the 'Create your Organization' form (variant 'form'),
 * B on the create modal (variant 'modal').
 * The server applies the set the request names, so each form's errors read as
 * its own messages, beside its field.
 */
export const ORG_NAME_A_MAX = 39
export const ORG_NAME_B_MAX = 300
/** Version B's input box caps typing at 99 characters; the schema allows 300. */
export const ORG_NAME_B_INPUT_MAX = 99

export const ORG_NAME_MESSAGES = {
  form: {
    required: 'Organization name must be provided',
    max: 'Organization name must have less than 40 characters',
    start: 'Organization name must start with a-z (lowercase), or A-Z (uppercase)',
    end: 'Organization name must end with a-z (lowercase), A-Z (uppercase), or 0-9',
    chars: 'Organization name can only contain a-z (lowercase), A-Z (uppercase), 0-9 and -',
  },
  modal: {
    required: 'Organization name must be provided',
    max: 'Organization name must be at most 300 characters',
    chars: 'Organization name must only contain letters, numbers, hyphens and spaces',
  },
} as const

const A = ORG_NAME_MESSAGES.form
/** Version A. Every rule is checked; toFieldErrors reports the first one broken, in this order. */
export const orgNameFormSchema = z
  .string({ error: A.required })
  .min(1, A.required)
  .max(ORG_NAME_A_MAX, A.max)
  .regex(/^[A-Za-z]/, A.start)
  .regex(/[A-Za-z0-9]$/, A.end)
  .regex(/^[A-Za-z0-9-]*$/, A.chars)

const B = ORG_NAME_MESSAGES.modal
/**
 * Version B. "Letters" and "numbers" are read as any script's (\p{L}, \p{N}), as
 * the message does not say a-z; url codes are made ASCII from them on the server.
 * A name of spaces only counts as not provided, and the name is stored trimmed.
 */
export const orgNameModalSchema = z
  .string({ error: B.required })
  .min(1, B.required)
  .max(ORG_NAME_B_MAX, B.max)
  .regex(/^[\p{L}\p{N} -]*$/u, B.chars)
  .refine((s) => s.trim().length > 0, B.required)
  .transform((s) => s.trim())

export const createOrgFormSchema = z.object({ name: orgNameFormSchema })
export const createOrgModalSchema = z.object({ name: orgNameModalSchema })

export const ORG_NAME_VARIANTS = ['form', 'modal'] as const
export type OrgNameVariant = (typeof ORG_NAME_VARIANTS)[number]

/**
 * POST /api/orgs body. `variant` names the surface; a body without one (a client
 * written to the specification's bare `{ name }`) gets the stricter set A.
 */
export const createOrgSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as { variant?: unknown }).variant === undefined ? { ...v, variant: 'form' } : v),
  z.discriminatedUnion(
    'variant',
    [
      z.object({ variant: z.literal('form'), name: orgNameFormSchema }),
      z.object({ variant: z.literal('modal'), name: orgNameModalSchema }),
    ],
    { error: "variant must be 'form' or 'modal'" },
  ),
)

export type CreateOrg = z.output<typeof createOrgSchema>

export interface Organisation {
  id: string
  name: string
  url_code: string
}

/** Answer of POST /api/orgs. */
export interface CreateOrgResponse {
  url_code: string
}
