-- 0001 events: the raw event table, one row per accepted Segment call.
--
-- Why: every screen reads events (metrics, audiences, profiles, lexicon volumes).
-- Rows come only from the event writer, which removes duplicates before it inserts
-- (on org_id and message_id), so a plain MergeTree suffices and no query needs FINAL.
-- Cost: new table. Backfill: none; replaying the bus from the start refills it.
--
-- ORDER BY (org_id, event, timestamp) serves the queries that dominate:
--   * metric graphs and funnels: one organisation, a few event names, a time range;
--   * lexicon volumes: one organisation, grouped by event over 30 days;
--   * "any event" metrics read the organisation's whole range, still one prefix.
-- Profile and identity look-ups by user or anonymous id use the bloom filters below.
-- message_id has its own bloom filter for the writer's duplicate check.
CREATE TABLE IF NOT EXISTS events
(
    org_id String,
    source_id LowCardinality(String),
    message_id String,
    type LowCardinality(String),
    event String,
    name String,
    user_id String,
    anonymous_id String,
    group_id String,
    previous_id String,
    timestamp DateTime64(3, 'UTC'),
    original_timestamp Nullable(DateTime64(3, 'UTC')),
    sent_at Nullable(DateTime64(3, 'UTC')),
    received_at DateTime64(3, 'UTC'),
    ip String,
    user_agent String,
    page_url String,
    page_path String,
    page_referrer String,
    page_title String,
    page_search String,
    properties JSON,
    traits JSON,
    context JSON,
    integrations String,
    INDEX idx_message_id message_id TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_user_id user_id TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_anonymous_id anonymous_id TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(timestamp)
ORDER BY (org_id, event, timestamp);
