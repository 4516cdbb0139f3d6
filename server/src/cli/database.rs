//! Which database a command uses (SQLite in the data dir unless a PostgreSQL URL is
//! given), and `migrate-to-postgres`, which moves a deployment from one to the other
//! (docs/operations.md, PostgreSQL).

use std::path::Path;

/// Which database: SQLite in the data dir unless a PostgreSQL URL is given.
#[derive(clap::Args)]
pub struct DatabaseArgs {
    /// PostgreSQL instead of SQLite in the data dir: postgres://user:pass@host/db (TCP) or
    /// postgresql://user@%2Frun%2Fpostgresql/db (a unix socket); docs/operations.md, PostgreSQL.
    #[arg(long = "database-url", env = "MAVUNO_DATABASE_URL", hide_env_values = true)]
    url: Option<String>,
    /// PostgreSQL connections this server keeps (a quarter of them for writes).
    #[arg(long = "database-pool", env = "MAVUNO_DATABASE_POOL", default_value_t = 16)]
    pool: usize,
    /// PostgreSQL's certificate authority (PEM), for a URL with sslmode=require on a
    /// network whose certificates Mozilla's roots do not sign.
    #[arg(long = "database-ca", env = "MAVUNO_DATABASE_CA")]
    ca: Option<std::path::PathBuf>,
    /// A streaming replica of that database, for reads (pulls, catalogue pages, the rest):
    /// a read goes to it once it has replayed every write this server knows of, else to
    /// the database itself (docs/operations.md, Read replicas).
    #[arg(long = "database-read-url", env = "MAVUNO_DATABASE_READ_URL", hide_env_values = true)]
    read_url: Option<String>,
}

impl DatabaseArgs {
    /// The PostgreSQL URL, when one is given (an empty one is none).
    pub fn url(&self) -> Option<String> {
        self.url.clone().filter(|url| !url.is_empty())
    }

    /// The replica's URL, when one is given (an empty one is none).
    pub fn read_url(&self) -> Option<String> {
        self.read_url.clone().filter(|url| !url.is_empty())
    }

    pub fn pool(&self) -> usize {
        self.pool.max(2)
    }

    pub fn ca(&self) -> Option<std::path::PathBuf> {
        self.ca.clone()
    }
}

/// Copies the stopped SQLite deployment of `data_dir` into the empty PostgreSQL database
/// at `url` and says what was copied.
pub fn migrate_to_postgres(data_dir: &Path, url: &str) -> Result<(), String> {
    let counts = mavuno::db::transfer::sqlite_to_postgres(data_dir, url).map_err(|err| err.to_string())?;
    let rows: i64 = counts.iter().map(|(_, rows)| rows).sum();
    for (table, count) in &counts {
        println!("{table:>24} {count:>9} rows");
    }
    println!(
        "copied {rows} rows in {} tables, each counted on both sides. Start the server with \
         --database-url (MAVUNO_DATABASE_URL); phones go on syncing where they were.",
        counts.len()
    );
    Ok(())
}
