import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { Analytics } from '@segment/analytics-node'
import type { DemoMessage, SegmentMessage, SourceKind } from './generator/index.ts'

/**
 * Sends demo messages to fl0's ingest with Segment's own Node library, one
 * client per source (each with its write key), the way a customer's backend
 * would. analytics-node queues without limit, so we hold back once `maxInFlight`
 * calls await their answer: memory stays flat at any size.
 *
 * Every call is accounted for: the library reports failed deliveries to the
 * callback, and a 200 whose body lists rejected batch items (fl0's answer to a
 * batch with bad items) is counted through a fetch wrapper, because the library
 * treats any 2xx as success.
 */
export interface SendOptions {
  /** fl0's base URL, e.g. http://127.0.0.1:8080 */
  url: string
  writeKeys: Record<SourceKind, string>
  /**
   * Calls awaiting an answer before the sender waits; default 5,000 (20 requests
   * of 250). More only adds garbage to collect: at 20,000 one run sent 2,800
   * calls a second against 6,200 at 5,000.
   */
  maxInFlight?: number
  /** Called about every `progressEveryMs` with the counts so far. */
  onProgress?: (progress: SendProgress) => void
  progressEveryMs?: number
}

export interface SendProgress {
  /** Calls handed to the clients. */
  sent: number
  /** Calls the ingest accepted (2xx and not listed as rejected). */
  accepted: number
  /** Calls that failed delivery or were rejected. */
  failed: number
  /** Timestamp of the latest call sent. */
  at: string | undefined
}

export interface SendResult extends SendProgress {
  bySource: Record<SourceKind, number>
  byType: Record<SegmentMessage['type'], number>
  /** First few failure reasons, for the error message. */
  errors: string[]
}

/**
 * Calls per batch request. The ingest takes at most 2,500 items and 500 KB a
 * request. analytics-node 3.1.0 means to close a batch at 480 KB, but its size
 * estimate (encodeURI(json).split(/%..|i/).length) counts escapes and letter i's,
 * not bytes, so only the item count bounds a request. The demo's calls are under
 * 1.9 KB (940 bytes on average, as sent), so 250 keep every request below 500 KB.
 */
export const FLUSH_AT = 250

export async function sendMessages(messages: Iterable<DemoMessage>, options: SendOptions): Promise<SendResult> {
  const maxInFlight = options.maxInFlight ?? 5_000
  const result: SendResult = {
    sent: 0,
    accepted: 0,
    failed: 0,
    at: undefined,
    bySource: { snippet: 0, segment: 0 },
    byType: { track: 0, page: 0, identify: 0, group: 0 },
    errors: [],
  }
  let rejectedInBodies = 0
  const noteError = (reason: string) => {
    if (result.errors.length < 5) result.errors.push(reason)
  }

  const fetchCounting = async (url: string, init: RequestInit) => {
    const response = await fetch(url, init)
    const text = await response.text()
    if (!response.ok) noteError(`HTTP ${response.status}: ${text.slice(0, 500)}`)
    else if (text.includes('"rejected"')) {
      const body = JSON.parse(text) as { rejected?: Array<{ errors?: unknown }> }
      rejectedInBodies += body.rejected?.length ?? 0
      noteError(`batch items rejected: ${JSON.stringify(body.rejected?.slice(0, 2))}`)
    }
    return { status: response.status, statusText: response.statusText, headers: response.headers, text: async () => text }
  }

  const clients = {} as Record<SourceKind, Analytics>
  for (const source of ['snippet', 'segment'] as const) {
    const client = new Analytics({
      writeKey: options.writeKeys[source],
      host: options.url,
      path: '/v1/batch',
      flushAt: FLUSH_AT,
      flushInterval: 250,
      maxRetries: 5,
      httpRequestTimeout: 60_000,
      httpClient: fetchCounting as never,
    })
    client.on('error', (err) => noteError(String((err as { reason?: unknown }).reason ?? err)))
    clients[source] = client
  }

  let inFlight = 0
  let resume: (() => void) | undefined
  const answered = (err: unknown) => {
    inFlight--
    if (err) {
      result.failed++
      noteError(String((err as Error)?.message ?? err))
    } else result.accepted++
    if (resume && inFlight <= maxInFlight / 2) {
      resume()
      resume = undefined
    }
  }

  let lastProgress = Date.now()
  const every = options.progressEveryMs ?? 2_000
  try {
    for (const { source, message } of messages) {
      if (inFlight >= maxInFlight) await new Promise<void>((r) => (resume = r))
      else if (result.sent % 2_000 === 0) await yieldToEventLoop() // let responses (and an in-process server) run
      inFlight++
      try {
        dispatch(clients[source], message, answered)
      } catch (err) {
        answered(err) // the library validates synchronously and throws before queueing
      }
      result.sent++
      result.bySource[source]++
      result.byType[message.type]++
      result.at = message.timestamp
      if (options.onProgress && Date.now() - lastProgress >= every) {
        lastProgress = Date.now()
        options.onProgress({ sent: result.sent, accepted: result.accepted - rejectedInBodies, failed: result.failed + rejectedInBodies, at: result.at })
      }
    }
  } finally {
    // Also when the messages stop early (an abort): what was handed over is delivered before we return.
    await Promise.all(Object.values(clients).map((c) => c.closeAndFlush({ timeout: 300_000 })))
  }
  if (inFlight > 0) {
    result.failed += inFlight
    noteError(`${inFlight} calls unanswered when the clients closed`)
  }
  result.accepted -= rejectedInBodies
  result.failed += rejectedInBodies
  return result
}

type Callback = (err?: unknown) => void

function dispatch(client: Analytics, m: SegmentMessage, done: Callback): void {
  const ids = { userId: m.userId, anonymousId: m.anonymousId } as { userId: string; anonymousId?: string }
  const common = { ...ids, context: m.context, timestamp: m.timestamp, messageId: m.messageId }
  switch (m.type) {
    case 'track':
      return client.track({ ...common, event: m.event!, properties: m.properties }, done)
    case 'page':
      return client.page({ ...common, name: m.name, category: m.category, properties: m.properties }, done)
    case 'identify':
      return client.identify({ ...common, traits: m.traits }, done)
    case 'group':
      return client.group({ ...common, groupId: m.groupId!, traits: m.traits }, done)
  }
}
