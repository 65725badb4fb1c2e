import { createHash } from 'node:crypto'
import { isPuid, isUpId, normalizeHem, type IdentityLinkRecord } from '@fl0/contracts'
import type { EventStore } from '@fl0/stores'

/**
 * Links of a puid (the snippet's visitor id) to a universal person id and/or
 * a hashed e-mail: from the identity callback (through the bus) and the
 * cookie import. identity_links is a set (its sort key is the whole link), so
 * a link stored twice is one row. org_id is the organisation a signed callback
 * was verified for, '' otherwise (clickhouse/0007_callback_link_scope.sql says
 * which organisations each counts for).
 */
export type LinkRecord = IdentityLinkRecord

/** A bus record as a link, or undefined when it is not one (a poison record is skipped, not retried). */
export function parseLinkRecord(value: string): LinkRecord | undefined {
  let r: Partial<LinkRecord>
  try {
    r = JSON.parse(value)
  } catch {
    return undefined
  }
  if (typeof r !== 'object' || r === null) return undefined
  const puid = typeof r.puid === 'string' ? r.puid : ''
  const upId = typeof r.up_id === 'string' && isUpId(r.up_id) ? r.up_id : ''
  const hem = typeof r.hem === 'string' ? (normalizeHem(r.hem) ?? '') : ''
  if (!isPuid(puid) || (!upId && !hem) || typeof r.linked_at !== 'string') return undefined
  // Records from before signed callbacks carry no org_id: they were unsigned.
  const orgId = typeof r.org_id === 'string' ? r.org_id : ''
  return { puid, up_id: upId, hem, source: r.source === 'cookies' ? 'cookies' : 'callback', linked_at: r.linked_at, org_id: orgId }
}

export async function storeLinks(store: EventStore, links: readonly LinkRecord[]): Promise<void> {
  if (links.length === 0) return
  await store.client.insert({ table: 'identity_links', values: links, format: 'JSONEachRow' })
}

/** The hashed e-mail of an address: SHA-256 of it trimmed and lowercased, in hex (what partners send as hem). */
export function hashEmail(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
}
