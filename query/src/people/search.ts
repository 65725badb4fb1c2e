import { GROUP_DOMAIN_SQL } from '../companies/members.ts'
import { firstTraitSql, latestTraitSql, personEventsSql, TRAIT_PATHS } from './identity.ts'

/**
 * The people list's search (fl0's own, beside part 3 §2 People): the people
 * whose name, e-mail or company contains {search:String}, case-insensitive,
 * as the list shows them from their events (identity.ts's rule 4, the latest
 * non-empty trait):
 *
 * - their user id (the name shown when they never gave one);
 * - their name, first and last name, e-mail and company traits;
 * - the name and domain of any company a group call placed them in.
 *
 * What visitor identification alone knows of someone (a partner's name for an
 * anonymous visitor) is not searched: it is resolved for a page of people at
 * a time, not for a whole organisation.
 *
 * A condition on `person` (identity.ts's key), for a query over
 * personEventsSql() rows; reads {org:String} and {search:String}, the text
 * bound, never spliced in. The calls are read from trait_calls
 * (clickhouse/0004: each distinct identify or group call once), not from
 * every event.
 */
const contains = (sql: string) => `positionCaseInsensitiveUTF8(${sql}, {search:String}) > 0`
const literal = (path: string) => `'${path}'`
const trait = (key: keyof typeof TRAIT_PATHS) => firstTraitSql(TRAIT_PATHS[key].map(literal))

export function peopleSearchSql(): string {
  const told = `
    SELECT person FROM (${personEventsSql(['timestamp', 'traits'], `e.type = 'identify'`, 'trait_calls')})
    GROUP BY person
    HAVING ${contains(`concat(${trait('name')}, '\\n', ${trait('firstName')}, ' ', ${trait('lastName')}, '\\n', ${trait('email')}, '\\n', ${trait('company')})`)}`
  const companies = `
    SELECT group_id FROM (
      SELECT group_id, ${latestTraitSql(`'name'`)} AS name, argMaxIf(${GROUP_DOMAIN_SQL}, timestamp, ${GROUP_DOMAIN_SQL} != '') AS domain
      FROM trait_calls WHERE org_id = {org:String} AND type = 'group' AND group_id != ''
      GROUP BY group_id
    )
    WHERE ${contains(`concat(name, '\\n', domain)`)}`
  const placed = `SELECT person FROM (${personEventsSql(['group_id'], `e.type = 'group' AND e.group_id IN (${companies})`, 'trait_calls')})`
  return `((NOT startsWith(person, 'anon:') AND ${contains('person')}) OR person IN (${told}) OR person IN (${placed}))`
}
