-- Work one server does for all (docs/operations.md, Several nodes): the payment
-- poller, the hourly housekeeping. The holder (a server's id, new at each start)
-- renews its lease while it works; another server takes it once `until_ms` (ms since
-- 1970) has passed.
CREATE TABLE leases (
    name     TEXT PRIMARY KEY,
    holder   TEXT NOT NULL,
    until_ms INTEGER NOT NULL
);
