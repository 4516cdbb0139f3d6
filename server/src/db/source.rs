//! Where the pool's connections come from: SQLite's file or PostgreSQL's settings.

use std::path::PathBuf;

use super::{Connection, Result, connect, pg};

/// Where connections come from: a new one replaces one that was lost (PostgreSQL
/// restarted) or held by a closure that panicked.
pub(super) enum Source {
    Sqlite(PathBuf),
    Postgres(Box<pg::Settings>),
}

impl Source {
    pub(super) fn connect(&self, writer: bool) -> Result<Connection> {
        match self {
            Source::Sqlite(path) => {
                let conn = connect(path)?;
                if writer {
                    // An answered write survives a power cut: in WAL mode NORMAL may lose the
                    // last commits; FULL syncs the log at each commit (docs/sync.md, Push).
                    if let Some(sqlite) = conn.sqlite() {
                        sqlite.pragma_update(None, "synchronous", "FULL")?;
                    }
                }
                Ok(conn)
            }
            Source::Postgres(settings) => settings.connect(),
        }
    }
}
