import { here, safe } from './util.ts'

/**
 * Page views for single-page apps: calls `onNavigate(previousUrl)` after
 * pushState, replaceState and popstate when the path or query changed. A
 * hash-only change is not a new page (in-page anchors fire popstate too).
 * The check waits a tick: routers set document.title after changing the URL.
 */
export function watchHistory(onNavigate: (previousUrl: string) => void): void {
  let last = here()
  const check = safe(() => {
    const previous = last
    if ((last = here()) != previous) onNavigate(previous)
  })
  const later = () => setTimeout(check)
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name]
    history[name] = function (this: History, ...a: Parameters<History['pushState']>) {
      later()
      return original.apply(this, a)
    }
  }
  addEventListener('popstate', later)
}
