import { isFn, isObj, type Obj } from './util.ts'

/**
 * analytics.js's argument shapes, read positionally as analytics.js reads
 * them, so that calls written for Segment work as they are:
 *
 *   track(event, properties?, options?, callback?)
 *   page(category?, name?, properties?, options?, callback?), and screen
 *   identify(userId?, traits?, options?, callback?), and group
 *   alias(userId, previousId?, options?, callback?)
 *
 * Up to `names` leading values that are not objects (strings, numbers, null
 * holding a place) come first; an object ends them early, as in
 * identify({ plan }) or page({ path }). Then the properties or traits, the
 * options, and the callback wherever it is. Pure: tested in args.test.ts.
 */
export type Callback = ((...a: any[]) => unknown) | undefined

const obj = (v: unknown): Obj => (isObj(v) ? v : {})

export function resolve(a: any[], names: number): [names: any[], properties: Obj, options: Obj, callback: Callback] {
  const rest = a.filter((v) => !isFn(v))
  const leading = []
  while (leading.length < names && rest.length && !isObj(rest[0])) leading.push(rest.shift())
  return [leading, obj(rest[0]), obj(rest[1]), a.find(isFn)]
}

/** Ids may be numbers (many back ends' are); they travel as strings. null and undefined stay absent. */
export const idString = (v: unknown): string | undefined => (v == null ? undefined : String(v))

/** page and screen: two names are category and name; a lone one is the name. */
export const pageNames = ([first, second]: any[]): [category?: string | null, name?: string | null] => (second == null ? [, first] : [first, second])
