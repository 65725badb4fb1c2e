/**
 * Bots: the anonymous visitors the bots worker marked as crawlers or headless
 * browsers (clickhouse/0010_bots.sql, workers/src/bots), left out of people,
 * companies and metrics. The one rule, for every query that reads visitors:
 *
 *   An event is a bot's when it carries no user id and its anonymous id is in
 *   bot_visitors for its organisation.
 *
 * So events with a user id are never left out: someone who signed in is a
 * person, whatever browser they used, and their calls count as theirs (a bot's
 * anonymous id linked to a user loses only its anonymous visits). An anonymous
 * visitor marked as a bot disappears from the people list, its profile is not
 * found, it is no company's member and no metric counts it.
 *
 * The fragments read one organisation's bot ids as a set, built once per query
 * (the table's key is (org_id, anonymous_id): one range). `org` is SQL naming
 * the organisation, a bound parameter ({org:String}, or a Params placeholder);
 * `row` qualifies the columns (`e.`, `ev.`, `x.`).
 */
export const botIdsSql = (org = '{org:String}') => `SELECT anonymous_id FROM bot_visitors WHERE org_id = ${org}`

/** True for a row that is not a bot's (the rule above), of the organisation `org`. */
export function notBotSql(org = '{org:String}', row = ''): string {
  return `(${row}user_id != '' OR ${row}anonymous_id NOT IN (${botIdsSql(org)}))`
}

/** notBotSql() of the organisation {org:String}, unqualified columns: the common case. */
export const NOT_BOT_SQL = notBotSql()

/** notBotSql for rows of any organisation (their own org_id column): the admin grids over every organisation. */
export function notBotAnyOrgSql(row = ''): string {
  return `(${row}user_id != '' OR (${row}org_id, ${row}anonymous_id) NOT IN (SELECT org_id, anonymous_id FROM bot_visitors))`
}
