-- Reviews (docs/orders.md): a buyer rates (1 to 5) and comments each product
-- they received, once (editable). A product's rating and review count are
-- the mean and number of its reviews; a farmer's is the mean of their
-- reviewed products' ratings.
CREATE TABLE reviews (
    id         INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    buyer_id   INTEGER NOT NULL REFERENCES users (id),
    rating     INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (product_id, buyer_id)
);
CREATE INDEX reviews_product ON reviews (product_id, updated_at);
