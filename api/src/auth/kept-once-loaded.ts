/**
 * A value loaded on first use and kept once loaded. A load that fails is
 * forgotten, so that the next call loads again: a database or an issuer away
 * for a moment fails the calls of that moment, not every call until a restart.
 */
export function keptOnceLoaded<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined
      throw error
    })
    return value
  }
}
