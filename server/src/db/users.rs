//! The `users` table.

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::user::{Country, Role, Status};

#[derive(Debug, Clone)]
pub struct UserRow {
    pub id: i64,
    /// Lower-case; `None` for an account made with a phone number only.
    pub email: Option<String>,
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
    /// The person takes SMS about their applications, orders and payments (docs/sms.md).
    pub sms_updates: bool,
}

impl UserRow {
    /// What a message calls the person: the first name, else the email or number.
    pub fn greeting_name(&self) -> String {
        let fallback = self.email.as_deref().or(self.phone_number.as_deref()).unwrap_or_default();
        if self.first_name.is_empty() { fallback.to_owned() } else { self.first_name.clone() }
    }
}

/// Everything needed to create an account, whoever creates it (sign-up, the
/// `create-user` command, the demo content).
pub struct NewUser {
    /// Lower-case; `None` for a phone-only account (which then has a phone number).
    pub email: Option<String>,
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
    pub sms_updates: Option<bool>,
}

const COLUMNS: &str = "id, email, password_hash, first_name, last_name, phone_number, country, username, \
                       role, status, location, avatar, business_name, created_at, updated_at, sms_updates";

fn from_row(row: &Row<'_>) -> crate::db::Result<UserRow> {
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
        sms_updates: row.get(15)?,
    })
}

/// Inserts a user; `Ok(None)` when the email or phone number is already taken.
pub fn insert(conn: &Connection, user: &NewUser, now: &str) -> crate::db::Result<Option<i64>> {
    let inserted = conn.attempt(|conn| {
        conn.insert(
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
        )
    });
    match inserted {
        Ok(id) => Ok(Some(id)),
        Err(err) if is_unique_violation(&err) => Ok(None),
        Err(err) => Err(err),
    }
}

pub fn is_unique_violation(err: &crate::db::Error) -> bool {
    err.is_unique_violation()
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<UserRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM users WHERE id = ?1 AND deleted_at IS NULL"))?
        .query_row([id], from_row)
        .optional()
}

/// The live accounts that sign in with one of `numbers` (E.164): numbers that two
/// accounts shared before numbers were unique are left out. At most two.
pub fn find_by_phones(conn: &Connection, numbers: &[String]) -> crate::db::Result<Vec<UserRow>> {
    let marks = vec!["?"; numbers.len()].join(", ");
    let sql = format!(
        "SELECT {COLUMNS} FROM users WHERE phone_number IN ({marks}) AND deleted_at IS NULL AND phone_shared = 0 LIMIT 2"
    );
    conn.prepare(&sql)?.query_map(crate::db::params_from_iter(numbers), from_row)?.collect()
}

/// `email` must already be lower-case.
pub fn find_by_email(conn: &Connection, email: &str) -> crate::db::Result<Option<UserRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM users WHERE email = ?1 AND deleted_at IS NULL"))?
        .query_row([email], from_row)
        .optional()
}

/// Marks an account as registered by a field agent's phone under `uid`.
pub fn set_registration(conn: &Connection, id: i64, uid: &str, by: i64) -> crate::db::Result<()> {
    conn.execute("UPDATE users SET registered_uid = ?2, registered_by = ?3 WHERE id = ?1", params![id, uid, by])?;
    Ok(())
}

/// The account a field agent's phone registered under `uid`, with who registered it.
pub fn find_by_registered_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<(UserRow, i64)>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, registered_by FROM users WHERE registered_uid = ?1 AND deleted_at IS NULL"
    ))?
    .query_row([uid], |row| Ok((from_row(row)?, row.get(16)?)))
    .optional()
}

pub fn set_password(conn: &Connection, id: i64, password_hash: &str, now: &str) -> crate::db::Result<()> {
    conn.execute(
        "UPDATE users SET password_hash = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, password_hash, now],
    )?;
    Ok(())
}

/// Replaces a password's hash by one of today's settings (the same password), unless the
/// password was changed meanwhile; not a change of the account (`updated_at` stays).
pub fn rehash_password(conn: &Connection, id: i64, old_hash: &str, new_hash: &str) -> crate::db::Result<()> {
    conn.execute(
        "UPDATE users SET password_hash = ?3 WHERE id = ?1 AND password_hash = ?2",
        params![id, old_hash, new_hash],
    )?;
    Ok(())
}

