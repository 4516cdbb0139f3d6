-- SMS as email works (docs/sms.md): messages written in the same transaction as
-- what they announce, sent afterwards by the SMS sender (Africa's Talking, or the
-- log when it is not configured), retried with backoff; the provider's status kept.
CREATE TABLE sms_outbox (
    id          INTEGER PRIMARY KEY,
    to_number   TEXT NOT NULL,                 -- E.164
    body        TEXT NOT NULL,                 -- GSM-7, one segment
    created_at  TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    next_try_at TEXT,                          -- NULL once sent or given up
    sent_at     TEXT,
    delivery    TEXT CHECK (delivery IN ('africastalking', 'logged')),
    provider_id TEXT,                          -- the provider's message id
    -- sent: the provider took it; delivered / undelivered: its delivery report said so.
    status      TEXT NOT NULL DEFAULT 'queued'
                CHECK (status IN ('queued', 'sent', 'failed', 'delivered', 'undelivered')),
    reported_at TEXT                           -- when the delivery report came
);
CREATE INDEX sms_outbox_provider_id ON sms_outbox (provider_id) WHERE provider_id IS NOT NULL;
CREATE INDEX sms_outbox_due ON sms_outbox (next_try_at) WHERE next_try_at IS NOT NULL;

-- A person may turn off the SMS that are not needed to use the account (docs/sms.md).
ALTER TABLE users ADD COLUMN sms_updates INTEGER NOT NULL DEFAULT 1;
