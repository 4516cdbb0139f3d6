-- Accounts, sessions and small server state.
-- Never edit a migration once it has landed: add a new numbered file instead.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL,               -- stored lower-case
    password_hash TEXT NOT NULL,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    phone_number  TEXT,                        -- E.164 when it could be parsed
    country       TEXT CHECK (country IN ('DRC', 'BDI', 'RWA', 'UGA', 'TZA', 'KEN')),
    username      TEXT,
    role          TEXT NOT NULL DEFAULT 'user'
                  CHECK (role IN ('farmer', 'user', 'admin', 'super_admin', 'field_agent')),
    status        TEXT NOT NULL DEFAULT 'active'
                  CHECK (status IN ('active', 'inactive', 'pending')),
    location      TEXT,
    avatar        TEXT,                        -- content hash of the avatar in the media store
    business_name TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    deleted_at    TEXT                         -- set when the account was erased (docs/accounts.md)
);

CREATE UNIQUE INDEX users_email_unique ON users (email) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX users_username_unique ON users (username COLLATE NOCASE)
    WHERE username IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX users_role ON users (role);

-- One row per issued token; a token whose row is gone no longer works.
CREATE TABLE sessions (
    jti        TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Small key/value facts about this installation (e.g. demo content loaded).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
