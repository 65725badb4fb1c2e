-- 0005 event ids: every stored event's (org_id, message_id), for the event writer's
-- duplicate check.
--
-- Why: delivery is at least once (a client retry, a bus replay after a crash between
-- insert and commit), and the writer stores an event once per organisation and
-- message id. It used to look for the ids in `events` within two days of the batch's
-- times, because `events` is sorted by (org_id, event, timestamp) and a look-up by
-- id alone reads the organisation's whole range. So an event re-sent with a
-- timestamp more than two days away was stored twice, and the window's arithmetic on
-- a far-future time (year 9999 + 2 days) wrote a time ClickHouse could not read and
-- stopped the writer. Sorted by (org_id, message_id), this table answers "which of
-- these ids are stored?" from the primary key, whatever the events' times: no window.
--
-- Kept by a materialised view as events are inserted (by the writer, the demo, tests),
-- so an id is here exactly when its event is in `events`. ReplacingMergeTree: the
-- backfill below overlapping the view, or a block inserted twice, leaves one row.
-- Cost: about 40 bytes a stored event before compression (the id and its org), one
-- more table written per insert. Backfill: the INSERT below, one read of two columns
-- of `events` (seconds at ten million rows); rerunning it adds nothing.
CREATE TABLE IF NOT EXISTS event_ids
(
    org_id String,
    message_id String
)
ENGINE = ReplacingMergeTree
ORDER BY (org_id, message_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS event_ids_mv TO event_ids AS
SELECT org_id, message_id FROM events;

INSERT INTO event_ids SELECT org_id, message_id FROM events;
