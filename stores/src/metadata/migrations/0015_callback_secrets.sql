-- Identity callback secrets and refusal counts (issue 17).
-- Why: GET /i/callback (ingest/src/callback.ts) is open to anyone, so anyone could
--   link any visitor id to any person. An organisation admin may now set a shared
--   secret (api/src/routes/callback-secret.ts); a partner holding it signs its
--   callbacks (hex HMAC-SHA256, docs/identification.md), and only signed links
--   count for that organisation. The ingest reads the secret by organisation
--   through a cached look-up (ingest/src/callback/secrets.ts). Which
--   organisations require signed links is mirrored in ClickHouse for the
--   resolution's query (clickhouse/0007_callback_link_scope.sql).
--   callback_refusals: what the callback refused, by UTC day and reason, summed
--   across every ingest process (each adds its own counts every second or so,
--   ingest/src/callback/refusals.ts); the admin summary shows the totals.
-- Cost: two small tables: one row per organisation with a secret, one per day
--   and reason with a refusal. Backfill: none (no organisation has a secret yet).
-- The secret is kept as it is (not hashed): checking an HMAC needs the key itself.
CREATE TABLE IF NOT EXISTS callback_secrets (
  org_id text PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
  secret text NOT NULL CHECK (secret ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text
);

CREATE TABLE IF NOT EXISTS callback_refusals (
  day date NOT NULL,
  reason text NOT NULL,
  count bigint NOT NULL CHECK (count >= 0),
  PRIMARY KEY (day, reason)
);
