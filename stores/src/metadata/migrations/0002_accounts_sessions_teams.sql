-- People who sign in, their sessions, their organisations and what each organisation keeps.
-- Why: issue 4 (sign-in, organisations, team, settings, permissions). Every
--   /api and /api-v2 call resolves a session to a user, and every organisation
--   call a membership; invitations and settings hang off the organisation.
-- Cost: new tables only, nothing to backfill. Organisations made before this
--   migration have no members: a staff member or a re-created organisation takes them up.

-- A person, whatever the provider. The address is kept lowercased: one account per address.
CREATE TABLE IF NOT EXISTS users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  -- Staff reach /admin and /api-v2/admin/*. The first account on a fresh install is staff.
  is_staff boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Built-in provider: a password per local account. Absent for people who sign in elsewhere.
-- password_hash is 'scrypt$N$r$p$salt$hash' (base64url parts): the parameters travel with
-- the hash so they can be raised later without invalidating old passwords.
CREATE TABLE IF NOT EXISTS local_accounts (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- External OIDC: the provider's (issuer, subject) pair names a user; the address may change there.
CREATE TABLE IF NOT EXISTS user_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);

-- Server-side sessions. id is the SHA-256 of the cookie's secret, so a leaked table opens no session.
CREATE TABLE IF NOT EXISTS sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
-- Serves the sweep of expired sessions and "sign out everywhere" by user.
CREATE INDEX IF NOT EXISTS sessions_user_id ON sessions (user_id);
CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at);

CREATE TABLE IF NOT EXISTS memberships (
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id)
);
-- Serves "my organisations" (GET /api/users/me); the primary key serves the guard's look-up.
CREATE INDEX IF NOT EXISTS memberships_user_id ON memberships (user_id);

-- Invitations: token_hash is the SHA-256 of the link's secret. Status is derived:
-- accepted_at set = accepted; else expires_at past = expired; else pending.
CREATE TABLE IF NOT EXISTS invitations (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
  token_hash text NOT NULL UNIQUE,
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES users (id) ON DELETE SET NULL
);
-- One open invitation per address and organisation: inviting again renews it.
CREATE UNIQUE INDEX IF NOT EXISTS invitations_open ON invitations (org_id, email) WHERE accepted_at IS NULL;

-- Organisation settings (part 3). A missing row means the defaults: UTC, no company paths.
CREATE TABLE IF NOT EXISTS org_settings (
  org_id text PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
  timezone text NOT NULL DEFAULT 'UTC',
  company_paths jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A user's preferences (part 1 §3). A missing row means the defaults.
CREATE TABLE IF NOT EXISTS user_preferences (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  is_menu_collapsed boolean NOT NULL DEFAULT false,
  default_org_url_code text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The built-in provider's signing keys, shared by every api process of an install.
-- One row per purpose; the private key is a JWK (fl0's own tokens only open a session
-- within minutes, so rotation is deleting the row: a new key is made on next start).
CREATE TABLE IF NOT EXISTS signing_keys (
  purpose text PRIMARY KEY,
  kid text NOT NULL,
  alg text NOT NULL,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
