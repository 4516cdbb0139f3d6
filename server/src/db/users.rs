//! The `users` table.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::domain::user::{Country, Role, Status};

#[derive(Debug, Clone)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub phone_number: Option<String>,
    pub country: Option<Country>,
    pub username: Option<String>,
    pub role: Role,
    pub status: Status,
    pub location: Option<String>,
    pub avatar: Option<String>,
    pub business_name: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// Everything needed to create an account, whoever creates it (sign-up, the
/// `create-user` command, the demo content).
pub struct NewUser {
    /// Lower-case.
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub phone_number: Option<String>,
    pub country: Option<Country>,
    pub role: Role,
    pub status: Status,
    pub location: Option<String>,
    /// Content hash in the media store.
    pub avatar: Option<String>,
}

/// Fields a person may change on their own profile; `None` keeps the current value.
#[derive(Debug, Default)]
pub struct ProfileChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub country: Option<Country>,
    pub username: Option<String>,
    pub location: Option<String>,
    pub business_name: Option<String>,
    pub avatar: Option<String>,
    pub password_hash: Option<String>,
}

const COLUMNS: &str = "id, email, password_hash, first_name, last_name, phone_number, country, username, \
                       role, status, location, avatar, business_name, created_at, updated_at";

fn from_row(row: &Row<'_>) -> rusqlite::Result<UserRow> {
    Ok(UserRow {
        id: row.get(0)?,
        email: row.get(1)?,
        password_hash: row.get(2)?,
        first_name: row.get(3)?,
        last_name: row.get(4)?,
        phone_number: row.get(5)?,
        country: row.get(6)?,
        username: row.get(7)?,
        role: row.get(8)?,
        status: row.get(9)?,
        location: row.get(10)?,
        avatar: row.get(11)?,
        business_name: row.get(12)?,
        created_at: row.get(13)?,
        updated_at: row.get(14)?,
    })
}

/// Inserts a user; `Ok(None)` when the email is already taken.
pub fn insert(conn: &Connection, user: &NewUser, now: &str) -> rusqlite::Result<Option<i64>> {
    let inserted = conn.execute(
        "INSERT INTO users (email, password_hash, first_name, last_name, phone_number, country, role, status,
                            location, avatar, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
        params![
            user.email,
            user.password_hash,
            user.first_name,
            user.last_name,
            user.phone_number,
            user.country,
            user.role,
            user.status,
            user.location,
            user.avatar,
            now
        ],
    );
    match inserted {
        Ok(_) => Ok(Some(conn.last_insert_rowid())),
        Err(err) if is_unique_violation(&err) => Ok(None),
        Err(err) => Err(err),
    }
}

pub fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::SqliteFailure(e, _) if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

pub fn find(conn: &Connection, id: i64) -> rusqlite::Result<Option<UserRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM users WHERE id = ?1 AND deleted_at IS NULL"))?
        .query_row([id], from_row)
        .optional()
}

/// `email` must already be lower-case.
pub fn find_by_email(conn: &Connection, email: &str) -> rusqlite::Result<Option<UserRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM users WHERE email = ?1 AND deleted_at IS NULL"))?
        .query_row([email], from_row)
        .optional()
}

pub fn email_taken(conn: &Connection, email: &str, except_id: Option<i64>) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM users WHERE email = ?1 AND deleted_at IS NULL AND id IS NOT ?2)")?
        .query_row(params![email, except_id], |row| row.get(0))
}

pub fn username_taken(conn: &Connection, username: &str, except_id: Option<i64>) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM users
                        WHERE username = ?1 COLLATE NOCASE AND deleted_at IS NULL AND id IS NOT ?2)",
    )?
    .query_row(params![username, except_id], |row| row.get(0))
}

pub fn update_profile(conn: &Connection, id: i64, changes: &ProfileChanges, now: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE users SET
            first_name    = COALESCE(?2, first_name),
            last_name     = COALESCE(?3, last_name),
            email         = COALESCE(?4, email),
            phone_number  = COALESCE(?5, phone_number),
            country       = COALESCE(?6, country),
            username      = COALESCE(?7, username),
            location      = COALESCE(?8, location),
            business_name = COALESCE(?9, business_name),
            avatar        = COALESCE(?10, avatar),
            password_hash = COALESCE(?11, password_hash),
            updated_at    = ?12
         WHERE id = ?1 AND deleted_at IS NULL",
        params![
            id,
            changes.first_name,
            changes.last_name,
            changes.email,
            changes.phone_number,
            changes.country,
            changes.username,
            changes.location,
            changes.business_name,
            changes.avatar,
            changes.password_hash,
            now
        ],
    )?;
    Ok(())
}

/// Erases the person's data but keeps the row, so records that others rely
/// on (orders, reviewed applications) still point at something. See docs/accounts.md.
pub fn erase(conn: &Connection, id: i64, now: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE users SET
            email = 'deleted-' || id || '@invalid', password_hash = '!', first_name = '', last_name = '',
            phone_number = NULL, username = NULL, location = NULL, avatar = NULL, business_name = NULL,
            status = 'inactive', updated_at = ?2, deleted_at = ?2
         WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// An approved applicant who was a buyer becomes a farmer; other roles are kept.
pub fn promote_buyer_to_farmer(conn: &Connection, id: i64, now: &str) -> rusqlite::Result<bool> {
    let changed = conn
        .prepare_cached("UPDATE users SET role = 'farmer', updated_at = ?2 WHERE id = ?1 AND role = 'user' AND deleted_at IS NULL")?
        .execute(params![id, now])?;
    Ok(changed == 1)
}

pub fn list(conn: &Connection) -> rusqlite::Result<Vec<UserRow>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM users WHERE deleted_at IS NULL ORDER BY id"))?;
    stmt.query_map([], from_row)?.collect()
}
