-- The catalogue without scans (docs/architecture.md, Catalogue cache).
-- `listed`: the product is on sale (not deleted, active, from an active farmer whose
-- account is not deleted). Triggers keep it, so counts and pages need no join.
ALTER TABLE products ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;

UPDATE products SET listed = (deleted_at IS NULL AND status = 'active' AND EXISTS (
    SELECT 1 FROM users f WHERE f.id = products.farmer_id AND f.status = 'active' AND f.role = 'farmer'
        AND f.deleted_at IS NULL));

CREATE TRIGGER products_listed_after_insert AFTER INSERT ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND EXISTS (
        SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER products_listed_after_update AFTER UPDATE OF status, deleted_at, farmer_id ON products BEGIN
    UPDATE products SET listed = (NEW.deleted_at IS NULL AND NEW.status = 'active' AND EXISTS (
        SELECT 1 FROM users f WHERE f.id = NEW.farmer_id AND f.status = 'active' AND f.role = 'farmer'
            AND f.deleted_at IS NULL))
    WHERE id = NEW.id;
END;

CREATE TRIGGER farmer_listed_after_update AFTER UPDATE OF status, role, deleted_at ON users BEGIN
    UPDATE products SET listed = (deleted_at IS NULL AND status = 'active' AND NEW.status = 'active'
        AND NEW.role = 'farmer' AND NEW.deleted_at IS NULL)
    WHERE farmer_id = NEW.id;
END;

-- Newest first and counts; category and price filters and sorts.
CREATE INDEX products_on_sale ON products (id) WHERE listed = 1;
CREATE INDEX products_on_sale_by_category ON products (category, current_price_cents) WHERE listed = 1;
CREATE INDEX products_on_sale_by_price ON products (current_price_cents) WHERE listed = 1;

-- Search: a trigram index over the folded text (name, description, farmer's name), so
-- a word of three letters or more is found anywhere in it, as LIKE '%word%' did, without
-- reading every product. Kept by triggers from products.search_text.
CREATE VIRTUAL TABLE products_search USING fts5(
    search_text, content = 'products', content_rowid = 'id', tokenize = 'trigram'
);
INSERT INTO products_search (products_search) VALUES ('rebuild');

CREATE TRIGGER products_search_after_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_search (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;

CREATE TRIGGER products_search_after_update AFTER UPDATE OF search_text ON products BEGIN
    INSERT INTO products_search (products_search, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
    INSERT INTO products_search (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;

CREATE TRIGGER products_search_after_delete AFTER DELETE ON products BEGIN
    INSERT INTO products_search (products_search, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
END;
