//! The weigh book (docs/cooperatives.md): a manager records what a member brought to
//! the collection point, offline if need be (`delivery.record`, one uid applied once);
//! the member gets an SMS receipt; a member may dispute an entry for `DISPUTE_DAYS`; a
//! correction is a new entry naming the one it replaces, so the history stays.

use time::{Duration, OffsetDateTime};

use crate::db::deliveries::{self as rows, DeliveryRow, NewDelivery};
use crate::db::users::UserRow;
use crate::db::{Connection, cooperatives as coop_rows, users};
use crate::domain::made_once;
use crate::domain::notifications::{notify, section};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::cooperative::{Grade, MemberRole, MemberStatus, WeighUnit};
use crate::model::picture::is_hash;
use crate::model::user::Role;
use crate::platform::{clock, gsm7};

/// How long after an entry is written its member may dispute it.
pub const DISPUTE_DAYS: i64 = 7;
/// One entry is at most a lorry's load: 20 tonnes.
pub const MAX_GRAMS: i64 = 20_000_000;
/// A delivery is written at most this long after it happened (a phone offline for weeks).
pub const MAX_AGE_DAYS: i64 = 60;
pub const MAX_PLACE_CHARS: usize = 60;
pub const MAX_NOTE_CHARS: usize = 300;
/// A cooperative's name and a collection point in an SMS are cut to this many characters.
pub const COOP_SMS_CHARS: usize = 24;
/// A manager's reason for keeping a disputed entry, in the member's SMS, is cut to this.
pub const KEPT_NOTE_SMS_CHARS: usize = 50;

/// What a manager's phone sends (the `delivery.record` change, or the REST form).
#[derive(Debug, Clone, Default)]
pub struct DeliveryInput<'a> {
    pub uid: &'a str,
    pub cooperative_id: i64,
    pub member_id: i64,
    pub crop: &'a str,
    pub grade: &'a str,
    pub quantity: &'a str,
    pub unit: &'a str,
    pub delivered_on: &'a str,
    pub place: &'a str,
    pub photo: Option<&'a str>,
    /// The uid of the entry this one corrects.
    pub replaces: Option<&'a str>,
    /// Why: required for a correction.
    pub note: Option<&'a str>,
}

/// `quantity` of `unit` in grams: tenths at most ("48.5", "48,5"), more than zero
/// (zero only when `voids`), at most `MAX_GRAMS`.
pub fn grams_of(quantity: &str, unit: WeighUnit, voids: bool) -> Option<i64> {
    let text = quantity.trim().replace(',', ".");
    let (whole, tenths) = match text.split_once('.') {
        Some((whole, tenth)) if tenth.len() == 1 => (whole, tenth),
        Some((whole, "")) => (whole, "0"),
        Some(_) => return None,
        None => (text.as_str(), "0"),
    };
    if whole.is_empty() || whole.len() > 9 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !tenths.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let tenths: i64 = whole.parse::<i64>().ok()? * 10 + tenths.parse::<i64>().ok()?;
    let grams = tenths * unit.grams() / 10;
    (grams <= MAX_GRAMS && (grams > 0 || voids && grams == 0)).then_some(grams)
}

struct Checked<'a> {
    grade: Grade,
    unit: WeighUnit,
    grams: i64,
    quantity: String,
    delivered_on: String,
    place: &'a str,
    replaces: Option<DeliveryRow>,
    note: Option<&'a str>,
    member: UserRow,
}

