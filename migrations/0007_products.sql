-- Issue 6: farmers' products, one model for the farmer's form and the
-- marketplace (SPEC section 3's two readings). Money is kept in US cents.

CREATE TABLE products (
    id            INTEGER PRIMARY KEY,
    uid           TEXT NOT NULL UNIQUE,           -- made by the client that created it
    farmer_id     INTEGER NOT NULL REFERENCES users (id),
    title         TEXT NOT NULL,
    description   TEXT NOT NULL,
    category      TEXT NOT NULL CHECK (category IN ('vegetables', 'fruits', 'grains', 'dairy', 'beverages', 'herbs')),
    unit          TEXT NOT NULL CHECK (unit IN ('kg', 'piece')),
    quantity      INTEGER NOT NULL CHECK (quantity >= 0),      -- stock, in units
    price_cents   INTEGER NOT NULL CHECK (price_cents >= 0),   -- the original price
    current_price_cents INTEGER NOT NULL CHECK (current_price_cents >= 0),
    status        TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
    harvest_date  TEXT,                                        -- YYYY-MM-DD
    expiry_date   TEXT,
    certifications TEXT NOT NULL DEFAULT '[]',                 -- JSON: organic, fair-trade, rainforest-alliance
    tags          TEXT NOT NULL DEFAULT '[]',                  -- JSON array of words
    shipping_available INTEGER NOT NULL DEFAULT 1,
    shipping_cost_cents INTEGER NOT NULL DEFAULT 500,
    shipping_days TEXT,                                        -- e.g. "1-2"
    min_order     REAL NOT NULL DEFAULT 1,
    max_order     REAL,
    rating        REAL NOT NULL DEFAULT 0,
    review_count  INTEGER NOT NULL DEFAULT 0,
    images        TEXT NOT NULL DEFAULT '[]',                  -- JSON array of photo hashes in the media store
    search_text   TEXT NOT NULL,                               -- folded title, description and farmer name
    version       INTEGER NOT NULL,
    field_versions TEXT NOT NULL DEFAULT '{}',
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    deleted_at    TEXT                                         -- tombstone, kept for sync and for orders
);
CREATE INDEX products_farmer ON products (farmer_id);
CREATE INDEX products_version ON products (version);
CREATE INDEX products_listed ON products (status, category, current_price_cents) WHERE deleted_at IS NULL;
CREATE INDEX products_newest ON products (status, id) WHERE deleted_at IS NULL;

-- A farmer's rating (the mean of their reviewed products), kept up to date
-- when a product's rating changes or it is deleted, so that listing a page
-- does not average a farmer's whole catalogue for every row.
CREATE TABLE farmer_ratings (
    farmer_id INTEGER PRIMARY KEY REFERENCES users (id),
    rating    REAL NOT NULL
);
