-- The catalogue's trigram index takes each new listing into the index at once, not
-- into a pending list that every search then reads through until the next vacuum
-- merges it: right after 10,000 listings, distinct searches ran at a tenth of their
-- speed (290 a second, p99 4.3 s) until it did (docs/operations.md, PostgreSQL).
-- A listing's write costs a little more; listings are written far less than searched.
ALTER INDEX products_search SET (fastupdate = off);
SELECT gin_clean_pending_list('products_search'::regclass);
