-- Sign-in against a hostile network (issue 17).
--
-- Sign-ups waiting for their address to be confirmed. A local account is
-- made only when the link e-mailed to the address is followed, with the
-- password chosen at sign-up typed again: until then there is no account, so
-- signing in answers as for any unknown address, and a link followed by
-- someone who did not sign up (the address's owner, sent it by a stranger)
-- makes nothing. Stored by the sha256 of the link's secret (the e-mail holds
-- the secret); deleted when used, when the address gets an account, or expired.
CREATE TABLE IF NOT EXISTS pending_signups (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  password_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pending_signups_email ON pending_signups (email);

-- The password-reset links fl0 e-mails, each usable once: stored by the
-- sha256 of its secret, deleted when used (with every other of the account's),
-- or expired.
CREATE TABLE IF NOT EXISTS email_links (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('reset-password')),
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
