import type { ViewSource } from './types.ts'

/** A consumer's view of a message (ConsumeOptions.view); one that throws is taken as undefined, so no message stops its partition here. */
export function makeView<V>(view: ((message: ViewSource) => V) | undefined, source: ViewSource): V | undefined {
  if (!view) return undefined
  try {
    return view(source)
  } catch {
    return undefined
  }
}
