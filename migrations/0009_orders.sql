-- Orders (docs/orders.md): one order per checkout, placed with a client-made
-- uid (the idempotency key, so a resent order is never a second one), split
-- into one part per farmer, each with its own status. Money is in minor
-- units (cents) with the order's currency. Lines keep what the buyer saw
-- (title, unit, price), so a later edit or deletion of the product changes
-- nothing in the order.
CREATE TABLE orders (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,
    buyer_id       INTEGER NOT NULL REFERENCES users (id),
    currency       TEXT NOT NULL DEFAULT 'USD',
    subtotal_cents INTEGER NOT NULL CHECK (subtotal_cents >= 0),
    shipping_cents INTEGER NOT NULL CHECK (shipping_cents >= 0),
    total_cents    INTEGER NOT NULL CHECK (total_cents >= 0),
    payment_method TEXT NOT NULL CHECK (payment_method IN ('mobile_money', 'cash_on_delivery')),
    delivery       TEXT NOT NULL CHECK (delivery IN ('delivery', 'pickup')),
    first_name     TEXT NOT NULL,
    last_name      TEXT NOT NULL,
    email          TEXT NOT NULL,
    phone          TEXT NOT NULL,
    address        TEXT NOT NULL,
    city           TEXT NOT NULL,
    postal_code    TEXT NOT NULL,
    country        TEXT NOT NULL,
    version        INTEGER NOT NULL,       -- bumped when the order or any part changes
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX orders_buyer ON orders (buyer_id, id);
CREATE INDEX orders_version ON orders (version);

CREATE TABLE order_parts (
    id             INTEGER PRIMARY KEY,
    order_id       INTEGER NOT NULL REFERENCES orders (id),
    farmer_id      INTEGER NOT NULL REFERENCES users (id),
    status         TEXT NOT NULL CHECK (status IN ('processing', 'shipped', 'delivered', 'cancelled')),
    subtotal_cents INTEGER NOT NULL CHECK (subtotal_cents >= 0),
    shipping_cents INTEGER NOT NULL CHECK (shipping_cents >= 0),
    cancel_reason  TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (order_id, farmer_id)
);
CREATE INDEX order_parts_farmer ON order_parts (farmer_id, order_id);

CREATE TABLE order_lines (
    id               INTEGER PRIMARY KEY,
    part_id          INTEGER NOT NULL REFERENCES order_parts (id),
    product_id       INTEGER NOT NULL REFERENCES products (id),
    title            TEXT NOT NULL,
    unit             TEXT NOT NULL,
    quantity         INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
    line_total_cents INTEGER NOT NULL CHECK (line_total_cents >= 0)
);
CREATE INDEX order_lines_part ON order_lines (part_id);

-- What happened to an order and when: placement, each status change (with
-- who made it), for the buyer's timeline and the admin's history.
CREATE TABLE order_events (
    id         INTEGER PRIMARY KEY,
    order_id   INTEGER NOT NULL REFERENCES orders (id),
    part_id    INTEGER REFERENCES order_parts (id),
    kind       TEXT NOT NULL,              -- placed, processing, shipped, delivered, cancelled
    actor_id   INTEGER REFERENCES users (id),
    note       TEXT,
    at         TEXT NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);
