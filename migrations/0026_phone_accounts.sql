-- mavuno: rebuilds tables
-- Phone-number accounts (docs/decisions.md, docs/accounts.md): an account has an
-- email, a phone number or both, and a phone number identifies an account as an
-- email does. SQLite cannot make `email` optional in place, so `users` is rebuilt
-- the documented way (foreign keys off, all checked before commit). The product
-- triggers that read `users` are dropped and made again around the rename.
--
-- Numbers were not unique before: live accounts that share one keep it, marked
-- `phone_shared`; they sign in by email, and a new number in their profile (which
-- must be free) clears the mark.
DROP TRIGGER products_listed_after_insert;
DROP TRIGGER products_listed_after_update;

CREATE TABLE users_new (
    id            INTEGER PRIMARY KEY,
    email         TEXT,                        -- stored lower-case; NULL for phone-only accounts
    password_hash TEXT NOT NULL,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    phone_number  TEXT,                        -- E.164 when it could be parsed
    phone_shared  INTEGER NOT NULL DEFAULT 0,  -- another account had this number before numbers were unique
    country       TEXT CHECK (country IN ('DRC', 'BDI', 'RWA', 'UGA', 'TZA', 'KEN')),
    username      TEXT,
    role          TEXT NOT NULL DEFAULT 'user'
                  CHECK (role IN ('farmer', 'user', 'admin', 'super_admin', 'field_agent')),
    status        TEXT NOT NULL DEFAULT 'active'
                  CHECK (status IN ('active', 'inactive', 'pending')),
    location      TEXT,
    avatar        TEXT,                        -- content hash of the avatar in the media store
    business_name TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    deleted_at    TEXT,                        -- set when the account was erased (docs/accounts.md)
    sms_updates   INTEGER NOT NULL DEFAULT 1,
    CHECK (deleted_at IS NOT NULL OR email IS NOT NULL OR phone_number IS NOT NULL)
);

INSERT INTO users_new (id, email, password_hash, first_name, last_name, phone_number, phone_shared, country,
                       username, role, status, location, avatar, business_name, created_at, updated_at,
                       deleted_at, sms_updates)
SELECT u.id, u.email, u.password_hash, u.first_name, u.last_name, u.phone_number,
       u.deleted_at IS NULL AND EXISTS (SELECT 1 FROM users o WHERE o.phone_number = u.phone_number
                                            AND o.id <> u.id AND o.deleted_at IS NULL),
       u.country, u.username, u.role, u.status, u.location, u.avatar, u.business_name, u.created_at, u.updated_at,
       u.deleted_at, u.sms_updates
FROM users u;

DROP TABLE users;
ALTER TABLE users_new RENAME TO users;

CREATE UNIQUE INDEX users_email_unique ON users (email) WHERE deleted_at IS NULL AND email IS NOT NULL;
CREATE UNIQUE INDEX users_phone_unique ON users (phone_number)
    WHERE deleted_at IS NULL AND phone_number IS NOT NULL AND phone_shared = 0;
CREATE UNIQUE INDEX users_username_unique ON users (username COLLATE NOCASE)
    WHERE username IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX users_role ON users (role);
CREATE INDEX users_phone ON users (phone_number) WHERE deleted_at IS NULL;

CREATE TRIGGER products_listed_after_insert AFTER INSERT ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND EXISTS (
        SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER products_listed_after_update AFTER UPDATE OF status, deleted_at, farmer_id ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND EXISTS (
        SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER farmer_listed_after_update AFTER UPDATE OF status, role, deleted_at ON users BEGIN
    UPDATE products SET listed = (deleted_at IS NULL AND status = 'active' AND NEW.status = 'active'
        AND NEW.role = 'farmer' AND NEW.deleted_at IS NULL)
    WHERE farmer_id = NEW.id;
END;
