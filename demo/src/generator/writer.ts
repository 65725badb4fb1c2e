import type { Rng } from './random.ts'
import { SITE_ORIGIN, type Campaign, type PageDef } from './site.ts'
import type { DemoMessage, SegmentMessage, SourceKind, Truth } from './types.ts'

/**
 * Writes one session's messages in time order: keeps the clock, the current
 * page (for context.page and the next page's referrer) and the message ids.
 * Browser calls carry the page, the browser and the visitor ids; backend calls
 * (the Segment source) carry only the user id and the visitor's address, as a
 * server library forwarding the request's IP would.
 */
export interface Visitor {
  anonymousId: string
  puid: string
  userAgent: string
  ip: string
  locale: string
  timezone: string
  screen: { width: number; height: number; density: number }
}

export class SessionWriter {
  readonly messages: DemoMessage[] = []
  userId: string | undefined
  private seq = 0
  private page: Record<string, string> | undefined
  private campaign: Campaign | undefined

  constructor(
    readonly rng: Rng,
    private readonly idPrefix: string,
    public t: number,
    private readonly visitor: Visitor,
    private readonly truth: Truth,
  ) {}

  /** The path of the page in view, if any. */
  get path(): string | undefined {
    return this.page?.path
  }

  /** Moves the clock on by a think time: log-normal around `medianSeconds`. */
  wait(medianSeconds: number, sigma = 0.7): void {
    this.t += Math.max(200, Math.round(this.rng.logNormal(medianSeconds, sigma) * 1000))
  }

  /** A page view; the first one of a session may carry the arrival's referrer and campaign. */
  view(def: PageDef, options: { search?: string; referrer?: string; campaign?: Campaign } = {}): void {
    const search = options.search ?? ''
    const url = `${SITE_ORIGIN}${def.path}${search}`
    const referrer = options.referrer ?? this.page?.url ?? ''
    this.page = { path: def.path, referrer, search, title: def.title, url }
    this.campaign = options.campaign
    this.push('snippet', { type: 'page', name: def.name, category: def.category, properties: { ...this.page } })
  }

  track(source: SourceKind, event: string, properties: Record<string, unknown>): void {
    this.push(source, { type: 'track', event, properties })
  }

  identify(source: SourceKind, traits: Record<string, unknown>): void {
    this.push(source, { type: 'identify', traits })
  }

  group(source: SourceKind, groupId: string, traits: Record<string, unknown>): void {
    this.push(source, { type: 'group', groupId, traits })
  }

  private push(source: SourceKind, call: Omit<SegmentMessage, 'messageId' | 'timestamp' | 'context'>): void {
    const message: SegmentMessage = {
      ...call,
      messageId: `${this.idPrefix}-${this.seq++}`,
      timestamp: new Date(this.t).toISOString(),
      context: source === 'snippet' ? this.browserContext() : { ip: this.visitor.ip },
    }
    if (source === 'snippet') {
      if (this.userId) message.userId = this.userId
      message.anonymousId = this.visitor.anonymousId
    } else {
      message.userId = this.userId
    }
    this.messages.push({ source, message, truth: this.truth })
    // Calls a moment apart (a page and its event) still get distinct, ordered times.
    this.t += this.rng.int(5, 400)
  }

  private browserContext(): Record<string, unknown> {
    const v = this.visitor
    const context: Record<string, unknown> = {
      ip: v.ip,
      userAgent: v.userAgent,
      locale: v.locale,
      timezone: v.timezone,
      screen: { ...v.screen },
      puid: v.puid,
    }
    if (this.page) context.page = { ...this.page }
    if (this.campaign) context.campaign = { ...this.campaign }
    return context
  }
}
