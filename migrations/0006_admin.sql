-- Issue 5: who changed a person's role or status, and the email outbox.

-- One row per change an admin made to an account (shown in the admin's
-- user details). Never updated or deleted.
CREATE TABLE user_changes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    changed_by INTEGER NOT NULL REFERENCES users (id),
    field      TEXT NOT NULL CHECK (field IN ('role', 'status')),
    old_value  TEXT NOT NULL,
    new_value  TEXT NOT NULL,
    changed_at TEXT NOT NULL
);
CREATE INDEX user_changes_user ON user_changes (user_id);

-- Messages to send; written in the same transaction as what they announce,
-- sent afterwards by the mailer (docs/operations.md). `sent_at` is set when
-- SMTP accepted the message, or when no SMTP is configured and it was logged.
CREATE TABLE email_outbox (
    id         INTEGER PRIMARY KEY,
    to_email   TEXT NOT NULL,
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_try_at TEXT NOT NULL,
    sent_at    TEXT,
    delivery   TEXT CHECK (delivery IN ('smtp', 'logged'))
);
CREATE INDEX email_outbox_unsent ON email_outbox (next_try_at) WHERE sent_at IS NULL;

-- The admin list filters by date and status and sorts newest first.
CREATE INDEX surveys_created ON surveys (created_at) WHERE deleted_at IS NULL;
