-- Wake-ups per scope (docs/sync.md, Listening): each write reads which rows changed
-- after the version before it, by version alone, in every table a pull reads. These had
-- their version only after the person's id.
CREATE INDEX favourites_by_version ON favourites (version);
CREATE INDEX enrolments_by_version ON enrolments (version);
CREATE INDEX notifications_by_version ON notifications (version);
CREATE INDEX exchange_rates_by_version ON exchange_rates (version);
