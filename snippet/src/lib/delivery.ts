import { retryDelay, settled } from './retry.ts'
import { getItem, setItem } from './storage.ts'
import { iso, safe, type Obj } from './util.ts'

/**
 * Sends events to fl0's /v1/batch and does not lose them.
 *
 * Every event is written to localStorage (QUEUE) when it is made and removed
 * only when the server has settled it, so events made offline, or in flight
 * when a tab closes, survive to the next page. Tabs share the stored queue
 * and a tab adopts whatever it finds there at start-up, so a stored event may
 * be sent twice (by two tabs, or after a beacon that did arrive). That is
 * harmless: each event keeps its messageId, and fl0's event writer stores a
 * message id once.
 */

const QUEUE = 'fl0_queue'
/** Beyond this many stored events the oldest go: a site down for days must not fill the visitor's storage. */
const MAX_STORED = 300
/** Events per request: far below the ingest's 500 KB and sendBeacon's 64 KB. */
const PER_REQUEST = 20

const stored = (): Obj[] => getItem(QUEUE) || []
const store = (events: Obj[]) => setItem(QUEUE, events.slice(-MAX_STORED))

/**
 * `url` is the batch endpoint's; a batch goes as soon as `flushAt` events
 * wait, else `flushInterval` ms after the first one.
 */
export function startDelivery(url: string, writeKey: string, flushAt: number, flushInterval: number) {
  /** This tab's events not yet settled, oldest first. */
  let queue: Obj[] = stored()
  let sending = 0
  let failures = 0
  let timer: any = 0

  /**
   * A string body goes out as text/plain, a "simple" request: no CORS
   * preflight, one request per batch. No keepalive: if the page goes while a
   * request is in flight, the beacon below sends its events too.
   */
  const body = (batch: Obj[]) => JSON.stringify({ batch, sentAt: iso(), writeKey })
  const schedule = (ms: number) => {
    timer ||= setTimeout(flush, ms)
  }
  const forget = (batch: Obj[]) => {
    const without = (events: Obj[]) => events.filter((e) => !batch.some((b) => b.messageId == e.messageId))
    queue = without(queue)
    store(without(stored()))
  }

  const flush = safe(function flush() {
    timer = clearTimeout(timer)
    // Offline, a send fails at once; the 'online' listener resumes.
    if (sending || !queue.length || !navigator.onLine) return
    sending = 1
    const batch = queue.slice(0, PER_REQUEST)
    const done = safe((status: number, retryAfter?: string | null) => {
      sending = 0
      clearTimeout(timer)
      timer = setTimeout(
        flush,
        settled(status)
          ? (failures = 0, forget(batch), queue.length < flushAt ? flushInterval : 0)
          : retryDelay(++failures, retryAfter, Date.now(), Math.random()),
      )
    })
    fetch(url, { method: 'POST', body: body(batch) }).then(
      (r) => done(r.status, r.headers.get('Retry-After')),
      () => done(0),
    )
  })

  /**
   * The page may be closing: hand what waits to sendBeacon, which outlives
   * the page. Not while offline or while the server is failing: then the
   * events stay stored for the next page.
   */
  const beacon = safe(function beacon() {
    if (!navigator.onLine || failures) return
    for (let batch; (batch = queue.slice(0, PER_REQUEST)).length && navigator.sendBeacon(url, body(batch)); ) forget(batch)
  })

  addEventListener('pagehide', beacon)
  addEventListener('visibilitychange', () => document.hidden && beacon())
  addEventListener(
    'online',
    safe(() => {
      failures = 0
      flush()
    }),
  )

  return {
    /** Queues an event already reduced to plain JSON. */
    add(event: Obj) {
      queue.push(event)
      store(stored().concat(event))
      // While failing, the backoff timer alone decides when to try again.
      queue.length < flushAt || failures ? schedule(flushInterval) : flush()
    },
    flush,
  }
}
