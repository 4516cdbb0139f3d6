-- An admin may hide a listing with a reason (docs/api.md, Admin products): it leaves
-- the marketplace, its farmer is told why and sees the reason, and an admin may
-- restore it. `listed` now also needs the product not hidden: its triggers are made
-- again with that condition.
ALTER TABLE products ADD COLUMN hidden_reason TEXT;
ALTER TABLE products ADD COLUMN hidden_at TEXT;
ALTER TABLE products ADD COLUMN hidden_by INTEGER REFERENCES users (id);

DROP TRIGGER products_listed_after_insert;
DROP TRIGGER products_listed_after_update;

CREATE TRIGGER products_listed_after_insert AFTER INSERT ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND NEW.hidden_at IS NULL
        AND EXISTS (SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER products_listed_after_update AFTER UPDATE OF status, deleted_at, farmer_id, hidden_at ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND NEW.hidden_at IS NULL
        AND EXISTS (SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

DROP TRIGGER farmer_listed_after_update;
CREATE TRIGGER farmer_listed_after_update AFTER UPDATE OF status, role, deleted_at ON users BEGIN
    UPDATE products SET listed = (deleted_at IS NULL AND status = 'active' AND hidden_at IS NULL
        AND NEW.status = 'active' AND NEW.role = 'farmer' AND NEW.deleted_at IS NULL)
    WHERE farmer_id = NEW.id;
END;

CREATE INDEX products_hidden ON products (hidden_at) WHERE hidden_at IS NOT NULL;
