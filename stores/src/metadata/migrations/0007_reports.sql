-- Reports: custom reports, a named page of saved metrics per organisation
-- (spec part 3 §2, §3, §7).
-- Why: issue 7. The reports list shows each with its metric count and when it
--   last changed; the editor reads a report with its metrics' ids in order and
--   saves name, description and the metric list.
-- Cost: new tables only, nothing to backfill. Feature reports are computed
--   from features (0003) and store nothing.

CREATE TABLE IF NOT EXISTS reports (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Serves the list, most recently changed first, and every look-up of one
-- report within its organisation (org_id first).
CREATE INDEX IF NOT EXISTS reports_org_updated ON reports (org_id, updated_at DESC);

-- A report's metrics, one row each, in the report's order (position). A row
-- per metric rather than an array so that deleting a metric takes it out of
-- every report (ON DELETE CASCADE) and counts stay true without a sweep.
CREATE TABLE IF NOT EXISTS report_metrics (
  report_id text NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  metric_id text NOT NULL REFERENCES metrics (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (report_id, metric_id)
);
-- Serves the cascade when a metric is deleted (find its rows by metric).
CREATE INDEX IF NOT EXISTS report_metrics_metric ON report_metrics (metric_id);
