-- Push bookkeeping (ARCHITECTURE.md section 3): each browser profile is a
-- client with a sequence of mutation ids; the result of every processed
-- mutation is kept so a replay gets the same answer.
CREATE TABLE sync_clients (
    client_id        TEXT PRIMARY KEY,
    user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    last_mutation_id INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE sync_results (
    client_id   TEXT NOT NULL REFERENCES sync_clients (client_id) ON DELETE CASCADE,
    mutation_id INTEGER NOT NULL,
    result      TEXT NOT NULL,            -- the MutationResult, as JSON
    PRIMARY KEY (client_id, mutation_id)
);

-- Which version last changed each field of an application, so an edit made
-- offline on top of an older version can tell which of its fields someone
-- else changed meanwhile (docs/sync.md).
ALTER TABLE surveys ADD COLUMN field_versions TEXT NOT NULL DEFAULT '{}';
