-- Nothing to change on SQLite: PostgreSQL's 0047 stops its trigram index keeping new
-- listings in a pending list; SQLite's full-text index merges its
-- segments as it is written.
SELECT 1;
