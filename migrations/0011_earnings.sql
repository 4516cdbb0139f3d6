-- A farmer's earnings as a ledger (docs/orders.md): an entry when a part of
-- an order is delivered (a sale) and, later, one per refund; the balance is
-- always the sum of entries, never an edited figure.
CREATE TABLE earnings (
    id           INTEGER PRIMARY KEY,
    farmer_id    INTEGER NOT NULL REFERENCES users (id),
    order_id     INTEGER NOT NULL REFERENCES orders (id),
    part_id      INTEGER NOT NULL REFERENCES order_parts (id),
    kind         TEXT NOT NULL CHECK (kind IN ('sale', 'refund')),
    amount_cents INTEGER NOT NULL,           -- negative for a refund
    currency     TEXT NOT NULL,
    at           TEXT NOT NULL,
    UNIQUE (part_id, kind)
);
CREATE INDEX earnings_farmer ON earnings (farmer_id, at);
