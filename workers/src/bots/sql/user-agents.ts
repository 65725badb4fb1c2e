/**
 * The 'user_agent' rule's two queries over the events received in a scan's
 * window (window.ts's WINDOW_SQL, which reads {from}, {until} and {floor}).
 *
 * DISTINCT_AGENTS_SQL: the window's user agents of anonymous calls, each once
 * (a site sees a few hundred a day, whatever its traffic): judged in JS by
 * isbot, whose list ClickHouse cannot run (it is a JavaScript regular
 * expression).
 *
 * MARK_AGENTS_SQL: the anonymous ids of the window that used one of the bot
 * user agents ({agents:Array(String)}), not marked yet, into bot_visitors.
 * Anonymous ids only: a call with a user id is never a bot's (query/src/people/bots.ts).
 */
import { WINDOW_SQL } from './window.ts'

export const DISTINCT_AGENTS_SQL = `
SELECT DISTINCT user_agent
FROM events
WHERE ${WINDOW_SQL} AND anonymous_id != '' AND user_id = '' AND user_agent != ''
LIMIT {max_agents:UInt32}`

export const MARK_AGENTS_SQL = `
INSERT INTO bot_visitors (org_id, anonymous_id, reason, detected_at)
SELECT org_id, anonymous_id, 'user_agent', {now:DateTime64(3, 'UTC')}
FROM events
WHERE ${WINDOW_SQL} AND anonymous_id != '' AND user_id = '' AND has({agents:Array(String)}, user_agent)
  AND (org_id, anonymous_id) NOT IN (SELECT org_id, anonymous_id FROM bot_visitors)
GROUP BY org_id, anonymous_id`
