-- Payments (docs/payments.md): a mobile-money collection for an order. The
-- row is written before the provider is called; `uid` is our payment id and
-- the provider's idempotency key. Status only moves forward:
-- initiating -> pending -> succeeded | failed | expired. A timeout leaves it
-- pending; the poller asks the provider again, with backoff, because
-- callbacks get lost.
CREATE TABLE payments (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,
    order_id       INTEGER NOT NULL REFERENCES orders (id),
    provider       TEXT NOT NULL,            -- simulator, pawapay
    operator       TEXT NOT NULL,            -- e.g. VODACOM_MPESA_COD
    phone          TEXT NOT NULL,            -- the payer's number, digits with country code
    amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
    currency       TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('initiating', 'pending', 'succeeded', 'failed', 'expired')),
    provider_ref   TEXT,
    failure_reason TEXT,
    checks         INTEGER NOT NULL DEFAULT 0,
    next_check_at  TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX payments_order ON payments (order_id, id);
CREATE INDEX payments_due ON payments (status, next_check_at);

-- Every change of a payment's status, and what caused it.
CREATE TABLE payment_events (
    id         INTEGER PRIMARY KEY,
    payment_id INTEGER NOT NULL REFERENCES payments (id),
    status     TEXT NOT NULL,
    source     TEXT NOT NULL,                -- start, callback, check, expiry
    note       TEXT,
    at         TEXT NOT NULL
);
CREATE INDEX payment_events_payment ON payment_events (payment_id, id);

-- Provider callbacks as they arrived, verified or not, and what they did.
CREATE TABLE payment_callbacks (
    id          INTEGER PRIMARY KEY,
    provider    TEXT NOT NULL,
    payment_uid TEXT,
    body        TEXT NOT NULL,
    verified    INTEGER NOT NULL,
    effect      TEXT NOT NULL,               -- applied, duplicate, unknown_payment, unverified, unreadable
    received_at TEXT NOT NULL
);
