-- Farmer applications (SPEC sections 3 and 4), and the global version
-- counter that every syncable row takes a number from (ARCHITECTURE.md
-- section 3): a pull asks for everything with a version above its cursor.

CREATE TABLE sync_state (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO sync_state (id, version) VALUES (1, 0);

CREATE TABLE surveys (
    id           INTEGER PRIMARY KEY,
    uid          TEXT NOT NULL UNIQUE,          -- made by the client that created it; never changes
    user_id      INTEGER NOT NULL REFERENCES users (id),   -- the applicant
    created_by   INTEGER NOT NULL REFERENCES users (id),   -- the applicant, an agent or an admin
    status       TEXT NOT NULL CHECK (status IN ('draft', 'pending', 'approved', 'rejected', 're-submitted')),
    active       INTEGER NOT NULL DEFAULT 0,
    admin_comment TEXT,
    reviewed_at  TEXT,
    land_size TEXT, work_type TEXT, cooperative_name TEXT, income_sources TEXT,
    seed_type TEXT, seed_source TEXT, fertilizers TEXT, field_preparation TEXT,
    farming_techniques TEXT, planting_season TEXT, higher_season TEXT, higher_season_reason TEXT,
    average_yield TEXT, challenges TEXT,
    post_harvest_losses INTEGER NOT NULL DEFAULT 0,
    loss_percentage     INTEGER NOT NULL DEFAULT 0 CHECK (loss_percentage BETWEEN 0 AND 100),
    selling_method TEXT,
    selling_challenges  INTEGER NOT NULL DEFAULT 0,
    selling_challenges_explanation TEXT,
    mobile_interest     INTEGER NOT NULL DEFAULT 0,
    improvements_production TEXT, improvements_selling TEXT, additional_comments TEXT,
    version      INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    deleted_at   TEXT                            -- tombstone: kept so a pull can say "del"
);
CREATE INDEX surveys_user ON surveys (user_id) WHERE deleted_at IS NULL;
CREATE INDEX surveys_created_by ON surveys (created_by);
CREATE INDEX surveys_version ON surveys (version);
