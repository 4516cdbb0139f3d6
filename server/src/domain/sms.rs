//! Text messages to people (docs/sms.md): the catalogue's `sms.*` templates in
//! the person's language, in GSM-7 and one segment, written to the SMS outbox
//! in the transaction of what they announce.

use crate::db::Connection;

use crate::db::users::UserRow;
use crate::error::ApiResult;
use crate::labels::Lang;
use crate::platform::gsm7;
use crate::{db, platform::clock};

/// A person's name in a message is cut to this many characters, so that every
/// template fits one segment (a test fills each with a name this long).
pub const NAME_CHARS: usize = 20;

/// Writes `person` the update `sms.<key>` when they have a phone number and
/// have not turned SMS updates off in their profile.
pub fn text_person(conn: &Connection, person: &UserRow, key: &str, values: &[(&str, &str)]) -> ApiResult<()> {
    if person.sms_updates { send(conn, person, key, values) } else { Ok(()) }
}

/// Writes `person` the message `sms.<key>` when they have a phone number, whatever
/// their SMS updates say (a code they asked for).
pub fn send(conn: &Connection, person: &UserRow, key: &str, values: &[(&str, &str)]) -> ApiResult<()> {
    let Some(number) = person.phone_number.as_deref().filter(|n| n.starts_with('+')) else { return Ok(()) };
    let lang = lang_of(conn, person)?;
    let dial = dial_code(conn)?;
    let mut all = values.to_vec();
    // A message that names the code to dial says it only when one is known: a person
    // with no smartphone cannot dial "the MAVUNO code" (its `_no_code` words name none).
    let key = match &dial {
        Some(dial) => {
            all.push(("dial", dial));
            key.to_owned()
        }
        None if lang.text(&format!("sms.{key}")).contains("{{dial}}") => format!("{key}_no_code"),
        None => key.to_owned(),
    };
    let body = compose(lang, &key, &person.first_name, &all);
    db::sms::enqueue(conn, number, &body, &clock::now())?;
    Ok(())
}

/// The USSD code people dial, when a super admin has set it (docs/settings.md).
pub fn dial_code(conn: &Connection) -> ApiResult<Option<String>> {
    Ok(match crate::domain::settings::ussd_code(conn)? {
        Some(code) => Some(code),
        None => db::meta::get(conn, DIALLED)?,
    })
}

/// The code people dial as the USSD gateway last said it (`serviceCode`), kept for the
/// messages that name the code when no super admin has set one: a farmer welcomed with
/// "dial *384*12# again" is not told "the MAVUNO phone menu" in the next message.
const DIALLED: &str = "ussd_code_dialled";

/// Whether `code`, what the gateway says was dialled, is to be kept (`note_dialled`): no
/// code is set and it is not the one kept already.
pub fn dialled_is_new(conn: &Connection, code: &str) -> ApiResult<bool> {
    Ok(crate::domain::settings::ussd_code(conn)?.is_none() && db::meta::get(conn, DIALLED)?.as_deref() != Some(code))
}

pub fn note_dialled(conn: &Connection, code: &str) -> ApiResult<()> {
    if crate::domain::settings::is_ussd_code(code) {
        db::meta::set(conn, DIALLED, code)?;
    }
    Ok(())
}

/// The language to write to `person` in: the one their number chose in the USSD
/// menu, else their country's (docs/ussd.md).
pub fn lang_of(conn: &Connection, person: &UserRow) -> ApiResult<Lang> {
    let chosen = match &person.phone_number {
        Some(phone) => db::phone_settings::language(conn, phone)?,
        None => None,
    };
    Ok(match chosen {
        Some(code) => Lang::parse(Some(&code)),
        None => crate::domain::settings::lang_for(conn, person.country)?,
    })
}

/// The message `sms.<key>` for `name`: in GSM-7, at most one segment.
pub fn compose(lang: Lang, key: &str, name: &str, values: &[(&str, &str)]) -> String {
    let name = gsm7::cut(&gsm7::fold(name.trim()), NAME_CHARS);
    let mut all = vec![("name", name.as_str())];
    all.extend_from_slice(values);
    gsm7::cut(&gsm7::fold(&lang.format(&format!("sms.{key}"), &all)), gsm7::SEGMENT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labels::LANGUAGES;

    #[test]
    fn every_template_in_every_language_is_gsm7_and_fits_one_segment_with_the_longest_name() {
        let catalogue: serde_json::Value =
            serde_json::from_str(include_str!("../../../pwa/src/locales/en.json")).unwrap();
        let keys: Vec<&String> = catalogue["sms"].as_object().unwrap().keys().collect();
        assert!(keys.len() >= 9);
        let name = "W".repeat(NAME_CHARS);
        for code in LANGUAGES {
            let lang = Lang::parse(Some(code));
            for key in &keys {
                let template = lang.text(&format!("sms.{key}"));
                assert!(gsm7::units(&template).is_some(), "{code} sms.{key} has a character outside GSM-7: {template}");
                let title = "W".repeat(crate::domain::products::moderation::SMS_TITLE_CHARS);
                let coop = "W".repeat(crate::domain::cooperatives::deliveries::COOP_SMS_CHARS);
                let longest = [
                    ("name", name.as_str()),
                    ("number", "9999999"),
                    ("total", "9999999.99 USD"),
                    ("code", "999999"),
                    ("title", title.as_str()),
                    ("dial", "*1234567890*1234567#"),
                    // An admin's comment is shortened to the room its message leaves.
                    ("comment", "W"),
                    ("minutes", "99999"),
                    // A cooperative's receipts (domain::cooperatives::deliveries).
                    ("coop", coop.as_str()),
                    ("place", coop.as_str()),
                    ("quantity", "19999.9"),
                    ("crop", "WWWWWWWWWWWWWWWW"),
                    ("grade", "A"),
                    ("date", "2026-12-31"),
                    ("ref", "D99999999"),
                    ("was", "D99999999"),
                    ("note", &"W".repeat(crate::domain::cooperatives::deliveries::KEPT_NOTE_SMS_CHARS)),
                    // A member's share of a lot's sale (domain::cooperatives::lots).
                    ("amount", "9,999,999.99 USD"),
                    ("order", "99999999"),
                    ("owed", "9,999,999.99 USD"),
                    // An order lost when the server was restored (domain::restored).
                    ("time", "23:59"),
                    ("buyer", name.as_str()),
                ];
                let filled = lang.format(&format!("sms.{key}"), &longest);
                assert!(!filled.contains("{{"), "{code} sms.{key}: a placeholder the test does not fill");
                let units = gsm7::units(&filled).unwrap();
                assert!(units <= gsm7::SEGMENT, "{code} sms.{key} takes {units} characters: {filled}");
                assert_eq!(compose(lang, key, &name, &longest[1..]), filled, "nothing cut");
            }
        }
    }

    #[test]
    fn names_are_folded_into_gsm7_and_cut() {
        let text = compose(
            Lang::parse(Some("fr")),
            "decision_approved",
            "Françoise Mukêsa-Bahati Nyiramana",
            &[("number", "12")],
        );
        assert!(text.starts_with("MAVUNO: Francoise Mukesa-Bah, votre demande"), "{text}");
        assert!(gsm7::units(&text).is_some());
    }
}
