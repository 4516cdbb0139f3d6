-- Wake-ups per scope read, inside every write, which cooperatives' managers an order
-- concerns: from the order's parts to the cooperative selling under that account, by
-- its seller account (db/scopes.rs). Without this SQLite built an index of every
-- cooperative for each write.
CREATE INDEX cooperatives_seller ON cooperatives (seller_id);
