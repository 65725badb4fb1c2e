-- 0002 lexicon: the data dictionary (spec part 2, Lexicon): each organisation's
-- track event names, each event's properties and the user and company traits,
-- with the types ClickHouse inferred for them.
--
-- Why here and not in the metadata store: the workers role opens only the bus
-- and the events store (server/src/stores.ts), so the dictionary lives where
-- the worker can write it; and ClickHouse's own JSON type does the flattening
-- (nested objects become dotted paths) and the type inference, so the types
-- the lexicon shows are the types the metric engine meets when it reads
-- properties.<path> from `events`. The worker parses nothing on the event loop.
--
-- How it is fed: the lexicon worker (workers/src/lexicon) inserts the bus
-- records, unparsed, into lexicon_input, a Null table that keeps nothing; the
-- materialised views below turn each inserted block into distinct dictionary
-- rows. The dictionary tables hold sets (every column is in the sort key, no
-- counts, no times), so inserting the same records twice (at-least-once
-- delivery, a replay after a restart) changes nothing a reader sees: readers
-- GROUP BY the key and never depend on merges having happened.
--
-- Volumes are not kept here: the 30-day volume is counted from `events` at read
-- time (ORDER BY (org_id, event, timestamp) makes that one range per
-- organisation), so it is exact whatever the bus replays.
--
-- Types are stored as ClickHouse names (String, Int64, DateTime64(9),
-- Array(Nullable(String)), ...); what they mean to the lexicon, and how
-- conflicting observations resolve, is decided when reading
-- (api/src/lexicon/types.ts), so it can change without a backfill.
--
-- Cost: four small tables and three views. Backfill: the last statement copies
-- the names, paths and traits of the events already stored (one read of
-- `events`' org_id, type, event, properties and traits); rerunning it is
-- harmless, as every write here is.

CREATE TABLE IF NOT EXISTS lexicon_input
(
    org_id String,
    type LowCardinality(String),
    event String,
    properties JSON,
    traits JSON
)
ENGINE = Null;

-- ORDER BY (org_id, event): the Events tab and the mapping list read one
-- organisation's names.
CREATE TABLE IF NOT EXISTS lexicon_events
(
    org_id String,
    event String
)
ENGINE = ReplacingMergeTree
ORDER BY (org_id, event);

-- ORDER BY (org_id, event, path, value_type): one event's properties (the
-- expanded row, the event filter's property list) are one range; a path seen
-- with two types is two rows, resolved when read.
CREATE TABLE IF NOT EXISTS lexicon_properties
(
    org_id String,
    event String,
    path String,
    value_type LowCardinality(String)
)
ENGINE = ReplacingMergeTree
ORDER BY (org_id, event, path, value_type);

-- ORDER BY (org_id, entity, name, value_type): the Traits tab and the audience
-- trait look-up read one organisation's traits, of one entity or both.
-- entity: 'user' (identify calls) or 'company' (group calls).
CREATE TABLE IF NOT EXISTS lexicon_traits
(
    org_id String,
    entity LowCardinality(String),
    name String,
    value_type LowCardinality(String)
)
ENGINE = ReplacingMergeTree
ORDER BY (org_id, entity, name, value_type);

-- Track calls only: page and screen names are not events a metric can count
-- (their `event` is empty in `events`), so they are not in the dictionary.
CREATE MATERIALIZED VIEW IF NOT EXISTS lexicon_events_mv TO lexicon_events AS
SELECT org_id, event
FROM lexicon_input
WHERE lexicon_input.type = 'track' AND lexicon_input.event != ''
GROUP BY org_id, event;

CREATE MATERIALIZED VIEW IF NOT EXISTS lexicon_properties_mv TO lexicon_properties AS
SELECT org_id, event, p.1 AS path, p.2 AS value_type
FROM lexicon_input
ARRAY JOIN JSONAllPathsWithTypes(properties) AS p
WHERE lexicon_input.type = 'track' AND lexicon_input.event != ''
GROUP BY org_id, event, path, value_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS lexicon_traits_mv TO lexicon_traits AS
SELECT org_id, if(lexicon_input.type = 'group', 'company', 'user') AS entity, t.1 AS name, t.2 AS value_type
FROM lexicon_input
ARRAY JOIN JSONAllPathsWithTypes(traits) AS t
WHERE lexicon_input.type IN ('identify', 'group')
GROUP BY org_id, entity, name, value_type;

INSERT INTO lexicon_input (org_id, type, event, properties, traits)
SELECT org_id, type, event, properties, traits FROM events
WHERE type IN ('track', 'identify', 'group');
