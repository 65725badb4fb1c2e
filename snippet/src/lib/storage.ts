import { isObj } from './util.ts'

/**
 * localStorage as JSON, forgiving: access throws in sandboxed iframes and some
 * private modes, and a full quota throws on write. Then fl0 keeps working
 * without persistence rather than failing.
 */
export function getItem(key: string): any {
  try {
    return JSON.parse(localStorage.getItem(key)!)
  } catch (e) {}
}

/** Storing null stands for removing: getItem reads it back as null, which callers take as absent. */
export function setItem(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value))
  } catch (e) {}
}

/** A stored object (traits), or {} when absent or unreadable. */
export const getObj = (key: string) => {
  const v = getItem(key)
  return isObj(v) ? v : {}
}
