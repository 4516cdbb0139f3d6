-- Photos uploaded by phones before the change that uses them is pushed
-- (ARCHITECTURE.md section 3). The file itself lives in the media store,
-- named by the same hash.
CREATE TABLE uploads (
    sha256      TEXT PRIMARY KEY,   -- of the bytes the client sent
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    bytes       INTEGER NOT NULL,
    created_at  TEXT NOT NULL
);
