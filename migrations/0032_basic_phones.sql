-- Basic phones (docs/ussd.md): what a number chose in the USSD menu (its language)
-- and the 4-digit PIN that guards its sensitive steps, stored hashed like a
-- password, with its wrong tries. Keyed by the number, as the gateway knows it
-- (E.164): a number with no account may choose a language before it joins.
CREATE TABLE phone_settings (
    phone            TEXT PRIMARY KEY,
    language         TEXT CHECK (language IN ('en', 'fr', 'sw')),
    pin_hash         TEXT,
    pin_failures     INTEGER NOT NULL DEFAULT 0,
    pin_locked_until TEXT,
    updated_at       TEXT NOT NULL
);
