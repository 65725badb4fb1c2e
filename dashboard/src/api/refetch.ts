/**
 * Refetch by name (part 1 §4): a screen that changed data asks every mounted
 * fetch of that name to load again ("connections" after a source is saved).
 */
const listeners = new Map<string, Set<() => void>>()

export function onRefetch(name: string, listener: () => void): () => void {
  let set = listeners.get(name)
  if (!set) listeners.set(name, (set = new Set()))
  set.add(listener)
  return () => {
    set!.delete(listener)
    if (set!.size === 0) listeners.delete(name)
  }
}

export function refetch(name: string): void {
  for (const listener of [...(listeners.get(name) ?? [])]) listener()
}
