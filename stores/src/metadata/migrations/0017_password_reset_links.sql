-- Password-reset links in a table of their own (issue 17's review).
-- Why: 0014 stored them in email_links with a purpose column that only ever
--   held 'reset-password'; the code now reads password_reset_links. 0014 is
--   left as it was applied, so that a database that ran it moves here.
-- Backfill: the links not yet used or expired move over (one hour at most);
--   email_links goes.
CREATE TABLE IF NOT EXISTS password_reset_links (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS password_reset_links_user ON password_reset_links (user_id);

-- A database that applied 0014 while it briefly made password_reset_links
--   itself (between 664d6b1 and 1091d90) has no email_links: nothing moves.
--   (Changed in place from an unconditional move, which such a database
--   refused, so fl0 would not start on it; where email_links exists the two
--   do the same.)
DO $$
BEGIN
  IF to_regclass('email_links') IS NOT NULL THEN
    INSERT INTO password_reset_links (id, user_id, expires_at, created_at)
    SELECT id, user_id, expires_at, created_at FROM email_links WHERE purpose = 'reset-password'
    ON CONFLICT (id) DO NOTHING;
    DROP TABLE email_links;
  END IF;
END
$$;
