-- 0004 identities and traits: two tables derived from `events`, kept by materialised
-- views as the event writer inserts, so that the questions every audience (and any
-- people query) asks first are read from a few thousand rows instead of all events.
--
-- Why: an audience needs, for every user, who they are (their user id and the
-- anonymous ids linked to it: api/src/people/identity.ts's rules), their latest
-- traits, their company and their last activity. Answered from `events` alone that is
-- a read of every event of the organisation (user_id, anonymous_id, timestamp, type)
-- plus the JSON traits of the whole event = '' range, where identify and group calls
-- sit among all the page views: measured on the demo at one million events, 95 ms of
-- CPU for the identities and 200 ms per trait read, so seconds at ten million. From
-- these tables: a few milliseconds for the identities, 10 ms for four traits.
--
-- identity_pairs: one row per (user_id, anonymous_id) an event carried, with when the
-- pair was first seen (the first event carrying both ids links them) and its latest
-- activity (page, screen and track calls: identify, group and alias say who, not
-- what). AggregatingMergeTree with min/max: a block inserted twice, a replayed bus, the
-- backfill below overlapping the view, all leave the same answer. ORDER BY (org_id,
-- user_id, anonymous_id): the linked pairs (both ids set) are the user ids' ranges;
-- the anonymous-only pairs are the user_id = '' range, read by anonymous id.
--
-- trait_calls: the identify and group calls with their traits, apart from the page
-- views and track calls they sit among in `events`, each distinct content kept once.
-- Clients send the same traits on every identify (analytics.js at each sign-in, a
-- backend at each session): the demo's 272,000 identify calls at ten million events
-- say a few thousand different things. So a call is keyed by who made it and a hash
-- of its traits, and a ReplacingMergeTree(timestamp) keeps the latest call of each
-- key. What readers want, each trait's latest non-empty value, is the same from the
-- calls and from these: a call whose traits another, later call repeated adds
-- nothing. Readers need no FINAL: a duplicate not merged yet is a real call, and the
-- latest value by time is the same with or without it. ORDER BY (org_id, type,
-- user_id, anonymous_id, group_id, traits_hash): user traits are the 'identify'
-- range, memberships and company traits the 'group' range, each read whole per
-- organisation.
--
-- Caveat: these keep what calls said whatever their time, so a call stamped ahead of
-- now (a client clock ahead, when it sent no sentAt to correct it by) moves a pair's
-- latest activity, or sets a trait, as soon as it arrives. Links and membership count
-- only pairs first seen by now; actions are read from `events` and cut at now.
--
-- Cost: two tables and two views; every insert into `events` also writes its
-- identify and group rows (a few percent) and one row per distinct pair in the block.
-- Backfill: the two INSERTs at the end read `events` once each; rerunning them is
-- harmless.

CREATE TABLE IF NOT EXISTS identity_pairs
(
    org_id String,
    user_id String,
    anonymous_id String,
    first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_active SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
ORDER BY (org_id, user_id, anonymous_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS identity_pairs_mv TO identity_pairs AS
SELECT org_id, user_id, anonymous_id,
       min(timestamp) AS first_seen,
       maxIf(timestamp, type IN ('page', 'screen', 'track')) AS last_active
FROM events
WHERE user_id != '' OR anonymous_id != ''
GROUP BY org_id, user_id, anonymous_id;

CREATE TABLE IF NOT EXISTS trait_calls
(
    org_id String,
    type LowCardinality(String),
    user_id String,
    anonymous_id String,
    group_id String,
    traits_hash UInt64,
    timestamp DateTime64(3, 'UTC'),
    traits JSON
)
ENGINE = ReplacingMergeTree(timestamp)
ORDER BY (org_id, type, user_id, anonymous_id, group_id, traits_hash);

CREATE MATERIALIZED VIEW IF NOT EXISTS trait_calls_mv TO trait_calls AS
SELECT org_id, type, user_id, anonymous_id, group_id, cityHash64(toJSONString(traits)) AS traits_hash, timestamp, traits
FROM events
WHERE type IN ('identify', 'group');

INSERT INTO identity_pairs
SELECT org_id, user_id, anonymous_id, min(timestamp), maxIf(timestamp, type IN ('page', 'screen', 'track'))
FROM events
WHERE user_id != '' OR anonymous_id != ''
GROUP BY org_id, user_id, anonymous_id;

INSERT INTO trait_calls
SELECT org_id, type, user_id, anonymous_id, group_id, cityHash64(toJSONString(traits)), timestamp, traits
FROM events
WHERE type IN ('identify', 'group');
