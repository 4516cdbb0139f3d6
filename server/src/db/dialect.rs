//! Where SQLite's SQL and PostgreSQL's differ, in one place (docs/decisions.md, Storage
//! engines). Everything else is written once: both take `ON CONFLICT … DO NOTHING /
//! DO UPDATE`, `IS [NOT] DISTINCT FROM`, `RETURNING`, window functions, `CAST(… AS
//! BIGINT)`, and SQLite's `?N` placeholders (the seam numbers them for PostgreSQL).
//! Sessions keep their order of arrival in SQLite's hidden `rowid`, a column of that
//! name on PostgreSQL (migrations/postgres/0039_schema.sql); the catalogue's search is
//! FTS5 with trigrams on SQLite and a LIKE over a `pg_trgm` index on PostgreSQL
//! (`catalogue::CatalogueFilter`). Searches of names compare `lower(…) LIKE lower(?)` on
//! both: SQLite's LIKE ignores case, PostgreSQL's does not.

use super::Engine;

/// A FROM item `alias` whose `value` column holds each text of the JSON array `expr`.
pub fn json_items(engine: Engine, expr: &str, alias: &str) -> String {
    match engine {
        Engine::Sqlite => format!("json_each({expr}) {alias}"),
        Engine::Postgres => format!("jsonb_array_elements_text(CAST({expr} AS jsonb)) AS {alias}(value)"),
    }
}

/// The text a JSON document `expr` holds (`"Mavuno"` → `Mavuno`).
pub fn json_text(engine: Engine, expr: &str) -> String {
    match engine {
        Engine::Sqlite => format!("json_extract({expr}, '$')"),
        Engine::Postgres => format!("(CAST({expr} AS jsonb) #>> '{{}}')"),
    }
}

/// `expr` compared and sorted without regard to case.
pub fn nocase(engine: Engine, expr: &str) -> String {
    match engine {
        Engine::Sqlite => format!("{expr} COLLATE NOCASE"),
        Engine::Postgres => format!("lower({expr})"),
    }
}

/// Whether the text `haystack` holds `needle` (both SQL expressions).
pub fn contains(engine: Engine, haystack: &str, needle: &str) -> String {
    match engine {
        Engine::Sqlite => format!("instr({haystack}, {needle}) > 0"),
        Engine::Postgres => format!("strpos({haystack}, {needle}) > 0"),
    }
}

/// The Monday (`YYYY-MM-DD`) of the week of the UTC time `column` (ISO-8601 text).
pub fn week_of(engine: Engine, column: &str) -> String {
    match engine {
        Engine::Sqlite => format!("date({column}, '-6 days', 'weekday 1')"),
        Engine::Postgres => {
            format!("to_char(date_trunc('week', CAST(substr({column}, 1, 19) AS timestamp)), 'YYYY-MM-DD')")
        }
    }
}

/// Hours from the time `from` to the time `to` (ISO-8601 text), with their fraction.
pub fn hours_between(engine: Engine, from: &str, to: &str) -> String {
    match engine {
        Engine::Sqlite => format!("(julianday({to}) - julianday({from})) * 24"),
        Engine::Postgres => format!(
            "CAST(EXTRACT(EPOCH FROM CAST(substr({to}, 1, 19) AS timestamp) - CAST(substr({from}, 1, 19) AS timestamp)) \
             AS DOUBLE PRECISION) / 3600"
        ),
    }
}
