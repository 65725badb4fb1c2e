-- Feature selections: which events and properties make up an organisation's
-- data model (spec part 2 §2 Mapping, §3, §7).
-- Why: issue 7. The lexicon's Mapping tab ticks events in and out of the model
--   and properties into it; the scoring models (part 3) build their features
--   from what is selected here.
-- Shape: the default is "every event in, no property": only exceptions are
--   stored, one row each, so an organisation that never opens the tab has no
--   rows, and a new event is in the model from its first appearance.
--   `position` keeps the order in which the dashboard sent them.
-- Cost: new tables only, nothing to backfill.

CREATE TABLE IF NOT EXISTS feature_selection_excluded_events (
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  event_name text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (org_id, event_name)
);

CREATE TABLE IF NOT EXISTS feature_selection_included_properties (
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  event_name text NOT NULL,
  property text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (org_id, event_name, property)
);