pub fn email_taken(conn: &Connection, email: &str, except_id: Option<i64>) -> crate::db::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?1 AND deleted_at IS NULL AND id IS DISTINCT FROM ?2)",
    )?
    .query_row(params![email, except_id], |row| row.get(0))
}

/// Whether a live account other than `except_id` has this number (shared or not).
pub fn phone_taken(conn: &Connection, phone: &str, except_id: Option<i64>) -> crate::db::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM users WHERE phone_number = ?1 AND deleted_at IS NULL AND id IS DISTINCT FROM ?2)",
    )?
    .query_row(params![phone, except_id], |row| row.get(0))
}

pub fn username_taken(conn: &Connection, username: &str, except_id: Option<i64>) -> crate::db::Result<bool> {
    // As the unique index compares them (users_username_unique).
    let engine = conn.engine();
    conn.prepare_cached(&format!(
        "SELECT EXISTS (SELECT 1 FROM users
                        WHERE {} = {} AND deleted_at IS NULL AND id IS DISTINCT FROM ?2)",
        super::dialect::nocase(engine, "username"),
        match engine {
            crate::db::Engine::Sqlite => "?1",
            crate::db::Engine::Postgres => "lower(?1)",
        }
    ))?
    .query_row(params![username, except_id], |row| row.get(0))
}

pub fn update_profile(conn: &Connection, id: i64, changes: &ProfileChanges, now: &str) -> crate::db::Result<()> {
    // A taken email or number is refused with the transaction still usable (the caller says which).
    conn.attempt(|conn| {
    conn.execute(
        "UPDATE users SET
            first_name    = COALESCE(?2, first_name),
            last_name     = COALESCE(?3, last_name),
            email         = COALESCE(?4, email),
            phone_shared  = CASE WHEN CAST(?5 AS TEXT) IS NOT NULL AND ?5 IS DISTINCT FROM phone_number THEN 0 ELSE phone_shared END,
            phone_number  = COALESCE(?5, phone_number),
            country       = COALESCE(?6, country),
            username      = COALESCE(?7, username),
            location      = COALESCE(?8, location),
            business_name = COALESCE(?9, business_name),
            avatar        = COALESCE(?10, avatar),
            password_hash = COALESCE(?11, password_hash),
            updated_at    = ?12,
            sms_updates   = COALESCE(?13, sms_updates)
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
            now,
            changes.sms_updates
        ],
    )
    })?;
    Ok(())
}

/// Erases the person's data but keeps the row, so records that others rely
/// on (orders, reviewed applications) still point at something. See docs/accounts.md.
pub fn erase(conn: &Connection, id: i64, now: &str) -> crate::db::Result<()> {
    conn.execute(
        "UPDATE users SET
            email = NULL, password_hash = '!', first_name = '', last_name = '',
            phone_number = NULL, username = NULL, location = NULL, avatar = NULL, business_name = NULL,
            status = 'inactive', updated_at = ?2, deleted_at = ?2
         WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// An approved applicant who was a buyer becomes a farmer; other roles are kept.
pub fn promote_buyer_to_farmer(conn: &Connection, id: i64, now: &str) -> crate::db::Result<bool> {
    let changed = conn
        .prepare_cached(
            "UPDATE users SET role = 'farmer', updated_at = ?2 WHERE id = ?1 AND role = 'user' AND deleted_at IS NULL",
        )?
        .execute(params![id, now])?;
    Ok(changed == 1)
}

/// What the admin's people list is narrowed to (docs/product.md, Constants: the search
/// covers names, email, username and phone number).
#[derive(Debug, Default, Clone)]
pub struct UserFilter {
    pub search: Option<String>,
    pub role: Option<Role>,
    pub status: Option<Status>,
    pub country: Option<Country>,
}

/// Every live account matching `filter`, oldest first.
pub fn search(conn: &Connection, filter: &UserFilter) -> crate::db::Result<Vec<UserRow>> {
    let mut sql = format!("SELECT {COLUMNS} FROM users WHERE deleted_at IS NULL");
    let mut values: Vec<crate::db::Value> = Vec::new();
    if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        values.push(super::like_pattern(search).into());
        // A number as people write it at home ("099 000 0009") finds the stored +243990000009.
        let number = typed_number(search).map(|national| {
            values.push(super::like_pattern(&national).into());
            " OR phone_number LIKE ?2 ESCAPE '\\'"
        });
        sql.push_str(&format!(
            " AND (lower(first_name) LIKE lower(?1) ESCAPE '\\' OR lower(last_name) LIKE lower(?1) ESCAPE '\\' OR lower(email) LIKE lower(?1) ESCAPE '\\'
                   OR lower((first_name || ' ' || last_name)) LIKE lower(?1) ESCAPE '\\'
                   OR lower(username) LIKE lower(?1) ESCAPE '\\' OR lower(phone_number) LIKE lower(?1) ESCAPE '\\'{})",
            number.unwrap_or_default()
        ));
    }
    for (column, value) in [
        ("role", filter.role.map(|r| r.as_str())),
        ("status", filter.status.map(|s| s.as_str())),
        ("country", filter.country.map(|c| c.as_str())),
    ] {
        if let Some(value) = value {
            values.push(value.to_owned().into());
            sql.push_str(&format!(" AND {column} = ?{}", values.len()));
        }
    }
    sql.push_str(" ORDER BY id");
    conn.prepare_cached(&sql)?.query_map(crate::db::params_from_iter(values), from_row)?.collect()
}

