import { memberFilter, rows, type Client, type MemberIds } from '@fl0/query'

/**
 * Who the company's people are, from their identify calls: the newest
 * non-empty value of each trait wins. Role is traits.role, else title or
 * jobTitle; the company name they gave (traits.company) names the company
 * when no group call does. The calls are read from trait_calls
 * (clickhouse/0004: each distinct call of a caller once, with its latest time).
 */
export interface PersonInfo {
  name: string | null
  email: string | null
  role: string | null
  company: string | null
}

const IDENTIFY_CALLS = 5000

interface Row {
  person: string
  name: string
  first_name: string
  last_name: string
  email: string
  role: string
  company: string
}

export async function loadPeople(client: Client, org: string, members: MemberIds): Promise<Map<string, PersonInfo>> {
  const m = memberFilter(members)
  const found = await rows<Row>(
    client,
    `SELECT ${m.person} AS person, traits.name::String AS name, traits.firstName::String AS first_name,
       traits.lastName::String AS last_name, traits.email::String AS email,
       multiIf(traits.role::String != '', traits.role::String, traits.title::String != '', traits.title::String, traits.jobTitle::String) AS role,
       traits.company::String AS company
     FROM trait_calls
     WHERE org_id = {org:String} AND type = 'identify' AND ${m.where}
     ORDER BY timestamp DESC
     LIMIT {limit:UInt32}`,
    { org, ...m.params, limit: IDENTIFY_CALLS },
  )
  const people = new Map<string, PersonInfo>()
  for (const r of found) {
    const p = people.get(r.person) ?? { name: null, email: null, role: null, company: null }
    const full = [r.first_name, r.last_name].map((s) => s.trim()).filter(Boolean).join(' ')
    p.name ??= r.name.trim() || full || null
    p.email ??= r.email.trim() || null
    p.role ??= r.role.trim() || null
    p.company ??= r.company.trim() || null
    people.set(r.person, p)
  }
  return people
}

/** The name a person is shown by: their name, else their e-mail, else their user id; someone not signed up is an anonymous visitor. */
export function displayName(person: string, info: PersonInfo | undefined): string {
  if (info?.name) return info.name
  if (info?.email) return info.email
  return person.startsWith('anon:') ? 'Anonymous visitor' : person
}

/** The company name most of its people gave, for a company without group traits. */
export function companyNameFromPeople(people: Map<string, PersonInfo>): string | null {
  const counts = new Map<string, number>()
  for (const p of people.values()) if (p.company) counts.set(p.company, (counts.get(p.company) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null
}
