-- The catalogue's search index (0020) merges its segments more eagerly: FTS5 merges
-- a level once it holds `automerge` segments (4 by default), and every lookup seeks
-- into each segment, so after ten thousand listings came one by one a distinct search
-- read about 20 of them. At 2 each listing costs a little more merging, and each search
-- fewer seeks; the hourly housekeeping then optimizes the index into one segment.
INSERT INTO products_search (products_search, rank) VALUES ('automerge', 2);
INSERT INTO products_search (products_search) VALUES ('optimize');
