-- Notifications (docs/api.md, Notifications): what concerns a person, written in the
-- transaction of the event, synced to their phones (entity `notification`) and marked
-- read there (`notification.read`). `link` is where opening one goes in the app;
-- `params` the values of its words. A person keeps their 200 latest.
CREATE TABLE notifications (
    id         INTEGER PRIMARY KEY,
    uid        TEXT NOT NULL UNIQUE,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    kind       TEXT NOT NULL,
    link       TEXT NOT NULL,
    params     TEXT NOT NULL DEFAULT '{}',
    read_at    TEXT,
    version    INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX notifications_user_version ON notifications (user_id, version);
CREATE INDEX notifications_user_id ON notifications (user_id, id);
