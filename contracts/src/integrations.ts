/**
 * Integrations (spec part 1 §2, §7, §8): the screen authenticates the signed-in
 * user with Paragon's Connect SDK (a third-party script) using a token fl0
 * signs, then lists the integrations the SDK offers.
 *
 * Paragon's user token is a JWT signed RS256 with the project's signing key
 * (Paragon dashboard, Settings > SDK Setup): sub = the user's id in fl0,
 * aud = `useparagon.com/{projectId}`, iat and exp.
 */

/** Paragon's hosted SDK: it defines window.paragon. PARAGON_SDK_URL replaces it (an on-premise Paragon, a pinned version). */
export const PARAGON_SDK_URL_DEFAULT = 'https://cdn.useparagon.com/latest/sdk/index.js'

/** One hour, as Paragon's own examples sign them; the screen asks for a new token each time it opens. */
export const PARAGON_TOKEN_TTL_SECONDS = 60 * 60

export const paragonAudience = (projectId: string) => `useparagon.com/${projectId}`

/** GET /api-v2/orgs/{organization}/integrations/paragon-user */
export interface ParagonUser {
  /** The signed user token for paragon.authenticate(projectId, token). */
  token: string
  projectId: string
  /** Where the screen loads the SDK from. */
  sdkUrl: string
  /** When the token expires (ISO 8601). */
  expiresAt: string
}

export const INTEGRATIONS_TEXT = {
  heading: 'Integrations',
  unauthenticated: 'User is unauthenticated',
  /** The answer of paragon-user when fl0 has no Paragon project (404): it names what to set. */
  notConfigured:
    'Integrations are not configured on this fl0 server: set PARAGON_PROJECT_ID and PARAGON_SIGNING_KEY (or PARAGON_SIGNING_KEY_FILE), then restart fl0.',
  /** The 'disable-3rd-party' toggle is on: the SDK, a third-party script, is not loaded. */
  thirdPartyDisabled: 'Integrations need the Paragon SDK, a third-party script, and third-party scripts are turned off by the toggle',
  thirdPartyToggle: 'fl0-disable-3rd-party',
  sdkLoadFailed: (url: string) => `The integration SDK could not be loaded from ${url}`,
  noIntegrations: 'No integrations are enabled in the Paragon project yet',
} as const
