//! The `contact_messages` table.

use crate::db::{Connection, params};

pub struct ContactRow {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub user_id: Option<i64>,
    pub created_at: String,
}

pub struct NewContact<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub subject: &'a str,
    pub message: &'a str,
    pub user_id: Option<i64>,
}

pub fn insert(conn: &Connection, contact: &NewContact<'_>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO contact_messages (name, email, subject, message, user_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![contact.name, contact.email, contact.subject, contact.message, contact.user_id, now],
    )
}

/// Newest first.
pub fn list(conn: &Connection) -> crate::db::Result<Vec<ContactRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, email, subject, message, user_id, created_at FROM contact_messages ORDER BY id DESC",
    )?;
    stmt.query_map([], |row| {
        Ok(ContactRow {
            id: row.get(0)?,
            name: row.get(1)?,
            email: row.get(2)?,
            subject: row.get(3)?,
            message: row.get(4)?,
            user_id: row.get(5)?,
            created_at: row.get(6)?,
        })
    })?
    .collect()
}
