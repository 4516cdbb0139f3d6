//! Cooperatives (docs/cooperatives.md): admins make and suspend them and name their
//! managers; farmers ask to join and managers answer; a farmer may belong to several.
//! The weigh book is `deliveries`; how a sale is shared, `split`.

pub mod deliveries;
pub mod lots;
pub mod payouts;
pub mod split;

use crate::db::cooperatives::{self as rows, CooperativeRow, Fields, MemberRow};
use crate::db::users::UserRow;
use crate::db::{Connection, users};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::cooperative::{MemberRole, MemberStatus, Status};
use crate::model::user::Role;
use crate::platform::clock;

pub const MAX_NAME_CHARS: usize = 80;
pub const MAX_TERRITORY_CHARS: usize = 60;
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// A cooperative keeps at most a fifth of a sale for itself.
pub const MAX_FEE_BP: i64 = 2000;

pub fn not_found() -> AppError {
    AppError::not_found("cooperative_not_found", "This cooperative does not exist")
}

/// What an admin sends to make or edit a cooperative: making one, a field left out is
/// empty (name, territory and market are required); editing one, it keeps its value.
pub struct CooperativeInput<'a> {
    pub name: Option<&'a str>,
    pub territory: Option<&'a str>,
    pub market_id: Option<i64>,
    pub description: Option<&'a str>,
    /// Percent with at most two decimals, as typed ("2.5").
    pub fee_percent: Option<f64>,
    pub status: Option<&'a str>,
}

/// `input` checked, its missing fields taken from `current` (the cooperative edited).
fn check<'a>(
    conn: &Connection,
    current: Option<&'a CooperativeRow>,
    input: &'a CooperativeInput<'a>,
) -> ApiResult<Fields<'a>> {
    let id = current.map_or(0, |c| c.id);
    let mut errors = FieldErrors::default();
    let name = input.name.or(current.map(|c| c.name.as_str())).unwrap_or_default().trim();
    if name.is_empty() {
        errors.add("name", "required", "The cooperative's name is required");
    } else if name.chars().count() > MAX_NAME_CHARS {
        errors.add("name", "too_long", format!("The name is at most {MAX_NAME_CHARS} characters"));
    } else if rows::name_taken(conn, name, id)? {
        errors.add("name", "name_taken", "Another cooperative has this name");
    }
    let territory = input.territory.or(current.map(|c| c.territory.as_str())).unwrap_or_default().trim();
    if territory.is_empty() {
        errors.add("territory", "required", "The territory is required");
    } else if territory.chars().count() > MAX_TERRITORY_CHARS {
        errors.add("territory", "too_long", format!("The territory is at most {MAX_TERRITORY_CHARS} characters"));
    }
    let market = match input.market_id.or(current.map(|c| c.market_id)) {
        Some(market) => crate::db::prices::market(conn, market)?,
        None => None,
    };
    if market.is_none() {
        errors.add("market_id", "market_unknown", "Choose the market where it sells (GET /prices/markets)");
    }
    let description = input.description.or(current.map(|c| c.description.as_str())).unwrap_or_default().trim();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        errors.add("description", "too_long", format!("The description is at most {MAX_DESCRIPTION_CHARS} characters"));
    }
    let fee_bp = match input.fee_percent.map(|p| (p * 100.0).round()) {
        None => current.map_or(0, |c| c.fee_bp),
        Some(bp) if bp.is_finite() && (0.0..=MAX_FEE_BP as f64).contains(&bp) => bp as i64,
        Some(_) => {
            errors.add("fee_percent", "cooperative_fee_invalid", "The cooperative's fee is from 0 to 20 percent");
            0
        }
    };
    let status = match input.status.map(str::trim) {
        None | Some("") => current.map_or(Status::Active, |c| c.status),
        Some(word) => Status::parse(word).unwrap_or_else(|| {
            errors.add("status", "invalid_option", "The status is active or suspended");
            Status::Active
        }),
    };
    errors.finish()?;
    Ok(Fields { name, territory, market_id: market.map_or(0, |m| m.id), description, fee_bp, status })
}

pub fn create(conn: &Connection, admin: &UserRow, input: &CooperativeInput<'_>) -> ApiResult<CooperativeRow> {
    must_be_admin(admin)?;
    let fields = check(conn, None, input)?;
    let id = rows::insert(conn, &fields, &clock::now())?;
    rows::find(conn, id)?.ok_or_else(not_found)
}

pub fn update(conn: &Connection, admin: &UserRow, id: i64, input: &CooperativeInput<'_>) -> ApiResult<CooperativeRow> {
    must_be_admin(admin)?;
    let current = rows::find(conn, id)?.ok_or_else(not_found)?;
    let fields = check(conn, Some(&current), input)?;
    rows::update(conn, id, &fields, &clock::now())?;
    let changed = rows::find(conn, id)?.ok_or_else(not_found)?;
    lots::follow(conn, &changed)?;
    Ok(changed)
}

fn must_be_admin(user: &UserRow) -> ApiResult<()> {
    if user.role.is_admin() { Ok(()) } else { Err(AppError::forbidden("forbidden", "Only admins manage cooperatives")) }
}

/// An active cooperative, for what only an active one does (join, weigh in, sell).
pub fn active(conn: &Connection, id: i64) -> ApiResult<CooperativeRow> {
    let found = rows::find(conn, id)?.ok_or_else(not_found)?;
    if found.status == Status::Suspended {
        return Err(AppError::conflict("cooperative_suspended", "This cooperative is suspended"));
    }
    Ok(found)
}

