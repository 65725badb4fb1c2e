-- Metrics: a named, categorised metric definition per organisation (spec part 2 §3, §7).
-- Why: issue 7. The metrics list groups them by category, the editor reads and
--   saves them, and reports and scoring models (part 3) refer to them by id.
-- Cost: a new table only, nothing to backfill.
--
-- The definition (events, filters, operation, graph…) is kept whole as jsonb:
-- it is read and written as one value by the editor and the graph engine, and
-- nothing queries inside it. Its shape is contracts/src/metrics.ts; a stored
-- definition that no longer parses is listed as 'Metric properties are not set'.

CREATE TABLE IF NOT EXISTS metrics (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  category text NOT NULL DEFAULT 'other',
  definition jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Serves the list grouped by category and ordered by name, and every look-up
-- of one metric within its organisation (org_id first).
CREATE INDEX IF NOT EXISTS metrics_org_category ON metrics (org_id, category, lower(name));
