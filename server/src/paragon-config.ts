import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { parseParagonSigningKey } from '@fl0/api'

/**
 * Paragon, for the integrations screen (issue 6): the project's id and its
 * signing key, from Paragon's dashboard (Settings > SDK Setup). The key comes
 * as PEM in PARAGON_SIGNING_KEY (newlines may be written "\n") or in a file
 * named by PARAGON_SIGNING_KEY_FILE (a mounted secret). All or nothing: a
 * project id without a key, or a key without a project, is refused at start.
 * PARAGON_SDK_URL replaces Paragon's hosted SDK (an on-premise Paragon, a
 * pinned version).
 */
export const paragonEnv = {
  PARAGON_PROJECT_ID: z.string().trim().min(1).optional(),
  PARAGON_SIGNING_KEY: z.string().min(1).optional(),
  PARAGON_SIGNING_KEY_FILE: z.string().min(1).optional(),
  PARAGON_SDK_URL: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL')
    .optional(),
}

type ParagonEnv = z.output<z.ZodObject<typeof paragonEnv>>

/** What the api takes (ApiOptions.paragon). */
export interface ParagonConfig {
  projectId: string
  /** PEM text. */
  signingKey: string
  sdkUrl?: string
}

/** Problems as [variable, message], for the one "Invalid configuration" error. */
export function readParagonConfig(env: ParagonEnv): { paragon?: ParagonConfig; problems: Array<[string, string]> } {
  const { PARAGON_PROJECT_ID: projectId, PARAGON_SIGNING_KEY: inline, PARAGON_SIGNING_KEY_FILE: file, PARAGON_SDK_URL: sdkUrl } = env
  if (inline && file) return { problems: [['PARAGON_SIGNING_KEY', 'set PARAGON_SIGNING_KEY or PARAGON_SIGNING_KEY_FILE, not both']] }
  if (!projectId && !inline && !file) return { problems: [] }
  if (!projectId) return { problems: [['PARAGON_PROJECT_ID', 'must be set with the Paragon signing key']] }
  if (!inline && !file) return { problems: [['PARAGON_SIGNING_KEY', 'must be set (or PARAGON_SIGNING_KEY_FILE) with PARAGON_PROJECT_ID']] }

  let pem: string
  const name = file ? 'PARAGON_SIGNING_KEY_FILE' : 'PARAGON_SIGNING_KEY'
  try {
    pem = file ? readFileSync(file, 'utf8') : inline!
  } catch (err) {
    return { problems: [[name, `cannot read ${file}: ${(err as Error).message}`]] }
  }
  // Read here, so that a wrong key stops fl0 at start rather than at a user's first visit.
  try {
    parseParagonSigningKey(pem)
  } catch (err) {
    return { problems: [[name, (err as Error).message]] }
  }
  return { paragon: { projectId, signingKey: pem, sdkUrl }, problems: [] }
}
