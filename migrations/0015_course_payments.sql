-- mavuno: rebuilds tables
-- Paid courses (docs/payments.md, docs/training.md). A payment is for an order
-- or for a course, and names who pays; a paid enrolment can be refunded.
-- SQLite cannot make `order_id` optional in place, so `payments` is rebuilt
-- the documented way: the first line above makes the runner turn foreign
-- keys off around this migration and check them all before it commits.
CREATE TABLE payments_new (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,
    order_id       INTEGER REFERENCES orders (id),
    course_id      INTEGER REFERENCES courses (id),
    payer_id       INTEGER NOT NULL REFERENCES users (id),
    provider       TEXT NOT NULL,
    operator       TEXT NOT NULL,
    phone          TEXT NOT NULL,
    amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
    currency       TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('initiating', 'pending', 'succeeded', 'failed', 'expired')),
    provider_ref   TEXT,
    failure_reason TEXT,
    checks         INTEGER NOT NULL DEFAULT 0,
    next_check_at  TEXT NOT NULL,
    expires_at     TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    CHECK ((order_id IS NULL) <> (course_id IS NULL))
);
INSERT INTO payments_new (id, uid, order_id, course_id, payer_id, provider, operator, phone, amount_cents, currency,
                          status, provider_ref, failure_reason, checks, next_check_at, expires_at, created_at, updated_at)
SELECT p.id, p.uid, p.order_id, NULL, o.buyer_id, p.provider, p.operator, p.phone, p.amount_cents, p.currency,
       p.status, p.provider_ref, p.failure_reason, p.checks, p.next_check_at, p.expires_at, p.created_at, p.updated_at
FROM payments p JOIN orders o ON o.id = p.order_id;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_order ON payments (order_id, id);
CREATE INDEX payments_course ON payments (course_id, payer_id, id);
CREATE INDEX payments_due ON payments (status, next_check_at);

-- Money given back for a course payment (an admin's decision, within 30 days
-- of paying). Written before the provider is asked, `uid` being the
-- provider's idempotency key; pending -> succeeded | failed. A failed refund
-- may be tried again; a succeeded one ends the enrolment.
CREATE TABLE refunds (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,
    payment_id     INTEGER NOT NULL REFERENCES payments (id),
    amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
    currency       TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    failure_reason TEXT,
    requested_by   INTEGER NOT NULL REFERENCES users (id),
    checks         INTEGER NOT NULL DEFAULT 0,
    next_check_at  TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX refunds_payment ON refunds (payment_id, id);
CREATE INDEX refunds_due ON refunds (status, next_check_at);
