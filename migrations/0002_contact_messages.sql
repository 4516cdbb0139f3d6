-- Messages sent through the contact form, kept for the team to read.
CREATE TABLE contact_messages (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    subject    TEXT NOT NULL,
    message    TEXT NOT NULL,
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,  -- the sender, when signed in
    created_at TEXT NOT NULL
);
CREATE INDEX contact_messages_created ON contact_messages (created_at);
