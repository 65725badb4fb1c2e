-- 0008 event keys: the event writer's duplicate check as point look-ups.
--
-- Why: event_ids (0005) answered "which of these ids are stored?" from its primary
-- key, but a MergeTree's key finds granules, not rows: 2,000 random ids touch as
-- many granules, and at ten million stored events the look-up read most of the
-- table, 52–160 ms a batch on two cores, as much as inserting the batch. The writer
-- fell behind a 10,000 events/s ingest while the dashboard read (bench/README.md).
-- EmbeddedRocksDB is a key-value table: the same 2,000 ids take 15 ms at any size.
--
-- Kept by a materialised view as events are inserted, as event_ids was: a key is
-- here exactly when its event is in `events`. Key: org_id, NUL, message_id (no
-- organisation id holds a NUL). Writing a key twice keeps one.
-- Cost: the key and a small value a stored event, in RocksDB's files beside the
-- tables. Backfill: one read of two columns of `events` (seconds at ten million
-- rows); rerunning it writes the same keys. event_ids and its view go.
CREATE TABLE IF NOT EXISTS event_keys
(
    key String
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key;

CREATE MATERIALIZED VIEW IF NOT EXISTS event_keys_mv TO event_keys AS
SELECT concat(org_id, '\0', message_id) AS key FROM events;

INSERT INTO event_keys SELECT concat(org_id, '\0', message_id) FROM events;

DROP VIEW IF EXISTS event_ids_mv;

DROP TABLE IF EXISTS event_ids;
