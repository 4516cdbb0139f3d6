-- Throttles and budgets kept where every server sees them and a restart keeps them
-- (docs/security.md, Throttles; docs/operations.md, Several nodes). Times are
-- milliseconds since 1970. Each throttle names its rows; housekeeping drops what no
-- window can count any more.
CREATE TABLE throttle_events (
    id       INTEGER PRIMARY KEY,
    throttle TEXT NOT NULL,
    key      TEXT NOT NULL,
    at_ms    INTEGER NOT NULL
);
CREATE INDEX throttle_events_by_key ON throttle_events (throttle, key, at_ms);
CREATE INDEX throttle_events_by_age ON throttle_events (at_ms);

-- A pacer's next free turn per key.
CREATE TABLE throttle_turns (
    key     TEXT PRIMARY KEY,
    next_ms INTEGER NOT NULL
);

-- Where each account last signed in from (a few addresses each).
CREATE TABLE known_places (
    account TEXT NOT NULL,
    address TEXT NOT NULL,
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (account, address)
);
CREATE INDEX known_places_by_age ON known_places (at_ms);
