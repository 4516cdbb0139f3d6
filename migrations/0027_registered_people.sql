-- People a field agent registers from the phone, offline if need be (docs/accounts.md):
-- the uid the phone gave the registration keeps a resent one single, and who
-- registered the person is kept.
ALTER TABLE users ADD COLUMN registered_uid TEXT;
ALTER TABLE users ADD COLUMN registered_by INTEGER REFERENCES users (id);
CREATE UNIQUE INDEX users_registered_uid ON users (registered_uid) WHERE registered_uid IS NOT NULL;
