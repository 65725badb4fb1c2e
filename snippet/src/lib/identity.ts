import { getCookie, setCookie } from './cookies.ts'
import { getObj, setItem } from './storage.ts'
import { assign, uuid, type Obj } from './util.ts'

/**
 * Who the visitor is, kept where analytics.js keeps it so that a site moving
 * from Segment keeps its visitors: ids in first-party cookies, traits in
 * localStorage. Cookies are read on every call, so a tab sees what another
 * tab of the same site set.
 *
 * The puid is fl0's own visitor id for identification (DESIGN.md, Visitor
 * identification): an identity partner's callback links it to a person.
 * Unlike the anonymous id it survives reset(), which marks a log-out, not a
 * new browser.
 */
export const ANONYMOUS_ID = 'ajs_anonymous_id'
export const USER_ID = 'ajs_user_id'
export const GROUP_ID = 'ajs_group_id'
export const PUID = 'fl0_puid'
export const USER_TRAITS = 'ajs_user_traits'
export const GROUP_TRAITS = 'ajs_group_properties'

/** Values for browsers that refuse cookies: they last as long as the page. */
const memory: Obj = {}

/**
 * Reads an id, or sets it when `value` is given (null deletes it). Each read
 * writes the cookie again, as analytics.js does, so that it expires a year
 * after the visitor's last event rather than the first.
 */
export function id(name: string, value?: string | null): string | undefined {
  const v = value !== undefined ? value : getCookie(name) || memory[name]
  setCookie(name, (memory[name] = v))
  return v || undefined
}

/** An id that always exists: made on first use. */
const lasting = (name: string) => id(name) || id(name, uuid())!
export const anonymousId = () => lasting(ANONYMOUS_ID)
export const puid = () => lasting(PUID)

/**
 * Sets a user or group id and merges traits, as analytics.js does: traits
 * accumulate while the id stays the same (or was unknown) and start afresh
 * for a different id. Returns the traits to send.
 */
export function remember(idName: string, traitsName: string, newId: string | undefined, traits: Obj): Obj {
  const current = id(idName)
  const merged = assign(newId && current && newId != current ? {} : getObj(traitsName), traits)
  if (newId) id(idName, newId)
  setItem(traitsName, merged)
  return merged
}

/** analytics.js's reset(): forget the user and group; the next call gets a new anonymous id. */
export function forget(): void {
  for (const name of [ANONYMOUS_ID, USER_ID, GROUP_ID]) id(name, null)
  setItem(USER_TRAITS, null)
  setItem(GROUP_TRAITS, null)
}
