/**
 * The loader: the few lines a site pastes into its <head>, here readable; the
 * build minifies it to dist/loader.min.js, and snippetCode() (index.ts) fills
 * in the write key and options.
 *
 * Segment's stub pattern: `window.analytics` starts as an array; each method
 * pushes [method, ...args] onto it, with the page context at the time of the
 * call; a guard stops a second inclusion; load() injects fl0.js, which replays
 * the array. ES5 on purpose: it runs on any page, before anything else.
 */
;(function (w: any, d: Document, writeKey: string, options: any) {
  var a = (w.analytics = w.analytics || [])
  if (a.initialized) return
  if (a.invoked) return w.console && console.error && console.error('fl0 snippet included twice.')
  a.invoked = true
  a.methods = [
    'track', 'page', 'screen', 'identify', 'group', 'alias', 'reset', 'ready', 'setAnonymousId',
    'trackSubmit', 'trackClick', 'trackLink', 'trackForm', 'pageview', 'debug', 'once', 'off', 'on',
    'addSourceMiddleware', 'addIntegrationMiddleware', 'addDestinationMiddleware', 'register',
  ]
  a.factory = function (method: string) {
    return function () {
      // A reference to a stub method kept by the site still works after load.
      if (a.initialized) return a[method].apply(a, arguments)
      var args = Array.prototype.slice.call(arguments)
      if (/^(track|page|screen|identify|group|alias)$/.test(method)) {
        // Calls that make events carry the page as it is now.
        args.push({
          __t: 'bpc',
          page: { path: location.pathname, referrer: d.referrer, search: location.search, title: d.title, url: location.href.split('#')[0] },
          ts: new Date().toISOString(),
        })
      }
      args.unshift(method)
      a.push(args)
      return a
    }
  }
  for (var i = 0; i < a.methods.length; i++) a[a.methods[i]] = a.factory(a.methods[i])
  a.load = function (key: string, opts: any) {
    opts = opts || {}
    var s = d.createElement('script')
    s.async = true
    s.src = (opts.cdnHost || opts.apiHost) + '/fl0.js'
    var first = d.getElementsByTagName('script')[0]
    first.parentNode!.insertBefore(s, first)
    a._writeKey = key
    a._loadOptions = opts
  }
  a.SNIPPET_VERSION = '1'
  a.load(writeKey, options)
  a.page()
})(window, document, '__FL0_WRITE_KEY__', '__FL0_OPTIONS__')
