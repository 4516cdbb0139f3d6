//! PostgreSQL, the second engine (docs/decisions.md, Storage engines): how to reach it
//! and its migrations (`migrations/postgres/`), recorded in `schema_migrations` and
//! applied under the write lock, so two servers starting together apply each once.

use std::str::FromStr;
use std::time::Duration;

use super::{Connection, Error, Result};

/// PostgreSQL's migrations. The first stands for SQLite's 0001–0039; from 0040 on,
/// each has the same name as SQLite's (`tests/api/storage.rs`, `both_engines_have_the_same_schema_and_migrations_in_step`, holds them in step).
pub(super) const MIGRATIONS: &[(&str, &str)] = &[
    ("0039_schema", include_str!("../../../migrations/postgres/0039_schema.sql")),
    ("0040_cooperatives", include_str!("../../../migrations/postgres/0040_cooperatives.sql")),
    ("0041_cooperative_lots", include_str!("../../../migrations/postgres/0041_cooperative_lots.sql")),
    ("0042_cooperative_payouts", include_str!("../../../migrations/postgres/0042_cooperative_payouts.sql")),
    ("0043_throttles", include_str!("../../../migrations/postgres/0043_throttles.sql")),
    ("0044_leases", include_str!("../../../migrations/postgres/0044_leases.sql")),
    ("0045_version_indexes", include_str!("../../../migrations/postgres/0045_version_indexes.sql")),
    ("0046_seller_index", include_str!("../../../migrations/postgres/0046_seller_index.sql")),
    ("0047_search_index_now", include_str!("../../../migrations/postgres/0047_search_index_now.sql")),
    ("0048_lot_numbers", include_str!("../../../migrations/postgres/0048_lot_numbers.sql")),
    ("0049_lot_pickup_days", include_str!("../../../migrations/postgres/0049_lot_pickup_days.sql")),
    ("0050_request_ids", include_str!("../../../migrations/postgres/0050_request_ids.sql")),
];

/// How to open a connection: the URL's settings and the TLS they may ask for.
pub(super) struct Settings {
    config: postgres::Config,
    tls: super::pg_tls::Tls,
}

impl Settings {
    pub(super) fn parse(url: &str, ca: Option<&std::path::Path>) -> Result<Settings> {
        let mut config = postgres::Config::from_str(url)
            .map_err(|err| Error::Other(format!("the database URL cannot be read: {err}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(5));
        }
        config.application_name("mavuno");
        Ok(Settings { config, tls: super::pg_tls::Tls::new(ca)? })
    }

    pub(super) fn connect(&self) -> Result<Connection> {
        Connection::postgres(&self.config, &self.tls)
    }
}

/// Applies the migrations this database has not seen yet, each in its own transaction.
pub(super) fn migrate(conn: &Connection) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)",
    )?;
    for (name, sql) in MIGRATIONS {
        // Under the write lock: two servers starting together apply each once.
        let tx = conn.begin()?;
        let applied: i64 =
            tx.query_row("SELECT COUNT(*) FROM schema_migrations WHERE name = ?1", [name], |r| r.get(0))?;
        if applied == 0 {
            tx.execute_batch(sql)?;
            tx.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?1, ?2)",
                [*name, crate::platform::clock::now().as_str()],
            )?;
            tracing::info!(migration = name, "applied migration");
        }
        tx.commit()?;
    }
    Ok(())
}