fn check<'a>(conn: &Connection, input: &'a DeliveryInput<'a>) -> ApiResult<Checked<'a>> {
    let mut errors = FieldErrors::default();
    let replaces = match input.replaces.map(str::trim).filter(|r| !r.is_empty()) {
        Some(uid) => match rows::by_uid(conn, uid)? {
            Some(entry) if entry.cooperative_id == input.cooperative_id => Some(entry),
            _ => {
                errors.add("replaces", "not_found", "The entry to correct is not in this cooperative's book");
                None
            }
        },
        None => None,
    };
    if let Some(entry) = &replaces {
        if entry.replaced_by.is_some() {
            // The book moved on since the phone saw it: a conflict, as for a dispute.
            return Err(already_corrected());
        }
        if entry.in_lot {
            errors.add("replaces", "delivery_in_lot", "This entry is in a lot on sale and can no longer be corrected");
        }
    }
    let member = users::find(conn, input.member_id)?;
    let membership = coop_rows::membership(conn, input.cooperative_id, input.member_id)?;
    let member = match (member, membership) {
        (Some(member), _) if member.role != Role::Farmer => {
            errors.add("member_id", "not_a_member", "Deliveries are brought by farmers who are members");
            None
        }
        (Some(member), Some(m)) if m.status == MemberStatus::Active => Some(member),
        // A correction may still name someone removed since: their history stays.
        (Some(member), Some(_)) if replaces.as_ref().is_some_and(|r| r.member_id == member.id) => Some(member),
        _ => {
            errors.add("member_id", "not_a_member", "This person is not a member of the cooperative");
            None
        }
    };
    if crate::domain::prices::crop(input.crop.trim()).is_none() {
        errors.add("crop", "crop_unknown", "Choose a crop of the list");
    }
    let grade = Grade::parse(input.grade.trim());
    if grade.is_none() {
        errors.add("grade", "invalid_option", "The grade is A, B or C");
    }
    let unit = WeighUnit::parse(input.unit.trim());
    if unit.is_none() {
        errors.add("unit", "invalid_option", "The unit is kg, bag_50kg or bag_100kg");
    }
    let grams = unit.and_then(|unit| grams_of(input.quantity, unit, replaces.is_some()));
    if unit.is_some() && grams.is_none() {
        errors.add("quantity", "out_of_range", "The quantity is a number above zero, at most 20 tonnes, one decimal");
    }
    // The South Kivu day, as prices count them.
    let today = crate::domain::prices::today();
    let day = clock::parse_day(input.delivered_on);
    match day {
        None => errors.add("delivered_on", "date_invalid", "The date is YYYY-MM-DD"),
        // South Kivu's day, where the scale is: tomorrow there is not written yet.
        Some(day) if day > today => errors.add("delivered_on", "date_future", "The delivery cannot be in the future"),
        Some(day) if day < today - Duration::days(MAX_AGE_DAYS) => {
            errors.add("delivered_on", "date_too_old", "Deliveries are written within 60 days")
        }
        Some(_) => {}
    }
    let place = input.place.trim();
    if place.is_empty() {
        errors.add("place", "required", "The collection point is required");
    } else if place.chars().count() > MAX_PLACE_CHARS {
        errors.add("place", "too_long", format!("The collection point is at most {MAX_PLACE_CHARS} characters"));
    }
    if input.photo.is_some_and(|p| !is_hash(p)) {
        errors.add("photo", "invalid_hash", "The photo is not an uploaded picture");
    }
    let note = input.note.map(str::trim).filter(|n| !n.is_empty());
    if note.is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS) {
        errors.add("note", "too_long", format!("The note is at most {MAX_NOTE_CHARS} characters"));
    } else if replaces.is_some() && note.is_none() {
        errors.add("note", "required", "Say why the entry is corrected");
    }
    errors.finish()?;
    let (Some(grade), Some(unit), Some(grams), Some(day), Some(member)) = (grade, unit, grams, day, member) else {
        return Err(AppError::internal("a checked delivery lost a field"));
    };
    Ok(Checked {
        grade,
        unit,
        grams,
        quantity: input.quantity.trim().replace(',', "."),
        delivered_on: day.to_string(),
        place,
        replaces,
        note,
        member,
    })
}

/// A manager writes an entry (or a correction) of the book. The same uid again, by the
/// same manager, answers the entry written first: a phone's resent change lands once.
pub fn record(conn: &Connection, manager: &UserRow, input: &DeliveryInput<'_>) -> ApiResult<DeliveryRow> {
    let cooperative = super::must_manage(conn, manager, input.cooperative_id, false)?;
    if !crate::domain::is_uuid(input.uid) {
        return Err(AppError::bad_request("invalid_uid", "uid must be a UUID"));
    }
    let known = rows::by_uid(conn, input.uid)?;
    if let Some(known) = made_once(known, |k| k.recorded_by == manager.id, "This uid names another entry")? {
        return Ok(known);
    }
    super::active(conn, cooperative.id)?;
    let checked = check(conn, input)?;
    // The scale's photo is sent before the entry; not there yet, the phone sends it and
    // tries again (sync answers `retry`, as for a listing's photos).
    if let Some(photo) = input.photo.filter(|p| is_hash(p)) {
        if crate::db::uploads::find(conn, photo)?.is_none() {
            return Err(crate::domain::products::photo_missing(&[photo.to_owned()]));
        }
    }
    let now = clock::now();
    let id = rows::insert(
        conn,
        &NewDelivery {
            uid: input.uid,
            cooperative_id: cooperative.id,
            member_id: checked.member.id,
            crop: input.crop.trim(),
            grade: checked.grade,
            quantity: &checked.quantity,
            unit: checked.unit,
            grams: checked.grams,
            delivered_on: &checked.delivered_on,
            place: checked.place,
            photo: input.photo,
            replaces_id: checked.replaces.as_ref().map(|r| r.id),
            note: checked.note,
            recorded_by: manager.id,
        },
        &now,
    )?;
    if let Some(corrected) = &checked.replaces {
        rows::answer_dispute(conn, corrected.id, "corrected", checked.note, manager.id, &now)?;
        if corrected.dispute.as_ref().is_some_and(|d| d.answer.is_none()) {
            // The SMS receipt of the correction below says what it is now.
            answered_in_app(conn, corrected, "dispute_corrected", checked.note.unwrap_or_default())?;
        }
    }
    let entry = rows::find(conn, id)?.ok_or_else(|| AppError::internal("an entry just written is gone"))?;
    let key = match &checked.replaces {
        None => "coop_received",
        Some(_) if entry.grams == 0 => "coop_voided",
        Some(_) => "coop_corrected",
    };
    receipt(conn, &checked.member, key, &entry, checked.replaces.as_ref())?;
    if let Some(corrected) = checked.replaces.filter(|r| r.member_id != entry.member_id) {
        // Weighed to the wrong person: they hear it is no longer theirs.
        if let Some(before) = users::find(conn, corrected.member_id)? {
            receipt(conn, &before, "coop_moved", &corrected, Some(&corrected))?;
        }
    }
    Ok(entry)
}

