-- Audiences: saved segments of users per organisation (spec part 3 §2, §3, §7).
-- Why: issue 8. The audience list, the editor and the builder's 'Create
--   audience...' read and write them; an audience's filters may name other
--   audiences (nested audiences), which the api resolves when it counts.
-- Cost: a new table only, nothing to backfill.
--
-- The filters (matches, actions, their aggregations) are kept whole as jsonb:
-- they are read and written as one value by the editor and the audience
-- engine, and nothing queries inside them. Their shape is
-- contracts/src/audiences.ts; they are stored as the api normalised them
-- (unfinished filters left out). Member counts are not stored: the list
-- counts them from the events store when it is read, so they are never stale.
-- Names need not be unique (the specification has no such rule).

CREATE TABLE IF NOT EXISTS audiences (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  filters jsonb NOT NULL DEFAULT '{"match_aggregation":"and","matches":[],"action_aggregation":"and","actions":[]}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Serves the list, ordered by name ignoring case, and every look-up of one
-- audience within its organisation (org_id first).
CREATE INDEX IF NOT EXISTS audiences_org_name ON audiences (org_id, lower(name));
