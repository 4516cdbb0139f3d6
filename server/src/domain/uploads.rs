//! Photo uploads: who may send them and how many (docs/security.md, Disk),
//! and which stored pictures nothing uses any more.

use std::collections::HashSet;

use crate::db::Connection;

use crate::db::uploads;
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError};
use crate::model::user::Role;

/// What one account may keep uploaded, and send per hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    pub photos: i64,
    pub bytes: i64,
    pub per_hour: i64,
}

const MIB: i64 = 1024 * 1024;

/// Farmers photograph their products (six each); admins will illustrate
/// courses and news; buyers never need to upload.
pub fn quota(role: Role) -> Option<Quota> {
    match role {
        Role::User => None,
        Role::Farmer | Role::FieldAgent => Some(Quota { photos: 600, bytes: 600 * MIB, per_hour: 120 }),
        Role::Admin | Role::SuperAdmin => Some(Quota { photos: 5000, bytes: 4096 * MIB, per_hour: 600 }),
    }
}

/// Refuses someone whose role never uploads, before anything is read or checked.
pub fn may_upload(user: &UserRow) -> ApiResult<Quota> {
    quota(user.role).ok_or_else(|| {
        AppError::forbidden("uploads_not_allowed", "Only farmers, field agents and admins upload photos")
    })
}

/// Refuses an upload of `bytes` more that would take `user` past their quota.
pub fn check_quota(conn: &Connection, user: &UserRow, bytes: i64) -> ApiResult<()> {
    let quota = may_upload(user)?;
    let usage =
        uploads::usage_of(conn, user.id, &crate::platform::clock::before_now(std::time::Duration::from_secs(3600)))?;
    if usage.last_hour >= quota.per_hour {
        return Err(AppError::too_many_requests(
            "too_many_uploads",
            "Many photos were sent in the last hour. Please wait a while before sending more.",
            600,
        ));
    }
    if usage.photos >= quota.photos || usage.bytes + bytes > quota.bytes {
        return Err(AppError::conflict(
            "upload_quota_full",
            "Your photo storage is full. Remove photos from products you no longer sell.",
        ));
    }
    Ok(())
}

/// Deletes the upload records older than `before` that no live product uses,
/// and answers every picture hash something still uses (live products'
/// photos, avatars, and uploads not yet that old), for the media sweep.
pub fn forget_unused(conn: &Connection, before: &str) -> ApiResult<HashSet<String>> {
    let mut used = uploads::referenced(conn)?;
    for hash in uploads::made_before(conn, before)? {
        if !used.contains(&hash) {
            uploads::delete(conn, &hash)?;
        }
    }
    used.extend(uploads::all_hashes(conn)?);
    Ok(used)
}
