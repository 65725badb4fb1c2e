-- 0006 dead letters: the bus records a consumer set aside because processing them
-- failed while the store was up (workers/src/poison), one row each.
--
-- Why: no record, whatever it holds, may stop a consumer; one that fails is sent to
-- the `events.dlq` topic with its reason and the partition moves on. The topic keeps
-- the whole record for a replay; this table is what an operator reads: how many, which
-- consumer, why (the admin summary counts them), across every worker process.
-- `value` is the record cut to its first 64 KB; `value_bytes` its whole size.
--
-- ReplacingMergeTree on the record's place in the bus: a batch retried after a crash
-- sets the same record aside again, and counts once (count with FINAL or uniqExact).
-- ORDER BY (consumer, topic, partition, offset) serves that, and the summary's count
-- per consumer. Rows go after 90 days. Cost: new table, written only on failures.
-- Backfill: none.
CREATE TABLE IF NOT EXISTS dead_letters
(
    at DateTime64(3, 'UTC'),
    consumer LowCardinality(String),
    topic LowCardinality(String),
    partition UInt32,
    offset String,
    org_id String,
    reason String,
    key String,
    value String,
    value_bytes UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY (consumer, topic, partition, offset)
TTL toDateTime(at) + INTERVAL 90 DAY;
