//! The API's answer to a database error, beside the error (error.rs knows nothing of
//! the database: the storage seam points one way).

use super::Error;
use crate::error::AppError;

impl From<Error> for AppError {
    fn from(err: Error) -> Self {
        AppError::database(&err, "database")
    }
}

impl AppError {
    /// A database error: the database out of reach (PostgreSQL restarting, SQLite locked
    /// past its wait) is a 503 and a moment to wait, the client tries again and nothing
    /// was half-written; anything else is ours.
    pub fn database(err: &Error, context: &'static str) -> AppError {
        if matches!(err, Error::NulInText) {
            return AppError::invalid_text();
        }
        if err.is_unavailable() {
            tracing::warn!(%err, "the database is out of reach");
            return AppError::unavailable(
                "server_busy",
                "The server is busy right now. Please try again in a moment.",
                DATABASE_RETRY_SECS,
            );
        }
        AppError::internal_while(context, err.to_string())
    }
}

/// Seconds a client is asked to wait when the database is out of reach.
const DATABASE_RETRY_SECS: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_error_is_ours_and_told_to_nobody() {
        let db = AppError::from(Error::Other("database is locked".into()));
        assert!(db.to_string().starts_with("internal error: database: database is locked"), "{db}");
        assert_eq!(
            (db.code(), db.message().as_str()),
            ("internal_error", "Something went wrong on our side. Please try again.")
        );
    }
}
