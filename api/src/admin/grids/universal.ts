import { rows, type Client } from '@fl0/query'
import { iso, num, numOrNull, orNull } from './page.ts'

/** GET /api-v2/admin/universal-table: the universal table by up_id; upId filters to ids starting with it. */
export async function universalTable(client: Client, upId: string | undefined, page: { limit: number; offset: number }) {
  const params = { prefix: upId ?? '', ...page }
  const where = `startsWith(up_id, {prefix:String})`
  const [data, [count]] = await Promise.all([
    rows<Record<string, string | number | null>>(
      client,
      `SELECT * FROM universal_persons FINAL WHERE ${where} ORDER BY up_id LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
      params,
    ),
    rows<{ n: string }>(client, `SELECT count() AS n FROM universal_persons FINAL WHERE ${where}`, params),
  ])
  return {
    data: data.map((r) => ({
      upId: r.up_id,
      firstName: orNull(r.first_name as string),
      lastName: orNull(r.last_name as string),
      jobTitle: orNull(r.job_title as string),
      companyName: orNull(r.company_name as string),
      companyDomain: orNull(r.company_domain as string),
      linkedinUrl: orNull(r.linkedin_url as string),
      businessEmail: orNull(r.business_email as string),
      personalEmail: orNull(r.personal_email as string),
      businessEmailSha256: orNull(r.business_email_sha256 as string),
      personalEmailSha256: orNull(r.personal_email_sha256 as string),
      employees: numOrNull(r.employees),
      revenue: numOrNull(r.revenue),
      city: orNull(r.city as string),
      region: orNull(r.region as string),
      country: orNull(r.country as string),
      importedAt: iso(r.imported_at as string),
    })),
    total: num(count?.n),
  }
}
