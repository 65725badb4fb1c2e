import type { Readable } from 'node:stream'
import { chTime, IDENTIFICATION_TEXT, isPuid, isUpId, normalizeHem } from '@fl0/contracts'
import { batches, csvRows } from './csv.ts'
import { fmt, JobFailure, type Progress } from './progress.ts'
import { chunks, insert, select, type Client } from './store.ts'

/**
 * Cookies (docs/identification.md): puid ↔ up_id pairs, optionally with a
 * hashed e-mail, from an identity partner's cookie sync. They are the same
 * links the identity callback makes, stored with source 'cookies'; a pair
 * already stored is left as it is.
 */
interface CookieLink {
  puid: string
  up_id: string
  hem: string
}

export function cookieLinkOf(v: Record<string, string>): CookieLink | string {
  const puid = v.puid ?? ''
  if (!isPuid(puid)) return 'puid must be a visitor id of at most 200 printable characters'
  const upId = v.upid ?? v.up_id ?? ''
  if (!isUpId(upId)) return IDENTIFICATION_TEXT.upIdInvalid.replace('up_id', 'upid')
  const hemText = v.hem ?? ''
  const hem = hemText ? normalizeHem(hemText) : ''
  if (hem === undefined) return 'hem must be 64 hex digits (SHA-256)'
  return { puid, up_id: upId, hem }
}

export async function importCookies(client: Client, input: Readable, fileName: string, progress: Progress, now: Date): Promise<string> {
  for (const name of ['read', 'inserted', 'unchanged', 'skipped']) progress.add(name, 0)
  const linkedAt = chTime(now)
  for await (const batch of batches(csvRows(input, progress, [['puid'], ['upid', 'up_id']]), 5_000)) {
    const links = new Map<string, CookieLink>()
    for (const row of batch) {
      progress.add('read')
      const link = cookieLinkOf(row.values)
      if (typeof link === 'string') {
        progress.add('skipped')
        progress.error(row.line, link)
        continue
      }
      const key = `${link.puid}\n${link.up_id}\n${link.hem}`
      if (links.has(key)) progress.add('unchanged')
      links.set(key, link)
    }
    const stored = new Set<string>()
    for (const puids of chunks([...new Set([...links.values()].map((l) => l.puid))])) {
      const rows = await select<CookieLink>(client, `SELECT puid, up_id, hem FROM identity_links WHERE source = 'cookies' AND puid IN {puids:Array(String)}`, { puids })
      for (const r of rows) stored.add(`${r.puid}\n${r.up_id}\n${r.hem}`)
    }
    const fresh = [...links].filter(([key]) => !stored.has(key)).map(([, l]) => ({ ...l, source: 'cookies', linked_at: linkedAt }))
    await insert(client, 'identity_links', fresh)
    progress.add('inserted', fresh.length)
    progress.add('unchanged', links.size - fresh.length)
  }
  if (progress.counts.read === 0) throw new JobFailure(`${fileName} has no rows`)
  const c = progress.counts
  return `Imported ${fmt(c.inserted!)} cookie links from ${fileName} (${fmt(c.unchanged!)} unchanged, ${fmt(c.skipped!)} skipped)`
}
