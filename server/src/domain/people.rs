//! Admins managing people: role and status changes, with their history
//! (docs/product.md, Roles).
//!
//! - A super admin may change anyone's role and status.
//! - An admin may activate or deactivate buyers, farmers and field agents,
//!   and change no role.
//! - The platform always keeps one active super admin.
//!
//! Every change is recorded: who, when, from, to.

use crate::db::Connection;

use crate::db::{
    user_changes,
    users::{self, UserRow},
};
use crate::error::{ApiResult, AppError};
use crate::model::user::{Role, Status};
use crate::platform::clock;

#[derive(Debug, Default, Clone, Copy)]
pub struct Changes {
    pub role: Option<Role>,
    pub status: Option<Status>,
}

/// What `actor` may change on `target`, for screens to hide the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowed {
    pub role: bool,
    pub status: bool,
}

pub fn allowed(actor: &UserRow, target: &UserRow) -> Allowed {
    match actor.role {
        Role::SuperAdmin => Allowed { role: true, status: true },
        Role::Admin => Allowed { role: false, status: !target.role.is_admin() },
        _ => Allowed { role: false, status: false },
    }
}

pub fn change(conn: &Connection, actor: &UserRow, target_id: i64, changes: Changes) -> ApiResult<UserRow> {
    let target =
        users::find(conn, target_id)?.ok_or_else(|| AppError::not_found("user_not_found", "User not found"))?;
    let may = allowed(actor, &target);
    let role = changes.role.unwrap_or(target.role);
    let status = changes.status.unwrap_or(target.status);
    if role != target.role && !may.role {
        return Err(AppError::forbidden("role_change_forbidden", "Only a super admin can change roles"));
    }
    if status != target.status && !may.status {
        return Err(AppError::forbidden(
            "status_change_forbidden",
            "Only a super admin can change the status of an admin",
        ));
    }
    let stays_super_admin = role == Role::SuperAdmin && status == Status::Active;
    let is_active_super_admin = target.role == Role::SuperAdmin && target.status == Status::Active;
    if is_active_super_admin && !stays_super_admin && users::active_super_admins(conn)? <= 1 {
        return Err(AppError::conflict(
            "last_super_admin",
            "The last active super admin cannot be demoted or deactivated",
        ));
    }
    let now = clock::now();
    if role != target.role {
        user_changes::record(conn, target.id, actor.id, "role", target.role.as_str(), role.as_str(), &now)?;
    }
    if status != target.status {
        user_changes::record(conn, target.id, actor.id, "status", target.status.as_str(), status.as_str(), &now)?;
    }
    if role != target.role || status != target.status {
        users::set_role_and_status(conn, target.id, role, status, &now)?;
        // Only active farmers' products are on sale: phones must learn it.
        crate::db::product_search::touch_farmer(conn, target.id)?;
    }
    users::find(conn, target.id)?.ok_or_else(|| AppError::not_found("user_not_found", "User not found"))
}
