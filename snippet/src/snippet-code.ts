import { readFileSync } from 'node:fs'

/**
 * The loader as a site pastes it: dist/loader.min.js (built from loader.ts)
 * with the source's write key and load options filled in.
 */
export interface LoadOptions {
  /**
   * Where fl0 answers: events go to `${apiHost}/v1/batch`, and fl0.js loads
   * from `${apiHost}/fl0.js` unless cdnHost is given. A URL, or a path on the
   * site's own domain (for example '/fl0') behind a first-party proxy.
   */
  apiHost: string
  /** Where fl0.js is loaded from, when not from apiHost. */
  cdnHost?: string
  /** Send a batch as soon as this many events wait (default 10). */
  flushAt?: number
  /** Otherwise this many milliseconds after the first waiting event (default 2000). */
  flushInterval?: number
  /** false turns off page views on history navigation (pushState, replaceState, popstate). */
  history?: boolean
}

const LOADER_FILE = new URL('../dist/loader.min.js', import.meta.url)
let minified: string | undefined

/**
 * A JavaScript literal safe inside an HTML <script> element: no "</script>"
 * or "<!--" can end or alter it.
 */
const literal = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** The loader's JavaScript for one source. */
export function loaderCode(writeKey: string, options: LoadOptions): string {
  minified ??= readFileSync(LOADER_FILE, 'utf8').trim()
  return minified.replace('"__FL0_WRITE_KEY__"', () => literal(writeKey)).replace('"__FL0_OPTIONS__"', () => literal(options))
}

/** The HTML a site pastes into its <head>. */
export function snippetCode(writeKey: string, options: LoadOptions): string {
  return `<script>\n${loaderCode(writeKey, options)}\n</script>`
}
