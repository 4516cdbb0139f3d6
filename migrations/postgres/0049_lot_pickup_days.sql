-- The days a lot is collected: SQLite's 0049 (its comments say why).
ALTER TABLE cooperative_lots ADD COLUMN pickup_days TEXT NOT NULL DEFAULT 'mon tue wed thu fri sat';
