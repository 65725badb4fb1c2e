-- 0016 activity spans: each pair of ids' activity per half hour, its first and its last
-- moment, so that a person's visits are counted from a few rows instead of every event.
--
-- Why: the people list shows each person's visits (query/src/people/identity.ts rule 5: a
-- new visit after every gap of more than 30 minutes between two activity events). It read
-- the page's people's events from `events`, whose order (org_id, event, timestamp) does
-- not hold a person's events together: at 10 million demo events the first page's 20
-- people had events in 1,236 of the table's 1,530 granules, the bloom filter indexes on
-- the ids skipped 8, and the count read the ids of every event, about 1.1 s of the list's
-- 1.4 s (bench/README.md). Here a person's rows are a few ranges of the key: their user
-- id's, and each of their anonymous ids'.
--
-- Exact, not an approximation, while a visit ends after a gap of 30 minutes or more
-- (SESSION_GAP_MS, which api/src/people/list.ts checks): two moments of one half hour are
-- less than 30 minutes apart, so no visit starts inside a span, and a gap of more than 30
-- minutes always runs from one span's last moment to another's first. The visits counted
-- over the spans' first and last moments are the visits counted over every event. Spans
-- of one person's several ids (a user id, the anonymous ids linked to it) may overlap;
-- counting over their moments sorted together is the same rule.
--
-- half_hour: the half hours since 1970-01-01 00:00 UTC, rounded down (negative before it:
-- events go back to 1900). AggregatingMergeTree with min/max: a block inserted twice, a
-- replayed bus, the backfill overlapping the view, all leave the same spans; readers need
-- no FINAL, since the moments of unmerged rows are real activity of the same half hour.
-- ORDER BY (org_id, user_id, anonymous_id, half_hour): a page of people's rows is found as
-- their rows in events are named (PEOPLE_ROWS_SQL: user ids, and anonymous ids without a
-- user id), here by the key.
--
-- Cost: one row per pair of ids and half hour of activity once merged (1.4 million rows,
-- 39 MB compressed, at the demo's 10 million events); each insert into `events` also
-- groups its activity rows by pair and half hour. Backfill: the INSERT at the end reads
-- `events` once (5.5 s at 10 million events); rerunning it is harmless.
CREATE TABLE IF NOT EXISTS activity_spans
(
    org_id String,
    user_id String,
    anonymous_id String,
    half_hour Int64,
    first_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_at SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
ORDER BY (org_id, user_id, anonymous_id, half_hour);

-- The half hour by integer division: 2,520,000,000,000 ms is 1,400,000 half hours, so the
-- dividend stays positive back to 1890 and intDiv (which rounds toward zero) rounds down.
CREATE MATERIALIZED VIEW IF NOT EXISTS activity_spans_mv TO activity_spans AS
SELECT org_id, user_id, anonymous_id,
       intDiv(toUnixTimestamp64Milli(timestamp) + 2520000000000, 1800000) - 1400000 AS half_hour,
       min(timestamp) AS first_at,
       max(timestamp) AS last_at
FROM events
WHERE type IN ('page', 'screen', 'track') AND (user_id != '' OR anonymous_id != '')
GROUP BY org_id, user_id, anonymous_id, half_hour;

INSERT INTO activity_spans
SELECT org_id, user_id, anonymous_id,
       intDiv(toUnixTimestamp64Milli(timestamp) + 2520000000000, 1800000) - 1400000 AS half_hour,
       min(timestamp),
       max(timestamp)
FROM events
WHERE type IN ('page', 'screen', 'track') AND (user_id != '' OR anonymous_id != '')
GROUP BY org_id, user_id, anonymous_id, half_hour;
