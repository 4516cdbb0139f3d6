//! The rules of the basic-phone channels (docs/ussd.md) that are not menus: who
//! sells a crop, a number's language, and the PIN that guards sensitive steps.
//! The crops and their prices are market prices' (`domain::prices`).

use crate::db::Connection;

use crate::db::market::{self, Offer};
use crate::db::phone_settings;
use crate::error::ApiResult;
use crate::labels::Lang;
use crate::model::user::Country;
use crate::platform::clock;

/// Offers read at most to find sellers.
const OFFERS_READ: i64 = 2000;

/// Up to `max` products of `crop` on sale, those whose farmer is near `place` first.
pub fn sellers(
    conn: &Connection,
    crop: &super::prices::Crop,
    place: Option<&str>,
    max: usize,
) -> ApiResult<Vec<Offer>> {
    let place = place.map(|p| crate::model::product::fold(p.trim())).filter(|p| !p.is_empty());
    let mut offers: Vec<Offer> =
        market::listed(conn, OFFERS_READ)?.into_iter().filter(|offer| crop.names(&offer.names)).collect();
    if let Some(place) = place {
        // A stable sort: near first, newest first within each.
        offers.sort_by_key(|offer| {
            !offer.farmer_location.as_deref().is_some_and(|l| crate::model::product::fold(l).contains(&place))
        });
    }
    offers.truncate(max);
    Ok(offers)
}

/// The language of a number: the one it chose, else its account's country's, else
/// its calling code's.
pub fn language(conn: &Connection, phone: &str, country: Option<Country>) -> ApiResult<Lang> {
    Ok(match phone_settings::language(conn, phone)? {
        Some(code) => Lang::parse(Some(&code)),
        None => Lang::for_country(country.or_else(|| country_of(phone))),
    })
}

/// The served country a number's calling code names.
pub fn country_of(phone: &str) -> Option<Country> {
    let digits = phone.strip_prefix('+')?;
    [Country::Drc, Country::Bdi, Country::Rwa, Country::Uga, Country::Tza, Country::Ken]
        .into_iter()
        .find(|country| digits.starts_with(crate::domain::phone::calling_code(*country)))
}

/// What a USSD session learned (`ussd_memos`: a PIN's verdict, a write done, the
/// screens shown) is kept this long: far longer than a gateway retries a request.
pub const MEMOS_KEPT: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Wrong PINs in a row before the PIN is locked for `PIN_LOCK`.
pub const PIN_TRIES: i64 = 5;
pub const PIN_LOCK: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// Where a number's PIN stands.
#[derive(Debug, Clone)]
pub enum PinState {
    None,
    Set { hash: String, tries_left: i64 },
    Locked,
}

pub fn pin_state(conn: &Connection, phone: &str) -> ApiResult<PinState> {
    let now = clock::now();
    Ok(match phone_settings::pin(conn, phone)? {
        None => PinState::None,
        Some(pin) if pin.locked_until.as_deref().is_some_and(|until| until > now.as_str()) => PinState::Locked,
        Some(pin) => PinState::Set { hash: pin.hash, tries_left: (PIN_TRIES - pin.failures % PIN_TRIES).max(1) },
    })
}

/// Why a new PIN is refused: `invalid` (not 4 digits) or `weak` (one digit, or a
/// run such as 1234 or 9876).
pub fn pin_problem(pin: &str) -> Option<&'static str> {
    let digits: Vec<i32> = pin.chars().filter_map(|c| c.to_digit(10)).map(|d| d as i32).collect();
    if pin.len() != 4 || digits.len() != 4 {
        return Some("invalid");
    }
    let steps: Vec<i32> = digits.windows(2).map(|w| w[1] - w[0]).collect();
    if steps.iter().all(|s| *s == steps[0] && s.abs() <= 1) {
        return Some("weak");
    }
    None
}

/// Takes a try at the PIN before it is checked: `Some(tries left if it is wrong)` (0:
/// wrong locks it), or `None` when it is locked and no try may be taken. A right PIN
/// then gives the tries back (`right_pin`).
pub fn take_pin_try(conn: &Connection, phone: &str) -> ApiResult<Option<i64>> {
    let lock_until = clock::format(time::OffsetDateTime::now_utc() + PIN_LOCK);
    let failures = phone_settings::take_pin_try(conn, phone, PIN_TRIES, &lock_until, &clock::now())?;
    Ok(failures.map(|failures| if failures % PIN_TRIES == 0 { 0 } else { PIN_TRIES - failures % PIN_TRIES }))
}

/// A right PIN: the tries start again from nothing and a lock its own try set is lifted.
pub fn right_pin(conn: &Connection, phone: &str) -> ApiResult<()> {
    Ok(phone_settings::right_pin(conn, phone)?)
}

pub fn set_pin(conn: &Connection, phone: &str, hash: &str) -> ApiResult<()> {
    Ok(phone_settings::set_pin(conn, phone, hash, &clock::now())?)
}

/// What a PIN is hashed and checked as: argon2 like a password (with the server's
/// two-at-a-time limit on the work, `auth::hash_password_async`), marked as a PIN.
pub fn pin_secret(pin: &str) -> String {
    format!("pin:{pin}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_and_malformed_pins_are_refused() {
        assert_eq!(pin_problem("12a4"), Some("invalid"));
        assert_eq!(pin_problem("12345"), Some("invalid"));
        assert_eq!(pin_problem("1234"), Some("weak"));
        assert_eq!(pin_problem("0000"), Some("weak"));
        assert_eq!(pin_problem("9876"), Some("weak"));
        assert_eq!(pin_problem("2580"), None);
        assert_eq!(pin_problem("1357"), None);
    }

    #[test]
    fn a_number_s_country_is_read_from_its_calling_code() {
        assert_eq!(country_of("+243991234567"), Some(Country::Drc));
        assert_eq!(country_of("+254712345678"), Some(Country::Ken));
        assert_eq!(country_of("+33612345678"), None);
        assert_eq!(country_of("0991234567"), None);
    }
}
