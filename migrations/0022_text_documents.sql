-- Long texts edited offline merge instead of the last writer winning
-- (docs/sync.md, Text that merges): each such field's Automerge document, and
-- the document's heads at each version that wrote the field, so an edit made
-- on version B is applied to the text as it stood at B and merged; with the
-- device that wrote it and the changes it made, so a phone's next edit on the
-- same B includes its own earlier ones.
CREATE TABLE text_documents (
    entity TEXT NOT NULL,        -- 'product', 'survey'
    record_id INTEGER NOT NULL,
    field TEXT NOT NULL,
    document BLOB NOT NULL,      -- Automerge's compressed save
    PRIMARY KEY (entity, record_id, field)
) WITHOUT ROWID;

CREATE TABLE text_heads (
    entity TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    field TEXT NOT NULL,
    version INTEGER NOT NULL,
    heads BLOB NOT NULL,         -- the document's change hashes after the write (32 bytes each)
    device TEXT,                 -- the sync client that wrote it (NULL: online or the server)
    own BLOB NOT NULL,           -- the hashes of the changes this write made
    PRIMARY KEY (entity, record_id, field, version)
) WITHOUT ROWID;
