-- Work one server does for all: SQLite's 0044 (its comments say why).
CREATE TABLE leases (
    name     TEXT PRIMARY KEY,
    holder   TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);
