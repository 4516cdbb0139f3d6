-- A lot goes by one number, its cooperative's: "lot 3 of Kabare Coffee Growers" in its
-- title, on the manager's screen and in its origin files (the database id stays in paths).
-- `lots_made` counts every lot a cooperative ever made, so a lot taken away does not free
-- its number for the next one. Lots made before are numbered in the order they were made.
ALTER TABLE cooperative_lots ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE cooperative_lots SET number = (
    SELECT COUNT(*) FROM cooperative_lots o
    WHERE o.cooperative_id = cooperative_lots.cooperative_id AND o.id <= cooperative_lots.id
);
CREATE UNIQUE INDEX cooperative_lots_number ON cooperative_lots (cooperative_id, number);
ALTER TABLE cooperatives ADD COLUMN lots_made INTEGER NOT NULL DEFAULT 0;
UPDATE cooperatives SET lots_made = (
    SELECT COALESCE(MAX(l.number), 0) FROM cooperative_lots l WHERE l.cooperative_id = cooperatives.id
);
