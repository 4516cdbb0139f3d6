-- One number for a lot, its cooperative's: SQLite's 0048 (its comments say why).
ALTER TABLE cooperative_lots ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
UPDATE cooperative_lots SET number = (
    SELECT COUNT(*) FROM cooperative_lots o
    WHERE o.cooperative_id = cooperative_lots.cooperative_id AND o.id <= cooperative_lots.id
);
CREATE UNIQUE INDEX cooperative_lots_number ON cooperative_lots (cooperative_id, number);
ALTER TABLE cooperatives ADD COLUMN lots_made BIGINT NOT NULL DEFAULT 0;
UPDATE cooperatives SET lots_made = (
    SELECT COALESCE(MAX(l.number), 0) FROM cooperative_lots l WHERE l.cooperative_id = cooperatives.id
);