/// The digits of a search that is a phone number as typed (digits and the usual
/// separators, six digits or more), without the trunk `0` people dial at home: what
/// the stored international form holds.
fn typed_number(search: &str) -> Option<String> {
    if !search.chars().all(|c| c.is_ascii_digit() || " +-.()/".contains(c)) {
        return None;
    }
    let digits: String = search.chars().filter(char::is_ascii_digit).collect();
    let national = digits.trim_start_matches('0');
    (national.len() >= 6).then(|| national.to_owned())
}

/// How many live accounts have each role and each status.
pub fn count_by(conn: &Connection, column: &str) -> crate::db::Result<Vec<(String, i64)>> {
    debug_assert!(matches!(column, "role" | "status"));
    let mut stmt = conn
        .prepare_cached(&format!("SELECT {column}, COUNT(*) FROM users WHERE deleted_at IS NULL GROUP BY {column}"))?;
    stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?.collect()
}

/// Active super admins: the platform must keep at least one.
/// The active accounts of `role` (the super admins told of an incident).
pub fn active_with_role(conn: &Connection, role: Role) -> crate::db::Result<Vec<UserRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM users WHERE role = ?1 AND status = 'active' AND deleted_at IS NULL ORDER BY id"
    ))?;
    stmt.query_map([role.as_str()], from_row)?.collect()
}

pub fn active_super_admins(conn: &Connection) -> crate::db::Result<i64> {
    conn.prepare_cached(
        "SELECT COUNT(*) FROM users WHERE role = 'super_admin' AND status = 'active' AND deleted_at IS NULL",
    )?
    .query_row([], |row| row.get(0))
}

pub fn set_role_and_status(conn: &Connection, id: i64, role: Role, status: Status, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE users SET role = ?2, status = ?3, updated_at = ?4 WHERE id = ?1")?
        .execute(params![id, role, status, now])?;
    Ok(())
}

/// The people a field agent may fill an application for: active buyers and farmers,
/// with the uid of a registration from an agent's phone.
pub fn surveyable(conn: &Connection) -> crate::db::Result<Vec<Surveyable>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, registered_uid,
                EXISTS (SELECT 1 FROM surveys s WHERE s.user_id = users.id
                          AND s.status IN ('pending', 're-submitted') AND s.deleted_at IS NULL),
                EXISTS (SELECT 1 FROM surveys s WHERE s.user_id = users.id AND s.created_by = users.id
                          AND s.status = 'draft' AND s.deleted_at IS NULL)
         FROM users
         WHERE deleted_at IS NULL AND status = 'active' AND role IN ('user', 'farmer')
         ORDER BY first_name, last_name, id"
    ))?;
    stmt.query_map([], |row| {
        Ok(Surveyable {
            user: from_row(row)?,
            registered_uid: row.get(16)?,
            application_waiting: row.get(17)?,
            own_draft: row.get(18)?,
        })
    })?
    .collect()
}

/// A person an agent can fill an application for.
pub struct Surveyable {
    pub user: UserRow,
    /// The `person.register` uid, for a person a field agent registered from a phone.
    pub registered_uid: Option<String>,
    /// An application of theirs waits for a decision: a second one would be refused.
    pub application_waiting: bool,
    /// A draft application they started themselves (in the app or by USSD).
    pub own_draft: bool,
}
