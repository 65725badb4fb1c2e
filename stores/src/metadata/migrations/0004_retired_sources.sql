-- Identifiers of deleted sources, kept so they are never used again.
-- Why: a deleted source's write key is revoked at once, and must stay dead: it
--   may still sit in snippets on websites. New sources are created with the id
--   and key that GET /api/sources/segment and GET /api/t/snippet handed out
--   earlier (the user may paste the snippet before saving), so the create call
--   checks a posted id or key against live sources and against this table; a
--   key seen here could otherwise route another site's visitors into whichever
--   organisation claimed it.
-- Cost: one row per deleted source; nothing to backfill (sources deleted before
--   this migration left no trace, as they do not today).
-- No foreign key to organisations: the retirement outlives the organisation.
CREATE TABLE IF NOT EXISTS retired_sources (
  id text PRIMARY KEY,
  org_id text NOT NULL,
  write_key text NOT NULL UNIQUE,
  retired_at timestamptz NOT NULL DEFAULT now()
);
