import { WINDOW_SQL } from './window.ts'

/**
 * The 'behaviour' rule: a bot that hides its user agent still behaves like
 * one. Per organisation, UTC day, address and user agent, over the anonymous
 * calls (a signed-in user is never a bot's), each anonymous id is a session:
 *
 *   at least MIN_SESSIONS sessions that day,
 *   the median session at most MAX_MEDIAN_SPAN_MS from its first call to its last,
 *   and all of them over at most MAX_PAGES distinct page paths (at least one:
 *   a backend sending anonymous calls for its visitors names no page)
 *
 * marks every one of those sessions. What it must not mark, and does not:
 * an office or a mobile carrier's shared address, many people behind one
 * address and often one browser version, whose visits last minutes over many
 * pages: even where most are one-page bounces (a median of 0 s), the others
 * read more than three pages between them. A campaign page that every
 * visitor of a shared address leaves at once would look the same as a bot;
 * that is the rule's known edge (docs/identification.md, "Bots").
 *
 * Only the groups that the scan's window (window.ts) has calls of are judged,
 * over their whole day (sessions accumulate as the day goes), from
 * {day_from}, the start of the earliest day the window's calls are stamped
 * with. Ids already marked are left as they are.
 */
export const MIN_SESSIONS = 100
export const MAX_MEDIAN_SPAN_MS = 10_000
export const MAX_PAGES = 3

const ANONYMOUS_CALL = `anonymous_id != '' AND user_id = '' AND ip != ''`

// The constants are the code's own numbers: an aggregate's parameter cannot be a bound one.
export const MARK_BEHAVIOUR_SQL = `
INSERT INTO bot_visitors (org_id, anonymous_id, reason, detected_at)
SELECT org_id, anonymous_id, 'behaviour', {now:DateTime64(3, 'UTC')}
FROM (
  SELECT org_id, groupArray(anonymous_id) AS ids
  FROM (
    SELECT org_id, toDate(timestamp, 'UTC') AS day, ip, user_agent, anonymous_id,
      toUnixTimestamp64Milli(max(timestamp)) - toUnixTimestamp64Milli(min(timestamp)) AS span_ms,
      groupUniqArrayIf(${MAX_PAGES + 1})(page_path, page_path != '') AS paths
    FROM events
    WHERE timestamp >= {day_from:DateTime64(3, 'UTC')} AND ${ANONYMOUS_CALL}
      AND (org_id, toDate(timestamp, 'UTC'), ip, user_agent) IN (
        SELECT DISTINCT org_id, toDate(timestamp, 'UTC'), ip, user_agent FROM events WHERE ${WINDOW_SQL} AND ${ANONYMOUS_CALL}
      )
    GROUP BY org_id, day, ip, user_agent, anonymous_id
  )
  GROUP BY org_id, day, ip, user_agent
  HAVING count() >= ${MIN_SESSIONS}
    AND quantileExact(0.5)(span_ms) <= ${MAX_MEDIAN_SPAN_MS}
    AND length(groupUniqArrayArray(${MAX_PAGES + 1})(paths)) BETWEEN 1 AND ${MAX_PAGES}
)
ARRAY JOIN ids AS anonymous_id
WHERE (org_id, anonymous_id) NOT IN (SELECT org_id, anonymous_id FROM bot_visitors)
GROUP BY org_id, anonymous_id`
