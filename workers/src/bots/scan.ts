import { isbot } from 'isbot'
import { chTime } from '@fl0/contracts'
import { rows } from '@fl0/query'
import type { EventStore } from '@fl0/stores'
import { MARK_BEHAVIOUR_SQL } from './sql/behaviour.ts'
import { DISTINCT_AGENTS_SQL, MARK_AGENTS_SQL } from './sql/user-agents.ts'
import { WINDOW_SQL } from './sql/window.ts'

/**
 * One scan of the bots worker: the events received in a window, judged by the
 * two rules (sql/user-agents.ts, sql/behaviour.ts), their bots written to
 * bot_visitors (clickhouse/0010_bots.sql). Idempotent: an id already marked is
 * not written again, so scanning a window twice, or two workers scanning the
 * same one, leaves the same set.
 */
export interface BotScan {
  from: Date
  until: Date
  /** Anonymous calls received in the window. */
  calls: number
  /** The window's distinct user agents (of anonymous calls), and those isbot recognised. */
  agents: number
  botAgents: number
  /** Visitors this scan marked, by reason. */
  marked: { user_agent: number; behaviour: number }
}

/** Where a scan starts when it is not told: this far before now (the worker's first scan after a start). */
export const LOOK_BACK_MS = 2 * 24 * 60 * 60_000
/** Calls stamped more than this before the window's start are not scanned (sql/window.ts). */
export const STAMP_SLACK_MS = 24 * 60 * 60_000
/** At most this many distinct user agents a scan judges; a window with more is a flood, its rest judged by behaviour. */
export const MAX_AGENTS = 100_000
/** Bot user agents bound per insert: a ClickHouse server reads parameters from the request's URL (1 MiB by default). */
const AGENT_CHARS_PER_INSERT = 200_000

const DAY_MS = 24 * 60 * 60_000

export async function detectBots(store: EventStore, now: Date, options: { since?: Date; until?: Date } = {}): Promise<BotScan> {
  // Nobody waits on a scan: in chDB the dashboard's queries go ahead of it.
  const client = store.background.client
  const from = options.since ?? new Date(now.getTime() - LOOK_BACK_MS)
  const until = options.until ?? now
  const window = { from: chTime(from), until: chTime(until), floor: chTime(new Date(from.getTime() - STAMP_SLACK_MS)) }
  const scan: BotScan = { from, until, calls: 0, agents: 0, botAgents: 0, marked: { user_agent: 0, behaviour: 0 } }

  const [seen] = await rows<{ calls: string; first: string }>(
    client,
    `SELECT count() AS calls, min(timestamp) AS first FROM events WHERE ${WINDOW_SQL} AND anonymous_id != '' AND user_id = ''`,
    window,
  )
  scan.calls = Number(seen?.calls ?? 0)
  if (scan.calls === 0) return scan

  const stamp = { now: chTime(now) }
  const before = await stamped(client, stamp)
  const agents = (await rows<{ user_agent: string }>(client, DISTINCT_AGENTS_SQL, { ...window, max_agents: MAX_AGENTS })).map((r) => r.user_agent)
  const bots = agents.filter((agent) => isbot(agent))
  scan.agents = agents.length
  scan.botAgents = bots.length
  for (const chunk of chunks(bots, AGENT_CHARS_PER_INSERT)) {
    await client.command({ query: MARK_AGENTS_SQL, query_params: { ...window, ...stamp, agents: chunk } })
  }

  // Behaviour is judged over whole UTC days, from the first the window's calls are stamped with.
  const first = Date.parse(`${seen!.first.replace(' ', 'T')}Z`)
  const dayFrom = new Date(Math.floor(first / DAY_MS) * DAY_MS)
  await client.command({ query: MARK_BEHAVIOUR_SQL, query_params: { ...window, ...stamp, day_from: chTime(dayFrom) } })

  const after = await stamped(client, stamp)
  scan.marked = { user_agent: after.user_agent - before.user_agent, behaviour: after.behaviour - before.behaviour }
  return scan
}

/**
 * The visitors marked at the scan's time, by reason: counted before and after
 * its inserts, as an INSERT … SELECT does not say what it wrote in chDB. Only a
 * scan stamped with the same millisecond could blur the count (a log line's).
 */
async function stamped(client: EventStore['client'], stamp: { now: string }): Promise<BotScan['marked']> {
  const found = await rows<{ reason: string; n: string }>(
    client,
    `SELECT reason, uniqExact(org_id, anonymous_id) AS n FROM bot_visitors WHERE detected_at = {now:DateTime64(3, 'UTC')} GROUP BY reason`,
    stamp,
  )
  const count = (reason: string) => Number(found.find((f) => f.reason === reason)?.n ?? 0)
  return { user_agent: count('user_agent'), behaviour: count('behaviour') }
}

/** The agents in runs of at most `chars` characters (one agent longer than that is a run of its own). */
function chunks(agents: string[], chars: number): string[][] {
  const out: string[][] = []
  let run: string[] = []
  let size = 0
  for (const agent of agents) {
    if (run.length > 0 && size + agent.length > chars) {
      out.push(run)
      run = []
      size = 0
    }
    run.push(agent)
    size += agent.length
  }
  if (run.length > 0) out.push(run)
  return out
}
