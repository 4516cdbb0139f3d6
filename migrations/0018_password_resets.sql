-- Forgotten passwords (docs/accounts.md): a link sent by email that works once,
-- for an hour. Only the SHA-256 of the link's token is kept, so a copy of the
-- database opens no account.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at);
