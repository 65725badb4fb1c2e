import { createContext, runInContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { loaderCode, snippetCode } from './snippet-code.ts'

/**
 * Runs the loader in a bare context with just enough of a document to see
 * what it does: the stub it leaves and the script element it inserts.
 */
function runLoader(code: string) {
  const inserted: Array<{ src: string; async: boolean }> = []
  const errors: unknown[] = []
  const first = { parentNode: { insertBefore: (el: any) => inserted.push(el) } }
  const document = { title: 'Pricing', referrer: 'https://ref.example/', createElement: () => ({}), getElementsByTagName: () => [first] }
  const location = { pathname: '/pricing', search: '?a=1', href: 'https://shop.example/pricing?a=1#top' }
  const window: any = createContext({ document, location, console: { error: (m: unknown) => errors.push(m) } })
  window.window = window
  runInContext(code, window)
  return { analytics: window.analytics, inserted, errors }
}

describe('loaderCode', () => {
  it('fills in the write key and options and loads fl0.js from apiHost', () => {
    const { analytics, inserted } = runLoader(loaderCode('wk_123', { apiHost: 'https://fl0.example.com', flushAt: 5 }))
    expect(analytics._writeKey).toBe('wk_123')
    expect(analytics._loadOptions).toEqual({ apiHost: 'https://fl0.example.com', flushAt: 5 })
    expect(inserted).toEqual([{ async: true, src: 'https://fl0.example.com/fl0.js' }])
  })

  it('loads fl0.js from cdnHost when given, for a first-party path', () => {
    const { inserted } = runLoader(loaderCode('k', { apiHost: '/fl0', cdnHost: 'https://cdn.example' }))
    expect(inserted[0].src).toBe('https://cdn.example/fl0.js')
  })

  it('queues a page call with the page as it is now, and later calls in order', () => {
    const { analytics } = runLoader(loaderCode('k', { apiHost: 'https://fl0.example.com' }) + ';analytics.track("Clicked", {n: 1}); analytics.reset()')
    expect(analytics.length).toBe(3)
    const [page, track, reset] = analytics
    expect(page[0]).toBe('page')
    expect(page[1]).toMatchObject({
      __t: 'bpc',
      page: { path: '/pricing', referrer: 'https://ref.example/', search: '?a=1', title: 'Pricing', url: 'https://shop.example/pricing?a=1' },
    })
    expect(Date.parse(page[1].ts)).not.toBeNaN()
    expect(track.slice(0, 3)).toEqual(['track', 'Clicked', { n: 1 }])
    expect(track[3].__t).toBe('bpc')
    // Calls that make no event carry no page context.
    expect(reset).toEqual(['reset'])
  })

  it('does not run twice when pasted twice', () => {
    const code = loaderCode('k', { apiHost: 'https://fl0.example.com' })
    const { analytics, inserted, errors } = runLoader(code + ';' + code)
    expect(analytics.length).toBe(1)
    expect(inserted.length).toBe(1)
    expect(errors).toEqual(['fl0 snippet included twice.'])
  })

  it('cannot be broken out of by a hostile write key', () => {
    const code = loaderCode('</script><script>alert(1)</script>', { apiHost: 'https://fl0.example.com' })
    expect(code).not.toContain('</script>')
    expect(runLoader(code).analytics._writeKey).toBe('</script><script>alert(1)</script>')
  })
})

describe('snippetCode', () => {
  it('wraps the loader in a script element', () => {
    const html = snippetCode('k', { apiHost: 'https://fl0.example.com' })
    expect(html.startsWith('<script>\n!function(')).toBe(true)
    expect(html.endsWith('\n</script>')).toBe(true)
  })
})
