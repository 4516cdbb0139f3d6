-- Cooperatives (docs/cooperatives.md): farmers who weigh in their harvests at a
-- collection point and sell them together. The weigh book is entries only: a
-- correction is a new entry naming the one it replaces, never an edit.
CREATE TABLE cooperatives (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    territory   TEXT NOT NULL,
    market_id   INTEGER NOT NULL REFERENCES markets (id),  -- where its sales count as market prices
    description TEXT NOT NULL DEFAULT '',
    fee_bp      INTEGER NOT NULL DEFAULT 0 CHECK (fee_bp BETWEEN 0 AND 2000),  -- its own share of a sale
    status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE cooperative_members (
    cooperative_id INTEGER NOT NULL REFERENCES cooperatives (id),
    user_id        INTEGER NOT NULL REFERENCES users (id),
    role           TEXT NOT NULL CHECK (role IN ('member', 'manager')),
    status         TEXT NOT NULL CHECK (status IN ('asked', 'active', 'removed')),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (cooperative_id, user_id)
);
CREATE INDEX cooperative_members_person ON cooperative_members (user_id);

CREATE TABLE cooperative_deliveries (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,       -- made on the phone that weighed it: applied once
    cooperative_id INTEGER NOT NULL REFERENCES cooperatives (id),
    member_id      INTEGER NOT NULL REFERENCES users (id),
    crop           TEXT NOT NULL,              -- a key of the prices' crop list
    grade          TEXT NOT NULL CHECK (grade IN ('A', 'B', 'C')),
    quantity       TEXT NOT NULL,              -- as weighed, in `unit`: "48.5"
    unit           TEXT NOT NULL CHECK (unit IN ('kg', 'bag_50kg', 'bag_100kg')),
    grams          INTEGER NOT NULL CHECK (grams >= 0),  -- 0 only in a correction that voids an entry
    delivered_on   TEXT NOT NULL,              -- YYYY-MM-DD
    place          TEXT NOT NULL,              -- the collection point
    photo          TEXT,                       -- the scale's photo: a hash in the media store
    replaces_id    INTEGER UNIQUE REFERENCES cooperative_deliveries (id),  -- a correction's entry
    note           TEXT,                       -- a correction's reason
    recorded_by    INTEGER NOT NULL REFERENCES users (id),
    created_at     TEXT NOT NULL
);
CREATE INDEX cooperative_deliveries_member ON cooperative_deliveries (member_id, id);
CREATE INDEX cooperative_deliveries_book ON cooperative_deliveries (cooperative_id, id);

-- A member says an entry is wrong; a manager answers with a correction or keeps it.
CREATE TABLE cooperative_disputes (
    id          INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL UNIQUE REFERENCES cooperative_deliveries (id),
    member_id   INTEGER NOT NULL REFERENCES users (id),
    reason      TEXT NOT NULL,
    answer      TEXT,                          -- 'corrected' or 'kept'
    answer_note TEXT,
    answered_by INTEGER REFERENCES users (id),
    created_at  TEXT NOT NULL,
    answered_at TEXT
);