/// The reference an entry goes by in messages: `D` and its number.
pub fn reference(id: i64) -> String {
    format!("D{id}")
}

/// The member's SMS receipt in their language, whatever their SMS updates say: the
/// weigh book's trust rests on it.
fn receipt(
    conn: &Connection,
    member: &UserRow,
    key: &str,
    entry: &DeliveryRow,
    corrects: Option<&DeliveryRow>,
) -> ApiResult<()> {
    let lang = crate::domain::sms::lang_of(conn, member)?;
    let crop = crate::domain::prices::crop(&entry.crop).map_or(entry.crop.clone(), |c| c.name(lang).to_lowercase());
    let coop = gsm7::cut(&entry.cooperative_name, COOP_SMS_CHARS);
    let place = gsm7::cut(&entry.place, COOP_SMS_CHARS);
    let (quantity, reference, was) =
        (lang.kilograms(entry.grams), reference(entry.id), corrects.map(|c| reference(c.id)).unwrap_or_default());
    let values = [
        ("coop", coop.as_str()),
        ("quantity", quantity.as_str()),
        ("crop", crop.as_str()),
        ("grade", entry.grade.as_str()),
        ("place", place.as_str()),
        ("date", entry.delivered_on.as_str()),
        ("ref", reference.as_str()),
        ("was", was.as_str()),
    ];
    crate::domain::sms::send(conn, member, key, &values)
}

/// A member says an entry of theirs is wrong, within `DISPUTE_DAYS` of its writing.
pub fn dispute(conn: &Connection, member: &UserRow, id: i64, reason: &str) -> ApiResult<DeliveryRow> {
    let entry = rows::find(conn, id)?.filter(|e| e.member_id == member.id).ok_or_else(not_found)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::invalid("reason", "required", "Say what is wrong"));
    }
    if reason.chars().count() > MAX_NOTE_CHARS {
        return Err(AppError::invalid("reason", "too_long", format!("At most {MAX_NOTE_CHARS} characters")));
    }
    if entry.dispute.is_some() {
        return Err(AppError::conflict("already_disputed", "This entry is disputed already"));
    }
    if entry.replaced_by.is_some() {
        return Err(already_corrected());
    }
    let written = clock::parse(&entry.created_at).ok_or_else(|| AppError::internal("an entry's time"))?;
    if OffsetDateTime::now_utc() - written > Duration::days(DISPUTE_DAYS) {
        return Err(AppError::conflict("dispute_too_late", "Entries are disputed within 7 days"));
    }
    rows::add_dispute(conn, entry.id, member.id, reason, &clock::now())?;
    // Its managers have it among their disputes; each is told.
    let name = format!("{} {}", member.first_name, member.last_name);
    let values = [("name", name.trim()), ("ref", &reference(entry.id))];
    for manager in coop_rows::members(conn, entry.cooperative_id)? {
        if manager.role == MemberRole::Manager && manager.status == MemberStatus::Active {
            notify(conn, manager.user_id, "dispute_opened", &section("cooperative"), &values)?;
        }
    }
    rows::find(conn, id)?.ok_or_else(not_found)
}

/// A manager keeps a disputed entry as it is, saying why (a correction answers it too).
pub fn keep(conn: &Connection, manager: &UserRow, id: i64, note: &str) -> ApiResult<DeliveryRow> {
    let entry = rows::find(conn, id)?.ok_or_else(not_found)?;
    super::must_manage(conn, manager, entry.cooperative_id, false)?;
    let note = note.trim();
    if note.is_empty() || note.chars().count() > MAX_NOTE_CHARS {
        return Err(AppError::invalid("note", "required", "Say why the entry stays as it is"));
    }
    match &entry.dispute {
        Some(d) if d.answer.is_none() => {}
        _ => return Err(AppError::conflict("not_disputed", "This entry has no open dispute")),
    }
    rows::answer_dispute(conn, entry.id, "kept", Some(note), manager.id, &clock::now())?;
    answered_in_app(conn, &entry, "dispute_kept", note)?;
    if let Some(member) = users::find(conn, entry.member_id)? {
        let coop = gsm7::cut(&entry.cooperative_name, COOP_SMS_CHARS);
        let note = gsm7::shorten(&gsm7::fold(note), KEPT_NOTE_SMS_CHARS);
        let values = [("coop", coop.as_str()), ("ref", &reference(entry.id)), ("note", note.as_str())];
        crate::domain::sms::send(conn, &member, "coop_kept", &values)?;
    }
    rows::find(conn, id)?.ok_or_else(not_found)
}

