-- Organisations and their event sources.
-- Why: every event is attributed to a source through its write key, and every
--   source to one organisation; the dashboard addresses organisations by url_code.
-- Cost: new tables, nothing to backfill.
CREATE TABLE IF NOT EXISTS organisations (
  id text PRIMARY KEY,
  name text NOT NULL,
  url_code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS sources (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('snippet', 'segment')),
  name text NOT NULL,
  -- The write key authenticates ingest; unique so a key names exactly one source.
  write_key text NOT NULL UNIQUE,
  -- The site's domain, for snippet sources.
  url text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS sources_org_id ON sources (org_id);
