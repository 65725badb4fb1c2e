-- 0010 bots: the anonymous visitors that are crawlers or headless browsers (issue 20,
-- docs/identification.md "Bots").
--
-- Why: a crawler or a scripted browser that runs the snippet gets an anonymous id like
-- anyone, and without this each of its visits is a person on the people list, a
-- member of the company its address names and a unique user in every metric. The
-- bots worker (workers/src/bots) marks them here, by their user agent ('user_agent':
-- the isbot library's list) or by what they do ('behaviour': hundreds of short visits
-- a day from one address and user agent over the same few pages); every people,
-- company and metric query leaves their anonymous ids out (query/src/people/bots.ts).
--
-- A set: one row per visitor, written again by a rescan, which the worker avoids and
-- readers would not notice (they read the ids as an IN set). ReplacingMergeTree keeps
-- one row per key once merged. ORDER BY (org_id, anonymous_id) serves the one read:
-- an organisation's bot ids, `anonymous_id NOT IN (SELECT anonymous_id FROM
-- bot_visitors WHERE org_id = …)`, a range of the key; and the worker's check of what
-- is already marked, (org_id, anonymous_id) NOT IN (…).
-- Cost: a few dozen bytes per bot visitor; each people query builds the organisation's
-- set of bot ids once. Backfill: none here (a user agent is judged in JS, by isbot);
-- the bots worker scans the last two days' events when it starts, and older visits
-- are counted as before.
CREATE TABLE IF NOT EXISTS bot_visitors
(
    org_id String,
    anonymous_id String,
    reason LowCardinality(String),
    detected_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (org_id, anonymous_id);
