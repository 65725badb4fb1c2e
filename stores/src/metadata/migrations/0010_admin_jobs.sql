-- Admin jobs: the Tools page's imports, refreshes and copy (spec part 1 §2, §7;
-- docs/identification.md), and the universal table import.
-- Why: issue 9. Each runs in the api process that received the call; this row
--   says what it is doing, for the caller, for another api process (at most one
--   running job of a kind, across processes: the partial unique index below),
--   and for the streamed import's log, which a second request can follow.
-- Cost: a new table only, nothing to backfill.
--
-- A process that dies mid-job leaves its row 'running': it stops beating
-- (heartbeat_at), and the next job of the kind marks it failed once it has
-- been silent for a minute. counts and errors are jsonb because each kind counts
-- its own things (read, inserted, unchanged, skipped…); errors keeps the first
-- hundred. log holds the streamed import's progress lines (capped by the api).

CREATE TABLE IF NOT EXISTS admin_jobs (
  id text PRIMARY KEY,
  -- The order jobs started in, even within one clock tick.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  file_name text,
  started_by text REFERENCES users (id) ON DELETE SET NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  counts jsonb NOT NULL DEFAULT '{}'::jsonb,
  errors jsonb NOT NULL DEFAULT '[]'::jsonb,
  message text NOT NULL DEFAULT '',
  log text NOT NULL DEFAULT ''
);
-- One running job of a kind at a time: a second start fails on this index.
CREATE UNIQUE INDEX IF NOT EXISTS admin_jobs_one_running ON admin_jobs (kind) WHERE status = 'running';
-- The jobs list, newest first; the streamed import's "the last one of the kind".
CREATE INDEX IF NOT EXISTS admin_jobs_kind_seq ON admin_jobs (kind, seq DESC);
CREATE INDEX IF NOT EXISTS admin_jobs_seq ON admin_jobs (seq DESC);
