import type { Readable } from 'node:stream'
import { chTime } from '@fl0/contracts'
import { normalizeDomain } from '@fl0/query'
import { batches, csvRows } from './csv.ts'
import { fmt, JobFailure, type Progress } from './progress.ts'
import { chunks, insert, select, type Client } from './store.ts'

/**
 * Business intents (docs/identification.md): a company's research topics
 * with a score, by day, from an intent-data partner. One row per domain,
 * topic and date; a row stored with the same score is left as it is, another
 * score replaces it. The company page shows its domain's last 30 days.
 */
export interface Intent {
  company_domain: string
  topic: string
  date: string
  score: number
}

export function intentOf(v: Record<string, string>): Intent | string {
  const domain = normalizeDomain(v.company_domain ?? '')
  if (!domain) return 'company_domain is not a domain'
  const topic = (v.topic ?? '').trim()
  if (!topic) return 'topic must be given'
  if (topic.length > 200) return 'topic must have at most 200 characters'
  const scoreText = (v.score ?? '').trim()
  const score = Number(scoreText)
  if (!scoreText || !Number.isFinite(score)) return 'score must be a number'
  const date = (v.date ?? '').trim()
  if (!/^\d{4}-\d\d-\d\d$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    return 'date must be a date as YYYY-MM-DD'
  }
  return { company_domain: domain, topic, date, score }
}

export async function importBusinessIntents(client: Client, input: Readable, fileName: string, progress: Progress, now: Date): Promise<string> {
  for (const name of ['read', 'inserted', 'unchanged', 'skipped']) progress.add(name, 0)
  const importedAt = chTime(now)
  const keyOf = (i: Pick<Intent, 'company_domain' | 'date' | 'topic'>) => `${i.company_domain}\n${i.date}\n${i.topic}`
  for await (const batch of batches(csvRows(input, progress, [['company_domain'], ['topic'], ['score'], ['date']]), 5_000)) {
    const intents = new Map<string, Intent>()
    for (const row of batch) {
      progress.add('read')
      const intent = intentOf(row.values)
      if (typeof intent === 'string') {
        progress.add('skipped')
        progress.error(row.line, intent)
        continue
      }
      if (intents.has(keyOf(intent))) progress.add('unchanged')
      intents.set(keyOf(intent), intent)
    }
    const stored = new Map<string, number>()
    for (const domains of chunks([...new Set([...intents.values()].map((i) => i.company_domain))])) {
      const rows = await select<Intent>(
        client,
        'SELECT company_domain, topic, toString(date) AS date, score FROM business_intents FINAL WHERE company_domain IN {domains:Array(String)}',
        { domains },
      )
      for (const r of rows) stored.set(keyOf(r), Number(r.score))
    }
    const fresh = [...intents].filter(([key, i]) => stored.get(key) !== i.score).map(([, i]) => ({ ...i, imported_at: importedAt }))
    await insert(client, 'business_intents', fresh)
    progress.add('inserted', fresh.length)
    progress.add('unchanged', intents.size - fresh.length)
  }
  if (progress.counts.read === 0) throw new JobFailure(`${fileName} has no rows`)
  const c = progress.counts
  return `Imported ${fmt(c.inserted!)} business intents from ${fileName} (${fmt(c.unchanged!)} unchanged, ${fmt(c.skipped!)} skipped)`
}
