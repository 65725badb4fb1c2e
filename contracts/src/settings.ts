import { z } from 'zod'

/**
 * Organisation settings (part 3): timezone and company paths. The timezone is the
 * one every date grouping of the organisation uses.
 *
 * Feature flag: the specification shows these two settings only "when a feature
 * flag is on". Toggles are cookies named with the product prefix and a hyphen,
 * set to 'true' (part 1 §6), so this one is the cookie `fl0-org-settings=true`.
 * The flag is about exposure on screen: the server always serves and saves the
 * settings, so turning the flag on needs no server change.
 */
export const FEATURE_COOKIE_PREFIX = 'fl0-'
export const ORG_SETTINGS_FLAG = 'org-settings'

export const DEFAULT_TIMEZONE = 'UTC'
export const COMPANY_PATH_MAX = 300
export const COMPANY_PATHS_MAX = 100

export const SETTINGS_SAVE_FAILED = 'An error has occurred saving organization settings'

/**
 * The IANA time zones this runtime knows, plus 'UTC' (Intl lists only canonical
 * zones, and 'UTC' is not among them). The server's list is the one that counts:
 * GET .../settings sends it as `timezones`, and screens offer that.
 */
export function timezoneList(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return [...new Set([DEFAULT_TIMEZONE, ...zones])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)))
}

/** Company paths: each trimmed; blank ones dropped, not refused (part 3 §5). */
export const companyPathsSchema = z
  .array(z.string({ error: 'Company path must be text' }).trim().max(COMPANY_PATH_MAX, `Company path must be at most ${COMPANY_PATH_MAX} characters`), {
    error: 'Company paths must be a list',
  })
  .transform((paths) => paths.filter((p) => p.length > 0))
  .pipe(z.array(z.string()).max(COMPANY_PATHS_MAX, `At most ${COMPANY_PATHS_MAX} company paths`))

/** POST .../settings/save-settings, checked against a given list of zones (the dashboard passes the server's). */
export function makeSaveSettingsSchema(timezones: readonly string[]) {
  const known = new Set(timezones)
  return z.object({
    timezone: z
      .string({ error: 'Timezone must be provided' })
      .refine((tz) => known.has(tz), 'Timezone must be one of the listed time zones'),
    companyPaths: companyPathsSchema.default([]),
  })
}

/** The server's schema: this runtime's zones. */
export const saveSettingsSchema = makeSaveSettingsSchema(timezoneList())
export type SaveSettings = z.output<typeof saveSettingsSchema>

/** GET .../settings and the answer of save-settings. */
export interface OrgSettings {
  timezone: string
  timezones: string[]
  companyPaths: string[]
}
