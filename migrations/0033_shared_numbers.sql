-- A farmer may let buyers who ask by SMS see their number (docs/ussd.md, Sellers):
-- off until the farmer turns it on in the USSD menu's settings.
ALTER TABLE phone_settings ADD COLUMN share_number INTEGER NOT NULL DEFAULT 0;
