//! Which database a command uses (SQLite in the data dir unless a PostgreSQL URL is
//! given), and `migrate-to-postgres`, which moves a deployment from one to the other
//! (docs/operations.md, PostgreSQL).

use std::path::Path;

use mavuno::db;

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

/// What `backup` and `restore` say on a PostgreSQL deployment: its database is not theirs.
pub const ON_POSTGRES: &str = "this deployment's database is PostgreSQL (--database-url): back it up and restore it \
    with PostgreSQL's own tools (pg_dump and pg_restore, or continuous archiving with point-in-time recovery: \
    docs/operations.md, PostgreSQL). `mavuno backup` and `mavuno restore` copy the SQLite database of a data dir.";

pub fn backup(data_dir: &Path, out: &Path) -> Result<(), String> {
    let file = data_dir.join(db::DB_FILE);
    if !std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() > 0) {
        return Err(format!(
            "no SQLite database in {} (a server on PostgreSQL keeps none there: {ON_POSTGRES})",
            data_dir.display()
        ));
    }
    if let Err(err) = db::backup(data_dir, out) {
        // Nothing half-written is left to be taken for a backup.
        std::fs::remove_file(out).ok();
        return Err(format!("backup failed: {err}"));
    }
    let size = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    println!("backed up {} to {} ({size} bytes)", data_dir.join(db::DB_FILE).display(), out.display());
    Ok(())
}