/// Whether `user` manages cooperative `id` (an active manager).
pub fn manages(conn: &Connection, user: &UserRow, id: i64) -> ApiResult<bool> {
    Ok(rows::membership(conn, id, user.id)?
        .is_some_and(|m| m.role == MemberRole::Manager && m.status == MemberStatus::Active))
}

/// A member records where their plot is and whether their name may be in origin reports.
pub fn set_origin(
    conn: &Connection,
    member: &UserRow,
    id: i64,
    plot: Option<(f64, f64)>,
    named: bool,
) -> ApiResult<()> {
    match rows::membership(conn, id, member.id)? {
        Some(m) if m.status != MemberStatus::Asked => {}
        _ => return Err(AppError::not_found("member_not_found", "You are not a member of this cooperative")),
    }
    rows::set_origin(conn, id, member.id, plot, named, &clock::now())?;
    Ok(())
}

/// A cooperative's active managers.
pub fn managers(conn: &Connection, id: i64) -> ApiResult<Vec<UserRow>> {
    let mut found = Vec::new();
    for m in rows::members(conn, id)? {
        if m.role == MemberRole::Manager && m.status == MemberStatus::Active {
            found.extend(users::find(conn, m.user_id)?);
        }
    }
    Ok(found)
}

/// Refuses anyone but the cooperative's managers (and admins when `admins` is true).
pub fn must_manage(conn: &Connection, user: &UserRow, id: i64, admins: bool) -> ApiResult<CooperativeRow> {
    let found = rows::find(conn, id)?.ok_or_else(not_found)?;
    if (admins && user.role.is_admin()) || manages(conn, user, id)? {
        Ok(found)
    } else {
        Err(AppError::forbidden("managers_only", "Only this cooperative's managers can do this"))
    }
}

/// A farmer asks to join; asking again, or as a member, changes nothing.
pub fn ask_to_join(conn: &Connection, farmer: &UserRow, id: i64) -> ApiResult<MemberRow> {
    if farmer.role != Role::Farmer {
        return Err(AppError::forbidden("farmers_only", "Only farmers join cooperatives"));
    }
    active(conn, id)?;
    match rows::membership(conn, id, farmer.id)? {
        Some(known) if known.status != MemberStatus::Removed => return Ok(known),
        _ => {}
    }
    rows::set_member(conn, id, farmer.id, MemberRole::Member, MemberStatus::Asked, &clock::now())?;
    rows::membership(conn, id, farmer.id)?.ok_or_else(not_found)
}

/// What a manager or an admin changes of a person's place: accept or remove a member,
/// add a farmer directly (one who joined by basic phone), or (admins only) name a manager.
pub struct MemberChange<'a> {
    pub status: Option<&'a str>,
    pub role: Option<&'a str>,
}

pub fn change_member(
    conn: &Connection,
    by: &UserRow,
    id: i64,
    person_id: i64,
    change: &MemberChange<'_>,
) -> ApiResult<MemberRow> {
    must_manage(conn, by, id, true)?;
    let person = users::find(conn, person_id)?
        .ok_or_else(|| AppError::not_found("person_not_found", "This person does not exist"))?;
    let known = rows::membership(conn, id, person_id)?;
    let mut errors = FieldErrors::default();
    let status = match change.status {
        None => known.as_ref().map_or(MemberStatus::Active, |m| m.status),
        Some(word) => MemberStatus::parse(word.trim()).unwrap_or_else(|| {
            errors.add("status", "invalid_option", "The status is active or removed");
            MemberStatus::Active
        }),
    };
    let role = match change.role {
        None => known.as_ref().map_or(MemberRole::Member, |m| m.role),
        Some(word) => MemberRole::parse(word.trim()).unwrap_or_else(|| {
            errors.add("role", "invalid_option", "The role is member or manager");
            MemberRole::Member
        }),
    };
    errors.finish()?;
    if status == MemberStatus::Asked {
        return Err(AppError::invalid("status", "invalid_option", "The status is active or removed"));
    }
    // Managers are named and unnamed by admins; managers answer members.
    let was_manager = known.as_ref().is_some_and(|m| m.role == MemberRole::Manager && m.status == MemberStatus::Active);
    let is_manager = role == MemberRole::Manager && status == MemberStatus::Active;
    if was_manager != is_manager && !by.role.is_admin() {
        return Err(AppError::forbidden("admins_name_managers", "Only admins name a cooperative's managers"));
    }
    let may_be = match role {
        MemberRole::Member => person.role == Role::Farmer,
        MemberRole::Manager => matches!(person.role, Role::Farmer | Role::FieldAgent),
    };
    if !may_be && status == MemberStatus::Active {
        return Err(AppError::conflict("not_a_farmer", "Members are farmers; managers are farmers or field agents"));
    }
    if status == MemberStatus::Active {
        active(conn, id)?;
    }
    if known.is_none() && status == MemberStatus::Removed {
        return Err(AppError::not_found("member_not_found", "This person is not a member"));
    }
    rows::set_member(conn, id, person_id, role, status, &clock::now())?;
    if known.as_ref().map(|m| m.status) != Some(status) && status == MemberStatus::Active {
        let cooperative = rows::find(conn, id)?.ok_or_else(not_found)?;
        let name = crate::platform::gsm7::cut(&cooperative.name, deliveries::COOP_SMS_CHARS);
        crate::domain::sms::text_person(conn, &person, "coop_welcome", &[("coop", &name)])?;
    }
    rows::membership(conn, id, person_id)?.ok_or_else(not_found)
}
