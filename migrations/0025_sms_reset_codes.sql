-- A forgotten password can also be reset with a code sent by SMS (docs/accounts.md):
-- six digits that work once, for 15 minutes, kept only as a hash; five wrong
-- tries spend the account's open codes.
ALTER TABLE password_resets ADD COLUMN kind TEXT NOT NULL DEFAULT 'link' CHECK (kind IN ('link', 'sms'));
ALTER TABLE password_resets ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
CREATE INDEX users_phone ON users (phone_number) WHERE deleted_at IS NULL;
