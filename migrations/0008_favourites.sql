-- A person's favourite products, synced so they follow the person from one
-- phone to another (issue 6). A removed favourite stays as a tombstone so
-- a pull can say "del".
CREATE TABLE favourites (
    user_id     INTEGER NOT NULL REFERENCES users (id),
    product_uid TEXT NOT NULL,
    version     INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    deleted_at  TEXT,
    PRIMARY KEY (user_id, product_uid)
);
CREATE INDEX favourites_version ON favourites (user_id, version);
