import { chTime, inTimeRange, type IngestedEvent } from '@fl0/contracts'
import { USER_VISITOR_PREFIX } from '@fl0/query'
import { keyToText } from './ip.ts'
import type { Networks } from './networks/index.ts'

/**
 * Visits: one visitor's events with no gap over 30 minutes (the rule of the
 * people list and the company page, companies/activity.ts), and what those
 * events say about who made them. Pure functions: the worker and the refresh
 * job both fold events into visits here, so they cannot disagree on the rule.
 *
 * A visitor is the anonymous id (the snippet's, one per browser), else the
 * user id of a server-side call ('user:' + id): a backend's calls carry no
 * anonymous id, and are a visitor of their own.
 */
export const VISIT_GAP_MS = 30 * 60 * 1000

/** What one event tells about its visit. */
export interface Hit {
  orgId: string
  visitorId: string
  at: number
  anonymousId: string
  userId: string
  puid: string
  ip: string
  /** From identify calls: the e-mail (trimmed, lowercased) and the name. */
  email: string
  name: string
}

/** A visit's facts, as stored (without the address match, which is derived from `ip`). */
export interface Visit {
  orgId: string
  visitorId: string
  startedAt: number
  endedAt: number
  anonymousId: string
  /** The first user id of the visit: what links its anonymous id to a user. */
  userId: string
  /** The latest puid, e-mail and name; the first address. */
  puid: string
  ip: string
  email: string
  name: string
}

/** A visit row of identified_visits (clickhouse/0003_identification.sql). */
export interface VisitRow {
  org_id: string
  visitor_id: string
  started_at: string
  ended_at: string
  anonymous_id: string
  user_id: string
  puid: string
  ip: string
  ip_company: string
  ip_domain: string
  ip_kind: string
  ip_range_first: string
  ip_range_last: string
  ip_asn: number
  ip_network: string
  ip_source: string
  ip_country: string
  ip_region: string
  ip_city: string
  email: string
  name: string
  version: number
  is_deleted: number
}

/** Every column of a VisitRow, once (the compiler holds it to the interface: none missing, none extra). */
const VISIT_COLUMN_SET: { [K in keyof VisitRow]: true } = {
  org_id: true,
  visitor_id: true,
  started_at: true,
  ended_at: true,
  anonymous_id: true,
  user_id: true,
  puid: true,
  ip: true,
  ip_company: true,
  ip_domain: true,
  ip_kind: true,
  ip_range_first: true,
  ip_range_last: true,
  ip_asn: true,
  ip_network: true,
  ip_source: true,
  ip_country: true,
  ip_region: true,
  ip_city: true,
  email: true,
  name: true,
  version: true,
  is_deleted: true,
}
/** The columns of identified_visits a visit row fills, in the order visitValuesJson writes them. */
export const VISIT_COLUMNS = Object.keys(VISIT_COLUMN_SET) as Array<keyof VisitRow>
/**
 * A visit row as a JSONCompactEachRow line: its values in VISIT_COLUMNS' order
 * (a test holds the two together). Spelt out: a map over the column names read
 * each by a computed key, 1.7–2.2 µs a row against 0.8–0.9, on the identity
 * worker's thread, once a hit.
 */
export const visitValuesJson = (r: VisitRow): string =>
  JSON.stringify([
    r.org_id, r.visitor_id, r.started_at, r.ended_at, r.anonymous_id, r.user_id, r.puid, r.ip,
    r.ip_company, r.ip_domain, r.ip_kind, r.ip_range_first, r.ip_range_last, r.ip_asn, r.ip_network, r.ip_source, r.ip_country, r.ip_region, r.ip_city,
    r.email, r.name, r.version, r.is_deleted,
  ])

type Record = Pick<IngestedEvent, 'org_id' | 'type' | 'timestamp' | 'user_id' | 'anonymous_id' | 'ip' | 'context' | 'traits'>

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** The hit of a stored-event record; undefined for aliases (they say who, not when anyone was there) and records without an id. */
export function hitOf(e: Record): Hit | undefined {
  if (e.type === 'alias' || typeof e.org_id !== 'string' || typeof e.timestamp !== 'string') return undefined
  const anonymousId = str(e.anonymous_id)
  const userId = str(e.user_id)
  if (!anonymousId && !userId) return undefined
  const at = parseChTime(e.timestamp)
  // Ingest refuses times the events table cannot hold; one that reached the bus before it did is no visit.
  if (Number.isNaN(at) || !inTimeRange(at)) return undefined
  const context = (e.context ?? {}) as { [k: string]: unknown }
  const traits = e.type === 'identify' ? ((e.traits ?? {}) as { [k: string]: unknown }) : {}
  const email = str(traits.email).toLowerCase()
  const name = str(traits.name) || [str(traits.firstName ?? traits.first_name), str(traits.lastName ?? traits.last_name)].filter(Boolean).join(' ')
  return {
    orgId: e.org_id,
    visitorId: anonymousId || `${USER_VISITOR_PREFIX}${userId}`,
    at,
    anonymousId,
    userId,
    puid: str(context.puid),
    ip: str(e.ip),
    email: email.includes('@') ? email : '',
    name,
  }
}

