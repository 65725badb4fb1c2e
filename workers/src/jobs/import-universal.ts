import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { chTime, IDENTIFICATION_TEXT, isUpId, normalizeHem } from '@fl0/contracts'
import { hashEmail } from '../identity/links.ts'
import { normalizeDomain } from '@fl0/query'
import { batches, csvRows, type CsvRow } from './csv.ts'
import { fmt, JobFailure, type Progress } from './progress.ts'
import { chunks, insert, select, type Client } from './store.ts'

/**
 * The universal table import (docs/identification.md, "Universal table"):
 * millions of rows in constant memory. The upload is parsed as it streams in
 * (csv.ts); rows go to ClickHouse in batches of BATCH, each batch first
 * checked against the stored rows (by up_id and a hash of the row), so an
 * unchanged row is not written again and a second import of the same file
 * writes nothing. A bad row is reported with its line number and skipped.
 * Within one batch, a later row of the same up_id replaces an earlier one.
 */
export const UNIVERSAL_BATCH = 5_000
export const UNIVERSAL_COLUMNS = [
  'up_id', 'first_name', 'last_name', 'job_title', 'company_name', 'company_domain', 'linkedin_url', 'business_email', 'personal_email',
  'business_email_sha256', 'personal_email_sha256', 'employees', 'revenue', 'city', 'region', 'country',
] as const

export interface UniversalPerson {
  up_id: string
  first_name: string
  last_name: string
  job_title: string
  company_name: string
  company_domain: string
  linkedin_url: string
  business_email: string
  personal_email: string
  business_email_sha256: string
  personal_email_sha256: string
  employees: number | null
  revenue: number | null
  city: string
  region: string
  country: string
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** One CSV row as a person, or what is wrong with it. */
export function universalPersonOf(v: Record<string, string>): UniversalPerson | string {
  const upId = v.up_id ?? ''
  if (!isUpId(upId)) return IDENTIFICATION_TEXT.upIdInvalid
  const text = (name: string, max = 500): string | { error: string } => {
    const s = (v[name] ?? '').trim()
    return s.length > max ? { error: `${name} must have at most ${max} characters` } : s
  }
  const fields: Record<string, string> = {}
  for (const name of ['first_name', 'last_name', 'job_title', 'company_name', 'linkedin_url', 'city', 'region', 'country']) {
    const t = text(name)
    if (typeof t !== 'string') return t.error
    fields[name] = t
  }
  const emails: Record<string, string> = {}
  for (const name of ['business_email', 'personal_email']) {
    const e = (v[name] ?? '').trim().toLowerCase()
    if (e && !EMAIL.test(e)) return `${name} is not an e-mail address`
    emails[name] = e
  }
  const hashes: Record<string, string> = {}
  for (const [hashName, emailName] of [['business_email_sha256', 'business_email'], ['personal_email_sha256', 'personal_email']] as const) {
    const given = (v[hashName] ?? '').trim()
    const h = given ? normalizeHem(given) : emails[emailName] ? hashEmail(emails[emailName]!) : ''
    if (h === undefined) return `${hashName} must be 64 hex digits (SHA-256)`
    hashes[hashName] = h
  }
  const domainText = (v.company_domain ?? '').trim()
  const domain = domainText ? normalizeDomain(domainText) : ''
  if (domain === undefined) return 'company_domain is not a domain'
  const numbers: Record<string, number | null> = {}
  for (const name of ['employees', 'revenue']) {
    const t = (v[name] ?? '').trim().replace(/[,_\s]/g, '')
    if (!t) numbers[name] = null
    else if (!Number.isFinite(Number(t)) || Number(t) < 0) return `${name} must be a number of at least 0`
    else numbers[name] = Number(t)
  }
  return {
    up_id: upId,
    first_name: fields.first_name!,
    last_name: fields.last_name!,
    job_title: fields.job_title!,
    company_name: fields.company_name!,
    company_domain: domain,
    linkedin_url: fields.linkedin_url!,
    business_email: emails.business_email!,
    personal_email: emails.personal_email!,
    business_email_sha256: hashes.business_email_sha256!,
    personal_email_sha256: hashes.personal_email_sha256!,
    employees: numbers.employees!,
    revenue: numbers.revenue!,
    city: fields.city!,
    region: fields.region!,
    country: fields.country!,
  }
}

/** The hash a stored row is compared by: every field, in a fixed order. */
export function rowHash(p: UniversalPerson): string {
  return createHash('sha1').update(JSON.stringify(UNIVERSAL_COLUMNS.map((c) => p[c]))).digest('hex').slice(0, 16)
}

export async function importUniversalTable(client: Client, input: Readable, fileName: string, progress: Progress, now: Date): Promise<string> {
  const started = Date.now()
  const importedAt = chTime(now)
  progress.log(`Importing universal table from ${fileName}`)
  for (const name of ['read', 'imported', 'unchanged', 'skipped']) progress.add(name, 0)
  let nextReport = 100_000
  const summary = () =>
    `${fmt(progress.counts.read!)} rows read: ${fmt(progress.counts.imported!)} imported, ${fmt(progress.counts.unchanged!)} unchanged, ${fmt(progress.counts.skipped!)} skipped`
  for await (const batch of batches(csvRows(input, progress, [['up_id']]), UNIVERSAL_BATCH)) {
    const persons = new Map<string, UniversalPerson & { row_hash: string }>()
    for (const row of batch as CsvRow[]) {
      progress.add('read')
      const p = universalPersonOf(row.values)
      if (typeof p === 'string') {
        progress.add('skipped')
        progress.error(row.line, p)
        continue
      }
      if (persons.has(p.up_id)) progress.add('unchanged') // the same id again in the batch: the later row stands
      persons.set(p.up_id, { ...p, row_hash: rowHash(p) })
    }
    const stored = new Map<string, string>()
    for (const ids of chunks([...persons.keys()])) {
      const rows = await select<{ up_id: string; row_hash: string }>(
        client,
        // The newest version of each row, without FINAL: measured twice as fast on chDB for a batch's look-up.
        'SELECT up_id, argMax(row_hash, imported_at) AS row_hash FROM universal_persons WHERE up_id IN {ids:Array(String)} GROUP BY up_id',
        { ids },
      )
      for (const r of rows) stored.set(r.up_id, r.row_hash)
    }
    const fresh = [...persons.values()].filter((p) => stored.get(p.up_id) !== p.row_hash)
    progress.add('unchanged', persons.size - fresh.length)
    await insert(client, 'universal_persons', fresh.map((p) => ({ ...p, imported_at: importedAt })))
    await insert(
      client,
      'universal_hems',
      fresh.flatMap((p) => [
        ...(p.business_email_sha256 ? [{ hem: p.business_email_sha256, up_id: p.up_id, kind: 'business' }] : []),
        ...(p.personal_email_sha256 ? [{ hem: p.personal_email_sha256, up_id: p.up_id, kind: 'personal' }] : []),
      ]),
    )
    progress.add('imported', fresh.length)
    if (progress.counts.read! >= nextReport) {
      progress.log(summary())
      while (nextReport <= progress.counts.read!) nextReport += 100_000
    }
  }
  if (progress.counts.read === 0) throw new JobFailure(`${fileName} has no rows`)
  const message = `Done: ${summary()} in ${((Date.now() - started) / 1000).toFixed(1)} s`
  progress.log(message)
  return message
}
