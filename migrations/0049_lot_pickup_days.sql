-- The days a lot is collected at its cooperative's store (docs/cooperatives.md, Lots), in
-- the week's order, space-separated ("mon tue wed thu fri sat", as lots made before had
-- no say). Whether the cooperative also delivers it is its product's shipping.
ALTER TABLE cooperative_lots ADD COLUMN pickup_days TEXT NOT NULL DEFAULT 'mon tue wed thu fri sat';
