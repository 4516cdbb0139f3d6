-- What a USSD session learned that its answers alone cannot say again
-- (docs/ussd.md, How the menu works): whether the PIN typed at answer N was
-- right, what a write answered, what each numbered choice of a screen meant
-- when it was shown. Kept in the database, written in the transaction of the
-- write it records, so a gateway's retry after a restart, or on another node,
-- finds it. `slot` names the answer (or the screen shown after a list of
-- answers); `memo` is JSON. Tidied a day after the session's last request.
CREATE TABLE ussd_memos (
    phone   TEXT NOT NULL,
    session TEXT NOT NULL,
    slot    TEXT NOT NULL,
    memo    TEXT NOT NULL,
    at      TEXT NOT NULL,
    PRIMARY KEY (phone, session, slot)
) WITHOUT ROWID;
CREATE INDEX ussd_memos_at ON ussd_memos (at);

-- Incoming SMS already answered, by the gateway's message id: a message posted
-- again (a retry, after a restart too) is answered once.
CREATE TABLE sms_incoming (
    id TEXT PRIMARY KEY,
    at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sms_incoming_at ON sms_incoming (at);
