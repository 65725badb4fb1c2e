-- 0012 context as text: events.context becomes a String holding the call's context as JSON text.
--
-- Why: a JSON column is parsed into subcolumns on every insert, and the context is the largest
-- of an event's three (page, user agent, library, locale, campaign...): in the event writer's
-- insert it cost about 7 µs of chDB's CPU per event, a quarter of the insert (bench/README.md,
-- "Issue 19"), and the writer is what falls behind first under a full /v1/batch load. Nothing
-- filters or groups on the context: four readers take a few fields of one person's or one
-- company's events (location, time zone, puid), which JSONExtract reads from the text
-- (query/src/context.ts). properties and traits stay JSON: metrics, audiences and the lexicon
-- query inside them.
-- The constraint keeps what the JSON type refused: a context that is not an object fails the
-- insert, so the writer sets that record aside as poison as before (workers/src/event-writer).
-- Cost: the column is rewritten in place (a mutation; about 2 s a million events here) on the
-- first start after the upgrade. Backfill: none.
ALTER TABLE events MODIFY COLUMN context String;

ALTER TABLE events ADD CONSTRAINT IF NOT EXISTS context_is_object CHECK startsWith(context, '{');
