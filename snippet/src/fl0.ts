import { idString, pageNames, resolve } from './lib/args.ts'
import { useWidestDomain } from './lib/cookies.ts'
import { startDelivery } from './lib/delivery.ts'
import { watchHistory } from './lib/history.ts'
import * as who from './lib/identity.ts'
import { assign, here, isFn, iso, safe, uuid, type Obj } from './lib/util.ts'

/**
 * fl0.js, the library the loader (loader.ts) injects. It takes over the
 * loader's `window.analytics` stub in place, replays the calls queued before
 * it arrived, and from then on answers analytics.js's calls itself.
 *
 * Never throws into the host page: each public method, timer and listener is
 * wrapped, and an event that cannot be built (circular properties, say) is
 * dropped rather than breaking the site.
 */
declare const __FL0_VERSION__: string

/** Fields as in context.page. */
interface Page {
  path: string
  referrer: string
  search: string
  title: string
  url: string
}

/**
 * What the loader's stub adds to a queued call: the page at the time of the
 * call, and that time ("buffered page context", Segment's name).
 */
interface Bpc {
  __t: 'bpc'
  page: Page
  ts: string
}

const a: any = ((window as any).analytics ||= [])
if (!a.initialized) {
  try {
    start()
  } catch (e) {}
}

function start() {
  const options: Obj = a._loadOptions || {}
  // Events go to apiHost, else to where this script came from, so that one
  // first-party proxy path serves both.
  const apiHost: string = options.apiHost || (document.currentScript as HTMLScriptElement).src.replace(/\/[^/]*$/, '')
  const delivery = startDelivery(apiHost.replace(/\/$/, '') + '/v1/batch', a._writeKey, options.flushAt || 10, options.flushInterval || 2000)
  useWidestDomain()

  /** document.referrer for the first page; on a single-page app, the page navigated from. */
  let referrer = document.referrer

  /**
   * Makes a public method: it takes the stub's page context off its
   * arguments, never throws, and returns analytics itself unless it answers
   * a value, so that calls chain as with analytics.js.
   */
  const method = (fn: (args: any[], bpc?: Bpc) => unknown) =>
    function (...args: any[]) {
      try {
        const last = args[args.length - 1]
        const result = fn(args, last && last.__t == 'bpc' ? args.pop() : undefined)
        return result === undefined ? a : result
      } catch (e) {
        return a
      }
    }

  /**
   * Makes a method that sends an event: reads analytics.js's arguments (with
   * up to `names` leading names, see args.ts), lets `fields` turn them into
   * the event's own fields (nothing: no event), adds what every event
   * carries, and queues it.
   */
  const event = (type: string, names: number, fields: (names: any[], properties: Obj) => Obj | undefined) =>
    method((args, bpc) => {
      let [leading, properties, opts, callback] = resolve(args, names)
      // alias(userId, previousId?, options?) has no properties: options come first.
      if (type == 'alias') opts = properties
      const own = fields(leading, properties)
      if (!own) return
      const page = bpc ? bpc.page : { path: location.pathname, referrer, search: location.search, title: document.title, url: here() }
      const groupId = who.id(who.GROUP_ID)
      // page and screen (the calls with names and properties): analytics.js
      // repeats the page context in their properties.
      if (names > 1 && own.properties) own.properties = assign({}, page, own.name && { name: own.name }, properties)
      const message = assign(
        {
          type,
          messageId: uuid(),
          timestamp: iso(opts.timestamp || (bpc && bpc.ts)),
          anonymousId: who.anonymousId(),
          userId: who.id(who.USER_ID),
          context: assign(
            {
              library: { name: 'fl0.js', version: __FL0_VERSION__ },
              userAgent: navigator.userAgent,
              locale: navigator.language,
              timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
              page,
              puid: who.puid(),
            },
            groupId && { groupId },
            opts.context,
          ),
        },
        own,
      )
      // A deep copy now: the event is what the call said even if the site
      // later changes the objects it passed, and anything JSON cannot carry
      // fails here, not in the queue.
      delivery.add(JSON.parse(JSON.stringify(message)))
      if (callback) {
        delivery.flush()
        setTimeout(safe(callback), 300)
      }
    })

  const pageFields = (names: any[], properties: Obj) => {
    const [category, name] = pageNames(names)
    return { category, name, properties }
  }
  const user = { id: () => who.id(who.USER_ID) || null, anonymousId: who.anonymousId }
  const api: Obj = {
    track: event('track', 1, ([name], properties) => ({ event: name, properties })),
    page: event('page', 2, pageFields),
    screen: event('screen', 2, pageFields),
    identify: event('identify', 1, ([value], traits) => {
      const userId = idString(value)
      const current = who.id(who.USER_ID)
      // As analytics.js: another known user on this browser is a new visitor too.
      if (userId && current && userId != current) who.id(who.ANONYMOUS_ID, null)
      return { traits: who.remember(who.USER_ID, who.USER_TRAITS, userId, traits) }
    }),
    group: event('group', 1, ([value], traits) => {
      const merged = who.remember(who.GROUP_ID, who.GROUP_TRAITS, idString(value), traits)
      const groupId = who.id(who.GROUP_ID)
      // group() before any group id has nothing to say.
      return groupId ? { groupId, traits: merged } : undefined
    }),
    alias: event('alias', 2, ([userId, previousId]) => ({
      userId: idString(userId),
      previousId: idString(previousId) || who.id(who.USER_ID) || who.anonymousId(),
    })),
    reset: method(who.forget),
    ready: method(([callback]) => {
      if (isFn(callback)) setTimeout(safe(callback))
    }),
    user: method(() => user),
    anonymousId: method(([value]) => (value === undefined ? who.anonymousId() : who.id(who.ANONYMOUS_ID, value))),
  }
  api.setAnonymousId = api.anonymousId
  // The rest of Segment's stub methods (on, debug, trackLink…) are no-ops
  // here, so that a site written for Segment does not break.
  for (const name of a.methods || []) api[name] ||= method(() => {})
  assign(a, api)
  // Only now: the stub's methods call analytics[method] once this is set, so
  // setting it before the real methods are in place would loop.
  a.initialized = true

  // Replay the queue in call order, except that setAnonymousId goes first, as
  // in analytics.js: a site that sets its own anonymous id after the loader's
  // page() still wants that first page view under its id. (sort is stable.)
  const first = (call: any[]) => +(call[0] == 'setAnonymousId')
  for (const [name, ...args] of a.splice(0).sort((x: any[], y: any[]) => first(y) - first(x))) if (isFn(api[name])) api[name](...args)

  if (options.history !== false) {
    watchHistory((previousUrl) => {
      referrer = previousUrl
      api.page()
    })
  }
  delivery.flush()
}
