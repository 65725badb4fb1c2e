import { AUDIENCE_PAGE_SIZE } from '@fl0/contracts'
import type { MembersSql } from './members.ts'

/**
 * The two answers made of an audience's members:
 *
 * - pageSql: one page of each result table and both totals, in one query (one
 *   read of the events): users ranked by last activity (newest first, then
 *   user id), companies by how many of the members they have (most first,
 *   then company id). The rows of both pages come back together, each marked
 *   with its rank in either table; the first user always comes back, so the
 *   totals arrive even for a page past the end.
 * - countSql: the totals alone (the audience list's Members and Companies).
 *
 * A member's company is counted when the member has one (a group).
 */
export function pageSql(members: MembersSql, page: number) {
  const from = (page - 1) * AUDIENCE_PAGE_SIZE + 1
  const to = page * AUDIENCE_PAGE_SIZE
  const sql = `
  SELECT * FROM (
    SELECT *, if(company != '' AND company_row = 1, row_number() OVER (ORDER BY company = '', company_row != 1, company_users DESC, company), 0) AS company_rank
    FROM (
      SELECT *,
        count() OVER () AS total_users,
        uniqExactIf(company, company != '') OVER () AS total_companies,
        row_number() OVER (ORDER BY last_seen DESC, person) AS user_rank,
        count() OVER (PARTITION BY company) AS company_users,
        row_number() OVER (PARTITION BY company ORDER BY person) AS company_row
      FROM (${members.sql})
    )
  )
  WHERE user_rank = 1 OR user_rank BETWEEN {page_from:UInt64} AND {page_to:UInt64} OR company_rank BETWEEN {page_from:UInt64} AND {page_to:UInt64}`
  return { sql, params: { ...members.params, page_from: from, page_to: to }, from, to }
}

export function countSql(members: MembersSql) {
  return { sql: `SELECT count() AS users, uniqExactIf(company, company != '') AS companies FROM (${members.sql})`, params: members.params }
}
