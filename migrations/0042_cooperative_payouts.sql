-- What a cooperative pays its members of their shares (docs/cooperatives.md, Payouts):
-- by mobile money through the payment provider's payout call (our uid its idempotency
-- key), or in cash, confirmed by the member's code received by SMS. A member is owed
-- their shares less what was paid or is being paid; a failed or cancelled payout counts
-- for nothing, so the member can be paid again.
CREATE TABLE cooperative_payouts (
    id             INTEGER PRIMARY KEY,
    uid            TEXT NOT NULL UNIQUE,        -- made by the client; the provider's payoutId
    cooperative_id INTEGER NOT NULL REFERENCES cooperatives (id),
    member_id      INTEGER NOT NULL REFERENCES users (id),
    amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
    currency       TEXT NOT NULL,
    method         TEXT NOT NULL CHECK (method IN ('mobile_money', 'cash')),
    operator       TEXT,                        -- mobile money: the provider's operator code
    phone          TEXT,                        -- mobile money: the wallet, digits with the country code
    status         TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
    failure_reason TEXT,
    code_hash      TEXT,                        -- cash: the member's code, hashed with the uid
    code_attempts  INTEGER NOT NULL DEFAULT 0,
    checks         INTEGER NOT NULL DEFAULT 0,  -- mobile money: status checks asked so far
    next_check_at  TEXT,
    created_by     INTEGER NOT NULL REFERENCES users (id),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    paid_at        TEXT
);
CREATE INDEX cooperative_payouts_member ON cooperative_payouts (member_id, id);
CREATE INDEX cooperative_payouts_cooperative ON cooperative_payouts (cooperative_id, id);
CREATE INDEX cooperative_payouts_due ON cooperative_payouts (next_check_at) WHERE status = 'pending';
