-- Profile traits: which traits the Traits card of the company and user
-- profiles shows, chosen per organisation (spec part 3 §2 company profile,
-- §3 "Profile trait visibility", §7 GET/POST …/profile_traits/{company|user}).
-- Why: issue 8. The card's add button picks the traits everyone in the
--   organisation sees on every profile of that type.
-- Shape: one row per choice made (name, hidden); a trait nobody has chosen
--   has no row and follows the defaults of contracts/people.ts
--   (DEFAULT_VISIBLE_TRAITS), so an organisation that never opens the chooser
--   has no rows. `profile_type` is 'company' or 'user'.
-- Cost: a new table only, nothing to backfill.

CREATE TABLE IF NOT EXISTS profile_traits (
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  profile_type text NOT NULL CHECK (profile_type IN ('company', 'user')),
  name text NOT NULL,
  hidden boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Serves the one read (an organisation's choices for one profile type) and the upsert.
  PRIMARY KEY (org_id, profile_type, name)
);
