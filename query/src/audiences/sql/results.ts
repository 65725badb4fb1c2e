import { AUDIENCE_PAGE_SIZE } from '@fl0/contracts'
import type { MembersSql } from './members.ts'

/**
 * The two answers made of an audience's members:
 *
 * - pageSql: one page of users and both totals, and one row for each company
 *   the members have, in one query (one read of what the members are made
 *   of). Users are ranked by last activity (newest first, then user id); each
 *   company's row carries how many members it has, and the engine ranks and
 *   pages the companies (most members first, then company id). Ranking them
 *   here too would take a second level of window functions, over which
 *   ClickHouse computes the members twice (measured: 290 ms of CPU against
 *   190 at ten million events); the companies are as many as the members at
 *   most. The first user always comes back, so the totals arrive even for a
 *   page past the end.
 * - countSql: the totals alone (the audience list's Members and Companies).
 *
 * A member's company is counted when the member has one (a group).
 */
export function pageSql(members: MembersSql, page: number) {
  const from = (page - 1) * AUDIENCE_PAGE_SIZE + 1
  const to = page * AUDIENCE_PAGE_SIZE
  // The members' own level, its window functions and QUALIFY added: no subquery around it to analyse.
  const sql = `
  SELECT ${members.select},
    count() OVER () AS total_users,
    uniqExactIf(company, company != '') OVER () AS total_companies,
    row_number() OVER (ORDER BY last_seen DESC, person) AS user_rank,
    count() OVER (PARTITION BY company) AS company_users,
    row_number() OVER (PARTITION BY company ORDER BY person) AS company_row
  FROM ${members.from}
  WHERE ${members.where}
  QUALIFY user_rank = 1 OR user_rank BETWEEN {page_from:UInt64} AND {page_to:UInt64} OR (company != '' AND company_row = 1)`
  return { sql, params: { ...members.params, page_from: from, page_to: to }, from, to }
}

export function countSql(members: MembersSql) {
  return { sql: `SELECT count() AS users, uniqExactIf(company, company != '') AS companies FROM (${members.sql})`, params: members.params }
}
