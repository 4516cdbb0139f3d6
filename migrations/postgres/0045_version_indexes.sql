-- Version-only indexes for wake-ups per scope: SQLite's 0045 (its comments say why).
CREATE INDEX favourites_by_version ON favourites (version);
CREATE INDEX enrolments_by_version ON enrolments (version);
CREATE INDEX notifications_by_version ON notifications (version);
CREATE INDEX exchange_rates_by_version ON exchange_rates (version);
