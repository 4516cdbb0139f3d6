-- Tombstones are kept for a retention window (docs/sync.md, Retention): the
-- highest version whose tombstone may have been removed. A phone whose cursor is
-- below it may have missed a deletion, so it is told to take a new snapshot.
ALTER TABLE sync_state ADD COLUMN horizon INTEGER NOT NULL DEFAULT 0;