/// Tells the member of `entry` in the app that their dispute of it is answered, and why.
fn answered_in_app(conn: &Connection, entry: &DeliveryRow, kind: &str, note: &str) -> ApiResult<()> {
    let values = [("coop", entry.cooperative_name.as_str()), ("ref", &reference(entry.id)), ("note", note)];
    notify(conn, entry.member_id, kind, &section("cooperative"), &values)
}

pub fn not_found() -> AppError {
    AppError::not_found("delivery_not_found", "This entry does not exist")
}

/// An entry corrected since: neither corrected nor disputed again (its correction is).
fn already_corrected() -> AppError {
    AppError::conflict("already_corrected", "This entry was corrected since: correct or dispute its correction")
}

/// A member's latest entries that count, newest first, as many as `room` GSM-7
/// characters hold ("Your deliveries: D12 48.5 kg beans A 2026-03-12; …"): the SMS
/// command's answer and the USSD screen's.
pub fn latest(conn: &Connection, member: &UserRow, lang: crate::labels::Lang, room: usize) -> ApiResult<String> {
    let entries = rows::of_member(conn, member.id, 10, 0)?;
    let lines: Vec<String> = entries
        .iter()
        .filter(|d| d.replaced_by.is_none() && d.grams > 0)
        .map(|d| {
            let crop = crate::domain::prices::crop(&d.crop).map_or(d.crop.clone(), |c| c.name(lang).to_lowercase());
            format!("{} {} kg {crop} {} {}", reference(d.id), lang.kilograms(d.grams), d.grade.as_str(), d.delivered_on)
        })
        .collect();
    if lines.is_empty() {
        return Ok(lang.text("ussd.commands.deliveries_none"));
    }
    let mut text = lang.text("ussd.commands.deliveries_intro");
    for line in lines {
        let next = format!("{text} {line};");
        if gsm7::units(&gsm7::fold(&next)).is_none_or(|n| n > room) {
            break;
        }
        text = next;
    }
    Ok(text.trim_end_matches(';').to_owned())
}

/// What a cooperative holds, by crop and grade.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stock {
    pub crop: String,
    pub grade: Grade,
    pub received_grams: i64,
    /// Drawn into lots (on sale or sold).
    pub in_lots_grams: i64,
    /// Delivered to buyers, in whole kilograms.
    pub sold_kg: i64,
    pub members: i64,
}

pub fn stock(conn: &Connection, manager: &UserRow, id: i64) -> ApiResult<Vec<Stock>> {
    super::must_manage(conn, manager, id, true)?;
    let in_lots = crate::db::lots::in_lots(conn, id)?;
    let lots = crate::db::lots::of_cooperative(conn, id)?;
    Ok(rows::received(conn, id)?
        .into_iter()
        .map(|(crop, grade, received_grams, members)| Stock {
            in_lots_grams: in_lots.iter().find(|(c, g, _)| *c == crop && *g == grade).map_or(0, |l| l.2),
            sold_kg: lots.iter().filter(|l| l.crop == crop && l.grade == grade).map(|l| l.sold_kg).sum(),
            crop,
            grade,
            received_grams,
            members,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_are_read_in_tenths_of_their_unit() {
        assert_eq!(grams_of("48.5", WeighUnit::Kg, false), Some(48_500));
        assert_eq!(grams_of("48,5", WeighUnit::Kg, false), Some(48_500));
        assert_eq!(grams_of(" 12 ", WeighUnit::Bag50kg, false), Some(600_000));
        assert_eq!(grams_of("0.5", WeighUnit::Bag100kg, false), Some(50_000));
        assert_eq!(grams_of("20000", WeighUnit::Kg, false), Some(MAX_GRAMS));
        assert_eq!(grams_of("0", WeighUnit::Kg, true), Some(0), "a correction may void");
        for bad in ["0", "", "-1", "1.25", "abc", "1e3", "20000.1", "401", ".5", "99999999999"] {
            let unit = if bad == "401" { WeighUnit::Bag50kg } else { WeighUnit::Kg };
            assert_eq!(grams_of(bad, unit, false), None, "{bad:?}");
        }
    }
}
