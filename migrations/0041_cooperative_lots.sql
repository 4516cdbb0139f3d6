-- Cooperatives' lots (docs/cooperatives.md): a lot is drawn from the weigh book's
-- unsold stock of one crop and grade and sold in the marketplace as a product of the
-- cooperative's own seller account, through the same checkout, payments and stock
-- reservations as any product. When a part of an order for it is delivered, the
-- proceeds are shared between the members who put into the lot, in the ledger.

-- The account a cooperative sells under (made with its first lot; nobody signs in to it).
ALTER TABLE cooperatives ADD COLUMN seller_id INTEGER REFERENCES users (id);

-- Where a member's plot is, recorded on their phone, for buyers who must know a lot's
-- origin; and whether they agree to be named in a lot's public origin report.
ALTER TABLE cooperative_members ADD COLUMN plot_latitude REAL;
ALTER TABLE cooperative_members ADD COLUMN plot_longitude REAL;
ALTER TABLE cooperative_members ADD COLUMN named_in_origin INTEGER NOT NULL DEFAULT 0;

CREATE TABLE cooperative_lots (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,        -- made by the client: a resent lot is made once
    cooperative_id INTEGER NOT NULL REFERENCES cooperatives (id),
    product_id     INTEGER NOT NULL UNIQUE REFERENCES products (id),
    crop           TEXT NOT NULL,
    grade          TEXT NOT NULL CHECK (grade IN ('A', 'B', 'C')),
    grams          INTEGER NOT NULL CHECK (grams > 0),
    members        INTEGER NOT NULL CHECK (members > 0),  -- how many members put into it
    collected_from TEXT NOT NULL,               -- the first and last delivery's day
    collected_to   TEXT NOT NULL,
    pickup         TEXT NOT NULL,               -- where the buyer collects it
    created_by     INTEGER NOT NULL REFERENCES users (id),
    created_at     TEXT NOT NULL
);
CREATE INDEX cooperative_lots_cooperative ON cooperative_lots (cooperative_id, id);

-- Which weigh-book entries a lot was drawn from, oldest first; an entry may be split
-- between two lots. An entry drawn into a lot can no longer be corrected.
CREATE TABLE cooperative_lot_sources (
    lot_id      INTEGER NOT NULL REFERENCES cooperative_lots (id),
    delivery_id INTEGER NOT NULL REFERENCES cooperative_deliveries (id),
    grams       INTEGER NOT NULL CHECK (grams > 0),
    PRIMARY KEY (lot_id, delivery_id)
);
CREATE INDEX cooperative_lot_sources_delivery ON cooperative_lot_sources (delivery_id);

-- The ledger learns a member's `share` of a lot's sale and the cooperative's `shared`
-- (what it passed on), one of each per person and part: the unique rule now names the
-- person (a CHECK and a unique rule are only changed by rebuilding the table).
CREATE TABLE earnings_new (
    id           INTEGER PRIMARY KEY,
    farmer_id    INTEGER NOT NULL REFERENCES users (id),
    order_id     INTEGER NOT NULL REFERENCES orders (id),
    part_id      INTEGER NOT NULL REFERENCES order_parts (id),
    kind         TEXT NOT NULL CHECK (kind IN ('sale', 'fee', 'refund', 'share', 'shared')),
    amount_cents INTEGER NOT NULL,           -- negative for a fee, a refund or what was shared
    currency     TEXT NOT NULL,
    at           TEXT NOT NULL,
    UNIQUE (part_id, farmer_id, kind)
);
INSERT INTO earnings_new SELECT id, farmer_id, order_id, part_id, kind, amount_cents, currency, at FROM earnings;
DROP TABLE earnings;
ALTER TABLE earnings_new RENAME TO earnings;
CREATE INDEX earnings_farmer ON earnings (farmer_id, at);
