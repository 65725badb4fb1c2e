-- 0013 context places: the context's location and time zone as columns of their own.
--
-- Why: a person's profile, a company's visitors and its feed show where people are, the latest
-- context.location (city, region, country) and context.timezone their events carry. Read from the
-- context's JSON text, that is every one of their rows' context: the largest column (525 MiB of
-- 10 million demo events, against 8 MiB for the time zones alone), read whole granule by granule,
-- since a person's rows are spread over all of them. For the demo's most active person (56,655
-- events) the read took 1.45 s, and 0.33 s from these columns (bench/README.md).
-- The ingest writes them from the context it has in hand (ingest/src/normalize.ts); a row that
-- comes without them (a record published before this version, a test's or the bench's rows) gets
-- them from its context when stored, by the DEFAULT: the same text query/src/context.ts's
-- contextText reads (a string as it is, a number or boolean as written, '' when absent or null).
-- Cost: the columns are added at once; MATERIALIZE then writes them into the existing parts, and
-- the first start after the upgrade waits for it (about 2 s a million events here; waiting, the
-- migration never runs beside a background mutation of its own). Backfill: that mutation.
ALTER TABLE events ADD COLUMN IF NOT EXISTS context_city LowCardinality(String) DEFAULT multiIf(JSONType(context, 'location', 'city') = 'String', JSONExtractString(context, 'location', 'city'), JSONType(context, 'location', 'city') = 'Null', '', JSONExtractRaw(context, 'location', 'city'));
ALTER TABLE events ADD COLUMN IF NOT EXISTS context_region LowCardinality(String) DEFAULT multiIf(JSONType(context, 'location', 'region') = 'String', JSONExtractString(context, 'location', 'region'), JSONType(context, 'location', 'region') = 'Null', '', JSONExtractRaw(context, 'location', 'region'));
ALTER TABLE events ADD COLUMN IF NOT EXISTS context_country LowCardinality(String) DEFAULT multiIf(JSONType(context, 'location', 'country') = 'String', JSONExtractString(context, 'location', 'country'), JSONType(context, 'location', 'country') = 'Null', '', JSONExtractRaw(context, 'location', 'country'));
ALTER TABLE events ADD COLUMN IF NOT EXISTS context_timezone LowCardinality(String) DEFAULT multiIf(JSONType(context, 'timezone') = 'String', JSONExtractString(context, 'timezone'), JSONType(context, 'timezone') = 'Null', '', JSONExtractRaw(context, 'timezone'));

ALTER TABLE events MATERIALIZE COLUMN context_city, MATERIALIZE COLUMN context_region, MATERIALIZE COLUMN context_country, MATERIALIZE COLUMN context_timezone SETTINGS mutations_sync = 1;
