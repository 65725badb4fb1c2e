-- Sign-in against a hostile network (issue 17).
--
-- Local accounts prove their address: a new one signs in only once its owner
-- has followed the link e-mailed to it. Accounts made before this migration
-- were used as they were: they count as verified.
ALTER TABLE local_accounts ADD COLUMN IF NOT EXISTS email_verified_at timestamptz;
UPDATE local_accounts SET email_verified_at = created_at WHERE email_verified_at IS NULL;

-- The links fl0 e-mails (confirm an address, reset a password), each usable
-- once: stored by the sha256 of its secret (the e-mail holds the secret),
-- deleted when used, when a newer link of the same kind is used, or expired.
CREATE TABLE IF NOT EXISTS email_links (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS email_links_user ON email_links (user_id, purpose);

-- The built-in provider's ID tokens already turned into a session (their
-- jti), kept until they expire: a token opens one session, never a second.
CREATE TABLE IF NOT EXISTS used_id_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- Sign-in, sign-up and e-mail-link attempts per address and per account, in
-- the layout rate-limiter-flexible's PostgreSQL store reads and writes
-- (api/src/auth/throttle.ts): every api process of a cluster counts in one place.
CREATE TABLE IF NOT EXISTS auth_throttle (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
