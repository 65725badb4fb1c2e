/** Small helpers shared by the library's modules. Everything here is bundled into fl0.js. */
export type Obj = Record<string, any>

export const isObj = (v: unknown): v is Obj => !!v && typeof v == 'object' && !Array.isArray(v)
export const isFn = (v: unknown): v is (...a: any[]) => any => typeof v == 'function'
export const assign: <T extends Obj>(target: T, ...sources: any[]) => T = Object.assign
/** An ISO-8601 time: now, or of a time the caller gave. */
export const iso = (time?: string | number | Date): string => new Date(time || Date.now()).toISOString()
/** The page's URL without its hash, as analytics.js reports it. */
export const here = () => location.href.split('#')[0]

/**
 * A random v4 UUID. crypto.randomUUID needs a secure context and many sites
 * still serve http pages, so this takes getRandomValues, which works anywhere.
 */
export const uuid = (): string =>
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c: any) =>
    (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16),
  )

/**
 * Wraps a callback that runs on our own timers or listeners, or a host
 * callback, so that nothing it throws ever reaches the host page.
 */
export const safe =
  <A extends any[]>(fn: (...a: A) => unknown) =>
  (...a: A): void => {
    try {
      fn(...a)
    } catch (e) {}
  }
