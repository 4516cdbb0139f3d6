//! Notifications (docs/api.md, Notifications): one for each event that concerns a
//! person, written in the event's transaction; their phones pull them (entity
//! `notification`) and mark them read (`notification.read`).

use crate::db::Connection;

use crate::db::users::UserRow;
use crate::db::{notifications, sync};
use crate::error::{ApiResult, AppError};
use crate::platform::clock;

/// Tells `user_id` of `kind` (translated on the phone under `notifications.<kind>` with
/// `params`); opening it goes to `link`, a path of the app.
pub fn notify(conn: &Connection, user_id: i64, kind: &str, link: &str, params: &[(&str, &str)]) -> ApiResult<()> {
    let values: serde_json::Map<String, serde_json::Value> =
        params.iter().map(|(k, v)| ((*k).to_owned(), serde_json::Value::from(*v))).collect();
    let uid = uuid::Uuid::new_v4().to_string();
    let version = sync::next_version(conn)?;
    notifications::insert(conn, &uid, user_id, kind, link, &values.into(), version, &clock::now())?;
    Ok(())
}

/// Marks the person's notification `uid` read (again: nothing changes).
pub fn read(conn: &Connection, user: &UserRow, uid: &str) -> ApiResult<()> {
    let found = notifications::find(conn, &uid.to_lowercase())?.filter(|n| n.user_id == user.id);
    let Some(found) = found else {
        return Err(AppError::not_found("notification_not_found", "Notification not found"));
    };
    if found.read_at.is_none() {
        notifications::mark_read(conn, &found.uid, sync::next_version(conn)?, &clock::now())?;
    }
    Ok(())
}

/// The dashboard section a notification opens.
pub fn section(name: &str) -> String {
    format!("/dashboard?section={name}")
}
