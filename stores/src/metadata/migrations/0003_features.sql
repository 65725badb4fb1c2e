-- Features: a named set of event names per organisation (spec part 1 §2, §3, §7).
-- Why: issue 6. The features screen lists, creates, edits and deletes them; the
--   metric editor and the lexicon (part 2) read which events make up a feature.
-- Cost: new tables only, nothing to backfill.

CREATE TABLE IF NOT EXISTS features (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One name per organisation, whatever its case ('Checkout' and 'checkout' would
-- be indistinguishable in a list). Also serves the list, ordered by name.
CREATE UNIQUE INDEX IF NOT EXISTS features_org_name ON features (org_id, lower(name));

-- The feature's events, one row each, in the order they were added (position).
-- A row per event rather than an array so that "which features use this event"
-- (lexicon, metrics) is a plain indexed query.
CREATE TABLE IF NOT EXISTS feature_events (
  feature_id text NOT NULL REFERENCES features (id) ON DELETE CASCADE,
  event_name text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (feature_id, event_name)
);
CREATE INDEX IF NOT EXISTS feature_events_event_name ON feature_events (event_name);