/**
 * ClickHouse DateTime64 text in UTC ("2026-03-01 12:00:00.000") as milliseconds.
 * The digits are read where the format puts them (every event's time is read
 * once more here: Date.parse of the ISO form took about a microsecond);
 * anything else (another length, a sign, a non-digit) goes to Date.parse.
 */
export function parseChTime(text: string): number {
  if (text.length === 23 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(10) === 32 && text.charCodeAt(13) === 58 && text.charCodeAt(16) === 58 && text.charCodeAt(19) === 46) {
    const year = digits(text, 0, 4)
    const month = digits(text, 5, 2)
    const day = digits(text, 8, 2)
    const hour = digits(text, 11, 2)
    const minute = digits(text, 14, 2)
    const second = digits(text, 17, 2)
    const ms = digits(text, 20, 3)
    // Date.parse rolls a 31st of April over into May, as Date.UTC does; other fields out of range are for it to refuse, as before.
    if (year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && ms >= 0) {
      return Date.UTC(year, month - 1, day, hour, minute, second, ms)
    }
  }
  return Date.parse(`${text.replace(' ', 'T')}Z`)
}

/** The number `length` decimal digits at `from` spell, or -1 when one is not a digit. */
function digits(text: string, from: number, length: number): number {
  let n = 0
  for (let i = from; i < from + length; i++) {
    const d = text.charCodeAt(i) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

/** A visit being folded: its facts, its span, and the stored visit it started from. */
type Item = Omit<Visit, 'orgId' | 'visitorId' | 'startedAt' | 'endedAt'> & { start: number; end: number; stored?: Visit }

const fromVisit = (v: Visit): Item => ({
  anonymousId: v.anonymousId,
  userId: v.userId,
  puid: v.puid,
  ip: v.ip,
  email: v.email,
  name: v.name,
  start: v.startedAt,
  end: v.endedAt,
  stored: v,
})
const fromHit = (h: Hit): Item => ({ anonymousId: h.anonymousId, userId: h.userId, puid: h.puid, ip: h.ip, email: h.email, name: h.name, start: h.at, end: h.at })
const byStart = (a: Item, b: Item): number => a.start - b.start || (a.stored ? 0 : 1) - (b.stored ? 0 : 1)

/**
 * One visitor's new hits folded into their stored visits around them (those
 * ending at most 30 minutes before the first hit or starting at most 30
 * minutes after the last: the only ones a hit can touch). Answers the visits
 * to write and the stored visits they replace under another key (a visit that
 * grew earlier, or two that a hit joined).
 *
 * Facts: the first user id and address, the latest puid, e-mail and name; a
 * stored visit's first facts count from its start, its latest from its end,
 * and a stored fact wins a tie with a hit's. So a replayed hit, which lies
 * inside the visit it made, changes nothing: at-least-once delivery is safe.
 */
export function foldVisits(stored: readonly Visit[], hits: readonly Hit[]): { write: Visit[]; replaced: Visit[] } {
  if (hits.length === 0) return { write: [], replaced: [] }
  const { orgId, visitorId } = hits[0]!
  const items = [...stored.map(fromVisit), ...hits.map(fromHit)].sort(byStart)
  const write: Visit[] = []
  const replaced: Visit[] = []
  let group: Item[] = []
  let groupEnd = -Infinity
  for (const item of items) {
    if (group.length > 0 && item.start - groupEnd > VISIT_GAP_MS) {
      foldGroup(orgId, visitorId, group, write, replaced)
      group = []
    }
    group.push(item)
    groupEnd = group.length === 1 ? item.end : Math.max(groupEnd, item.end)
  }
  if (group.length > 0) foldGroup(orgId, visitorId, group, write, replaced)
  return { write, replaced }
}

/** One group of items no more than 30 minutes apart: its visit to write, unless it is a stored visit as it was, and the stored visits it replaces. */
function foldGroup(orgId: string, visitorId: string, group: Item[], write: Visit[], replaced: Visit[]): void {
  const merged = mergeItems(orgId, visitorId, group)
  const olds: Visit[] = []
  for (const i of group) if (i.stored) olds.push(i.stored)
  if (olds.length === 1 && withinStored(group, olds[0]!) && sameVisit(olds[0]!, merged)) return
  write.push(merged)
  for (const old of olds) if (old.startedAt !== merged.startedAt) replaced.push(old)
}

/** Whether each hit of the group lies inside the stored visit's span. */
function withinStored(group: Item[], stored: Visit): boolean {
  for (const i of group) if (!i.stored && (i.start < stored.startedAt || i.end > stored.endedAt)) return false
  return true
}

/** Folds a visitor's hits, in time order, into visits from nothing: the refresh job's path. */
export function visitsOf(hits: readonly Hit[]): Visit[] {
  return foldVisits([], hits).write
}

/** The group's visit: its span, its first user id and address, its latest puid, e-mail and name (one pass: this runs for every hit). */
function mergeItems(orgId: string, visitorId: string, group: Item[]): Visit {
  let startedAt = Infinity
  let endedAt = -Infinity
  let anonymousId = ''
  let userId = ''
  let ip = ''
  let puid: Item | undefined
  let email: Item | undefined
  let name: Item | undefined
  for (const i of group) {
    if (i.start < startedAt) startedAt = i.start
    if (i.end > endedAt) endedAt = i.end
    if (!anonymousId) anonymousId = i.anonymousId
    if (!userId) userId = i.userId
    if (!ip) ip = i.ip
    if (i.puid && later(i, puid)) puid = i
    if (i.email && later(i, email)) email = i
    if (i.name && later(i, name)) name = i
  }
  return { orgId, visitorId, startedAt, endedAt, anonymousId, userId, puid: puid?.puid ?? '', ip, email: email?.email ?? '', name: name?.name ?? '' }
}

/** Whether an item's latest facts outrank the best so far: it ends later, or as late and is stored where the best is not. */
function later(i: Item, best: Item | undefined): boolean {
  return !best || i.end > best.end || (i.end === best.end && i.stored !== undefined && !best.stored)
}

function sameVisit(a: Visit, b: Visit): boolean {
  return (
    a.startedAt === b.startedAt &&
    a.endedAt === b.endedAt &&
    a.anonymousId === b.anonymousId &&
    a.userId === b.userId &&
    a.puid === b.puid &&
    a.ip === b.ip &&
    a.email === b.email &&
    a.name === b.name
  )
}

/** The row to store: the visit, its address matched against the ranges in force and the free data (networks/index.ts). */
export function visitRow(v: Visit, networks: Networks, version: number, deleted = false): VisitRow {
  const match = networks.match(v.ip)
  return {
    org_id: v.orgId,
    visitor_id: v.visitorId,
    started_at: chTime(new Date(v.startedAt)),
    ended_at: chTime(new Date(v.endedAt)),
    anonymous_id: v.anonymousId,
    user_id: v.userId,
    puid: v.puid,
    ip: v.ip,
    ip_company: match.companyName,
    ip_domain: match.domain,
    ip_kind: match.kind,
    ip_range_first: match.range ? keyToText(match.range.first, true) : '::',
    ip_range_last: match.range ? keyToText(match.range.last, true) : '::',
    ip_asn: match.asn,
    ip_network: match.network,
    ip_source: match.source,
    ip_country: match.country,
    ip_region: match.region,
    ip_city: match.city,
    email: v.email,
    name: v.name,
    version,
    is_deleted: deleted ? 1 : 0,
  }
}

/** A stored row read back (times as ClickHouse text) as a Visit. */
export function visitOfRow(r: Pick<VisitRow, 'org_id' | 'visitor_id' | 'started_at' | 'ended_at' | 'anonymous_id' | 'user_id' | 'puid' | 'ip' | 'email' | 'name'>): Visit {
  return {
    orgId: r.org_id,
    visitorId: r.visitor_id,
    startedAt: parseChTime(r.started_at),
    endedAt: parseChTime(r.ended_at),
    anonymousId: r.anonymous_id,
    userId: r.user_id,
    puid: r.puid,
    ip: r.ip,
    email: r.email,
    name: r.name,
  }
}

/** Write versions: microseconds, strictly increasing within the process. */
let lastVersion = 0
export function nextVersion(now = Date.now()): number {
  lastVersion = Math.max(lastVersion + 1, now * 1000)
  return lastVersion
}
