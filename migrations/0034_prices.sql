-- Market prices (docs/prices.md): what produce sells for, where, week by week.
-- Observations come from three sources: the platform's delivered order lines
-- (`sale`), field agents at markets (`agent`, synced with a uid made on the
-- phone), and admins' imports of WFP VAM price series (`import`, a uid made
-- from the row, so a file imported twice adds nothing).

-- The markets agents record at, with their territory; kept by admins. Removed
-- markets stay for the observations that name them.
CREATE TABLE markets (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    territory  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
);
CREATE UNIQUE INDEX markets_name ON markets (lower(name)) WHERE deleted_at IS NULL;

-- South Kivu's main markets, as a starting list admins edit.
INSERT INTO markets (name, territory, created_at, updated_at) VALUES
    ('Kadutu', 'Bukavu', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Nyawera', 'Bukavu', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Beach Muhanzi', 'Bukavu', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Kavumu', 'Kabare', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Walungu', 'Walungu', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Kamituga', 'Mwenga', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Uvira', 'Uvira', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Baraka', 'Fizi', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z'),
    ('Minova', 'Kalehe', '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z');

CREATE TABLE price_observations (
    id              INTEGER PRIMARY KEY,
    uid             TEXT NOT NULL UNIQUE,
    source          TEXT NOT NULL CHECK (source IN ('sale', 'agent', 'import')),
    crop            TEXT NOT NULL,
    market_id       INTEGER REFERENCES markets (id),
    -- The market's territory; for a sale, the territory named in the farmer's place.
    territory       TEXT,
    -- Where a sale's farmer is.
    place           TEXT,
    unit            TEXT NOT NULL,
    -- Hundredths of the currency (cents; centimes of a franc).
    price_cents     INTEGER NOT NULL CHECK (price_cents > 0),
    currency        TEXT NOT NULL CHECK (currency IN ('USD', 'CDF')),
    -- The price per `unit` in millionths of a US dollar, at the day's rate.
    usd_micros      INTEGER NOT NULL CHECK (usd_micros > 0),
    -- What medians mix: the crop's base unit when `unit` converts to it, else `unit`.
    base_unit       TEXT NOT NULL,
    base_usd_micros INTEGER NOT NULL CHECK (base_usd_micros > 0),
    observed_on     TEXT NOT NULL,  -- YYYY-MM-DD
    week            TEXT NOT NULL,  -- the Monday of observed_on
    note            TEXT,
    -- Beyond 3 median absolute deviations of its week: kept, out of medians.
    outlier         INTEGER NOT NULL DEFAULT 0,
    recorded_by     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    order_line_id   INTEGER UNIQUE REFERENCES order_lines (id),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    deleted_at      TEXT
);
CREATE INDEX price_observations_week ON price_observations (crop, week) WHERE deleted_at IS NULL;
CREATE INDEX price_observations_day ON price_observations (observed_on, id);
CREATE INDEX price_observations_crop_day ON price_observations (crop, observed_on) WHERE deleted_at IS NULL;

-- Each week's figures per crop, unit and scope ('' all markets, 't:<territory>',
-- 'm:<market id>'), rewritten with the week's observations in the same transaction.
CREATE TABLE price_weeks (
    crop         TEXT NOT NULL,
    scope        TEXT NOT NULL,
    unit         TEXT NOT NULL,
    week         TEXT NOT NULL,
    observations INTEGER NOT NULL,
    median_micros INTEGER NOT NULL,
    low_micros   INTEGER NOT NULL,
    high_micros  INTEGER NOT NULL,
    sales        INTEGER NOT NULL,
    agents       INTEGER NOT NULL,
    imports      INTEGER NOT NULL,
    outliers     INTEGER NOT NULL,
    PRIMARY KEY (scope, crop, unit, week)
) WITHOUT ROWID;

-- `version` moves with every price write: answers of /prices are cached while it
-- stands. `sales_event_mark`: the last delivery (order_events.id) taken as prices.
CREATE TABLE price_state (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    version          INTEGER NOT NULL,
    sales_event_mark INTEGER NOT NULL
);
INSERT INTO price_state (id, version, sales_event_mark) VALUES (1, 1, 0);

-- What an admin corrected or removed, with the observation before and after.
CREATE TABLE price_changes (
    id             INTEGER PRIMARY KEY,
    observation_id INTEGER NOT NULL REFERENCES price_observations (id),
    admin_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action         TEXT NOT NULL CHECK (action IN ('correct', 'remove')),
    before         TEXT NOT NULL,
    after          TEXT,
    at             TEXT NOT NULL
);
CREATE INDEX price_changes_observation ON price_changes (observation_id, id);

-- SMS price alerts: a number follows a crop at a market (0: every market); each
-- Monday it gets one SMS. `price_alerts_sent` keeps that week's SMS single.
CREATE TABLE price_alerts (
    phone      TEXT NOT NULL,
    crop       TEXT NOT NULL,
    market_id  INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    PRIMARY KEY (phone, crop, market_id)
) WITHOUT ROWID;

CREATE TABLE price_alerts_sent (
    phone   TEXT NOT NULL,
    week    TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (phone, week)
) WITHOUT ROWID;
