import type { BusinessIntent } from '@fl0/contracts'
import { rows, type Client } from '@fl0/query'

/**
 * A company's business intents (imported by the admin's "import business
 * intents"): the last 30 days' topics of its domain, newest first, then the
 * highest score. Dates are the partner's (YYYY-MM-DD); `now` bounds the window.
 */
export async function loadBusinessIntents(client: Client, domain: string, now: Date): Promise<BusinessIntent[]> {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
  const found = await rows<{ topic: string; score: number; day: string }>(
    client,
    `SELECT topic, score, toString(date) AS day FROM business_intents FINAL
     WHERE company_domain = {domain:String} AND date >= toDate({since:String})
     ORDER BY date DESC, score DESC, topic
     LIMIT 100`,
    { domain, since },
  )
  return found.map((r) => ({ topic: r.topic, score: Number(r.score), date: r.day }))
}
