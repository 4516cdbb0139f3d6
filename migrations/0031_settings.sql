-- mavuno: rebuilds tables
-- The platform's settings (docs/settings.md): one row per setting, its value as JSON;
-- a setting without a row has its default (in `domain/settings.rs`). Only a super
-- admin changes them, and every change is kept with who made it and when.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    updated_by INTEGER NOT NULL REFERENCES users (id)
);

CREATE TABLE settings_changes (
    id         INTEGER PRIMARY KEY,
    key        TEXT NOT NULL,
    old_value  TEXT,                       -- NULL: it had its default
    new_value  TEXT NOT NULL,
    changed_by INTEGER NOT NULL REFERENCES users (id),
    changed_at TEXT NOT NULL
);
CREATE INDEX settings_changes_newest ON settings_changes (id DESC);

-- The platform fee in force when an order was placed (hundredths of a percent), taken
-- from each part's sale in the farmer's ledger as a `fee` entry when it is delivered.
ALTER TABLE orders ADD COLUMN platform_fee_bp INTEGER NOT NULL DEFAULT 0
    CHECK (platform_fee_bp BETWEEN 0 AND 3000);

-- The ledger learns the `fee` kind (a CHECK is only changed by rebuilding the table).
CREATE TABLE earnings_new (
    id           INTEGER PRIMARY KEY,
    farmer_id    INTEGER NOT NULL REFERENCES users (id),
    order_id     INTEGER NOT NULL REFERENCES orders (id),
    part_id      INTEGER NOT NULL REFERENCES order_parts (id),
    kind         TEXT NOT NULL CHECK (kind IN ('sale', 'fee', 'refund')),
    amount_cents INTEGER NOT NULL,           -- negative for a fee or a refund
    currency     TEXT NOT NULL,
    at           TEXT NOT NULL,
    UNIQUE (part_id, kind)
);
INSERT INTO earnings_new SELECT id, farmer_id, order_id, part_id, kind, amount_cents, currency, at FROM earnings;
DROP TABLE earnings;
ALTER TABLE earnings_new RENAME TO earnings;
CREATE INDEX earnings_farmer ON earnings (farmer_id, at);

-- The sender's name an email was written with (the setting at that moment).
ALTER TABLE email_outbox ADD COLUMN from_name TEXT;
