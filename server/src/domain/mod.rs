//! The rules: validation in the spec's order and wording, permissions, state
//! machines, merges and ledgers, as synchronous functions over a `db::Connection`
//! (a transaction when they write), whichever engine is underneath. REST handlers,
//! sync mutations, the USSD and SMS menus and the workers call them, so each rule
//! lives in one place. They import `db/`, `model/` and `platform/` (clock, GSM-7,
//! CSV), never the HTTP side (`api/`, the server's shared state) or the outside world
//! (`outbound/`'s mail, SMS and providers): `scripts/check-layers`.

/// A UUID in its usual text form (client-made ids: records, devices).
pub fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() })
}

/// A record made once by the uid a phone chose (a change sent twice lands once): `known`
/// is what that uid names already. The maker's own (`mine`) is answered again as it was
/// made; anyone else's is `uid_taken` (`taken` says whose). `None`: make it now.
pub fn made_once<T>(
    known: Option<T>,
    mine: impl FnOnce(&T) -> bool,
    taken: &'static str,
) -> crate::error::ApiResult<Option<T>> {
    match known {
        Some(known) if mine(&known) => Ok(Some(known)),
        Some(_) => Err(crate::error::AppError::conflict("uid_taken", taken)),
        None => Ok(None),
    }
}

pub mod accounts;
pub mod analytics;
pub mod basic_phones;
pub mod blogs;
pub mod comments;
pub mod contact;
pub mod cooperatives;
pub mod courses;
pub mod exchange_rates;
pub mod favourites;
pub mod identifiers;
pub mod input;
pub mod long_text;
pub mod merge;
pub mod notifications;
pub mod offsite;
pub mod orders;
pub mod password_reset;
pub mod payments;
pub mod people;
pub mod person;
pub mod phone;
pub mod prices;
pub mod products;
pub mod registrations;
pub mod restored;
pub mod reviews;
pub mod settings;
pub mod sms;
pub mod surveys;
pub mod sync;
pub mod uploads;
