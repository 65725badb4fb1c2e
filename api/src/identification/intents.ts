import type { BusinessIntent } from '@fl0/contracts'
import { rows, type Client } from '@fl0/query'

/** At most this many intents leave the server: 30 days of a few topics a day. */
export const MAX_INTENTS = 100

/**
 * A company's business intents (imported by the admin's "import business
 * intents"): its domain's topics dated from `from` (YYYY-MM-DD: the company
 * page's first day, so the intents cover the page's 30 days), newest first,
 * then the highest score. Dates are the partner's.
 */
export async function loadBusinessIntents(client: Client, domain: string, from: string): Promise<BusinessIntent[]> {
  const found = await rows<{ topic: string; score: number; day: string }>(
    client,
    `SELECT topic, score, toString(date) AS day FROM business_intents FINAL
     WHERE company_domain = {domain:String} AND date >= {from:Date}
     ORDER BY date DESC, score DESC, topic
     LIMIT {limit:UInt32}`,
    { domain, from, limit: MAX_INTENTS },
  )
  return found.map((r) => ({ topic: r.topic, score: Number(r.score), date: r.day }))
}
