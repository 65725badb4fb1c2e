import { CANDIDATE_VISITS_FILTER, candidateVisitors, LINKED_ANONS_SQL, orgParams, resolutionCtes, rows, type Client } from '@fl0/query'

/**
 * What visitor identification knows of some people (people/identity.ts's
 * keys: user ids and 'anon:' + anonymous id), for the people list: their
 * universal record when a callback, a cookie link or their identified e-mail
 * finds one, and their company (resolution.ts's rules; for someone known
 * only by address, the company of their latest visit whose network names one).
 */
export interface PersonIdentity {
  person: string
  personVia: string
  name: string
  role: string
  companyName: string
  companyDomain: string
  companyVia: string
  linkedinUrl: string
  employees: number | null
  revenue: number | null
  location: string
  hasBusinessEmail: boolean
  hasPersonalEmail: boolean
  hasHem: boolean
}

export async function loadPersonIdentities(client: Client, org: string, persons: readonly string[]): Promise<Map<string, PersonIdentity>> {
  if (persons.length === 0) return new Map()
  const users = persons.filter((p) => !p.startsWith('anon:'))
  const anons = persons.filter((p) => p.startsWith('anon:')).map((p) => p.slice('anon:'.length))
  // The people's visitors: their anonymous ids, those linked to their user ids (any visit carrying both), and
  // their user ids' server-side visitors (candidateVisitors): all of their visits, read by visitor.
  const [linked] = users.length ? await rows<{ anons: string[] }>(client, LINKED_ANONS_SQL, { org, c_users: users }) : [{ anons: [] }]
  const found = await rows<Record<string, string | number | null>>(
    client,
    // persons carries the person's company too: their own, else the one their addresses name.
    `WITH ${resolutionCtes(CANDIDATE_VISITS_FILTER)}
    SELECT * FROM persons WHERE person IN {persons:Array(String)}`,
    { ...orgParams(org), c_visitors: candidateVisitors({ anons: [...anons, ...(linked?.anons ?? [])], users }), persons: [...persons] },
  )
  return new Map(
    found.map((r) => {
      const identity: PersonIdentity = {
        person: String(r.person),
        personVia: String(r.person_via ?? ''),
        name: String(r.person_name ?? ''),
        role: String(r.role ?? ''),
        companyName: String(r.company_name ?? ''),
        companyDomain: String(r.company_domain ?? ''),
        companyVia: String(r.company_via ?? ''),
        linkedinUrl: String(r.linkedin_url ?? ''),
        employees: r.employees === null || r.employees === undefined ? null : Number(r.employees),
        revenue: r.revenue === null || r.revenue === undefined ? null : Number(r.revenue),
        location: String(r.location ?? ''),
        hasBusinessEmail: Number(r.has_business_email) > 0,
        hasPersonalEmail: Number(r.has_personal_email) > 0,
        hasHem: Number(r.has_hem) > 0,
      }
      return [identity.person, identity]
    }),
  )
}
