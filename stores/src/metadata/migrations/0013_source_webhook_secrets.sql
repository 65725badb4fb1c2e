-- Webhook secrets of Segment-type sources.
-- Why: a Segment workspace (its Webhooks destination) or a RudderStack one
--   (its Webhook destination) forwards events to /v1/webhooks/{source id}
--   (ingest/src/webhook.ts), without code. The URL names the source; the
--   secret proves the sender: Segment signs each body with it (X-Signature,
--   hex HMAC-SHA1), RudderStack sends it in a header (Authorization: Bearer).
--   Snippet sources have none: browsers send through the write key.
-- Cost: one nullable column; segment sources made before this migration get a
--   secret here (one UPDATE over the few rows of `sources`); new ones get one
--   from createSource (stores/src/metadata/sources.ts).
-- The backfill's secrets: 32 bytes as 64 hex characters, as createSource makes
--   them, drawn from gen_random_uuid() (core PostgreSQL since 13, in PGlite too;
--   pg_strong_random underneath, where random() is not fit for secrets): two
--   UUIDs hold 244 random bits, and sha256 spreads them over the 64 characters.
ALTER TABLE sources ADD COLUMN IF NOT EXISTS webhook_secret text;

UPDATE sources
SET webhook_secret = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex')
WHERE type = 'segment' AND webhook_secret IS NULL;

-- Every segment source has one, and only they do: the ingest answers a
-- source without one as having no webhook.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'sources_webhook_secret_segment_only') THEN
    ALTER TABLE sources ADD CONSTRAINT sources_webhook_secret_segment_only
      CHECK ((type = 'segment') = (webhook_secret IS NOT NULL));
  END IF;
END
$$;
