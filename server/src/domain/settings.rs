//! The platform's settings (docs/settings.md): contact details and working hours (the
//! Contact page and the footer), the shipping policy (checkout), the platform fee
//! (taken from farmers' sales in their ledger), the payment methods and mobile-money
//! operators offered in each country, the emails' sender name and default language, and
//! the USSD code people dial (named in the SMS that send them to the phone menu).
//! Everyone reads the public part; admins read all and the history; only a super admin
//! changes them, and every change is recorded with who made it and when.

use std::collections::BTreeMap;

use crate::db::Connection;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::settings as rows;
use crate::db::users::UserRow;
use crate::domain::input::has_hidden_characters;
use crate::domain::person::looks_like_email;
use crate::domain::phone;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::labels::{LANGUAGES, Lang};
use crate::model::payment::operators;
use crate::model::user::{Country, Role};

/// A text in the PWA's three languages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Texts {
    pub en: String,
    pub fr: String,
    pub sw: String,
}

impl Texts {
    /// A catalogue's words in each language (the defaults before anyone sets them).
    fn from_catalogues(key: &str) -> Texts {
        let [en, fr, sw] = LANGUAGES.map(|code| Lang::parse(Some(code)).text(key));
        Texts { en, fr, sw }
    }

    /// The text in `lang`, else in English (the PWA's `inLanguage`).
    pub fn in_language(&self, lang: Lang) -> &str {
        let text = match lang.code() {
            "fr" => &self.fr,
            "sw" => &self.sw,
            _ => &self.en,
        };
        if text.trim().is_empty() { &self.en } else { text.trim() }
    }

    fn each(&self) -> [(&'static str, &str); 3] {
        [("en", &self.en), ("fr", &self.fr), ("sw", &self.sw)]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Contact {
    pub address: Texts,
    pub hours: Texts,
    /// E.164, or empty when not shown.
    pub phone: String,
    /// Empty when not shown.
    pub email: String,
}

/// What a buyer delivering to one country may pay with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CountryPayments {
    pub cash_on_delivery: bool,
    /// The mobile-money operators offered (ids from `GET /payments/operators`);
    /// none: mobile money is not offered there.
    pub operators: Vec<String>,
}

/// Every setting, each with its value now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Settings {
    pub contact: Contact,
    pub shipping_policy: Texts,
    /// Hundredths of a percent of each sale (250 = 2.5 %), 0 to 3,000.
    pub platform_fee_bp: i64,
    /// By country code (`DRC`, `BDI`, `RWA`, `UGA`, `TZA`, `KEN`).
    pub payments: BTreeMap<String, CountryPayments>,
    pub email_sender_name: String,
    /// For people whose country does not choose their language (Rwanda, Uganda, none).
    pub email_language: String,
    /// The USSD code people dial for the phone menu, as the gateway's operator gave it
    /// (`*384*12#`); empty: the SMS say "the MAVUNO code".
    pub ussd_code: String,
}

/// What anyone may read (`GET /settings`, and a first screen's `#settings`: web/first_screen).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PublicSettings {
    pub contact: Contact,
    pub shipping_policy: Texts,
    pub payments: BTreeMap<String, CountryPayments>,
    /// The USSD code of the phone menu, shown beside the contact lines; empty: none set.
    pub ussd_code: String,
}

impl From<Settings> for PublicSettings {
    fn from(all: Settings) -> PublicSettings {
        PublicSettings {
            contact: all.contact,
            shipping_policy: all.shipping_policy,
            payments: all.payments,
            ussd_code: all.ussd_code,
        }
    }
}

/// A change: the settings it names, each whole (a country's payments replace its own only).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsChange {
    pub contact: Option<Contact>,
    pub shipping_policy: Option<Texts>,
    pub platform_fee_bp: Option<i64>,
    pub payments: Option<BTreeMap<String, CountryPayments>>,
    pub email_sender_name: Option<String>,
    pub email_language: Option<String>,
    pub ussd_code: Option<String>,
}

const MAX_FEE_BP: i64 = 3_000;
/// An email address's longest form (RFC 5321).
const MAX_EMAIL: usize = 254;
const MAX_LINE: usize = 200;
const MAX_POLICY: usize = 4_000;
const MAX_SENDER: usize = 60;
const MAX_USSD_CODE: usize = 20;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            contact: Contact {
                address: Texts::from_catalogues("contact.address"),
                hours: Texts::from_catalogues("contact.hours"),
                phone: String::new(),
                email: String::new(),
            },
            shipping_policy: Texts::from_catalogues("checkout.shipping_policy_default"),
            platform_fee_bp: 0,
            payments: Country::ALL.iter().map(|c| (c.as_str().to_owned(), default_payments(*c))).collect(),
            email_sender_name: "MAVUNO".to_owned(),
            email_language: "en".to_owned(),
            ussd_code: String::new(),
        }
    }
}

/// Before anyone chooses: cash on delivery and every operator of the country.
fn default_payments(country: Country) -> CountryPayments {
    let all = operators(country).iter().map(|(id, _)| (*id).to_owned()).collect();
    CountryPayments { cash_on_delivery: true, operators: all }
}

fn overlay<T: DeserializeOwned>(target: &mut T, stored: Option<&String>) {
    // A value this version cannot read (written by a newer one) leaves the default.
    if let Some(value) = stored.and_then(|json| serde_json::from_str(json).ok()) {
        *target = value;
    }
}

/// The settings now: defaults, with what has been set over them.
pub fn load(conn: &Connection) -> crate::db::Result<Settings> {
    let stored: BTreeMap<String, String> = rows::all(conn)?.into_iter().collect();
    let mut settings = Settings::default();
    overlay(&mut settings.contact, stored.get("contact"));
    overlay(&mut settings.shipping_policy, stored.get("shipping_policy"));
    overlay(&mut settings.platform_fee_bp, stored.get("platform_fee_bp"));
    let mut payments = BTreeMap::new();
    overlay(&mut payments, stored.get("payments"));
    settings.payments.extend(payments);
    overlay(&mut settings.email_sender_name, stored.get("email_sender_name"));
    overlay(&mut settings.email_language, stored.get("email_language"));
    overlay(&mut settings.ussd_code, stored.get("ussd_code"));
    Ok(settings)
}

fn one<T: DeserializeOwned>(conn: &Connection, key: &str) -> crate::db::Result<Option<T>> {
    Ok(rows::get(conn, key)?.and_then(|json| serde_json::from_str(&json).ok()))
}

/// The fee an order placed now carries.
pub fn platform_fee_bp(conn: &Connection) -> crate::db::Result<i64> {
    Ok(one(conn, "platform_fee_bp")?.unwrap_or(0))
}

/// What a buyer delivering to `country` may pay with.
pub fn payments_in(conn: &Connection, country: Country) -> crate::db::Result<CountryPayments> {
    let set: Option<BTreeMap<String, CountryPayments>> = one(conn, "payments")?;
    Ok(set.and_then(|mut by_country| by_country.remove(country.as_str())).unwrap_or_else(|| default_payments(country)))
}

/// The USSD code people dial, when a super admin has said it.
pub fn ussd_code(conn: &Connection) -> crate::db::Result<Option<String>> {
    Ok(one::<String>(conn, "ussd_code")?.filter(|code| !code.is_empty()))
}

/// A USSD code as people dial it: `*`, digits and `*` between them, `#`.
pub fn is_ussd_code(code: &str) -> bool {
    let Some(inner) = code.strip_prefix('*').and_then(|c| c.strip_suffix('#')) else { return false };
    code.len() <= MAX_USSD_CODE
        && inner.split('*').all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
}

/// The language of an email or SMS to someone from `country`.
pub fn lang_for(conn: &Connection, country: Option<Country>) -> crate::db::Result<Lang> {
    Ok(match country {
        Some(Country::Drc | Country::Bdi | Country::Tza | Country::Ken) => Lang::for_country(country),
        _ => Lang::parse(one::<String>(conn, "email_language")?.as_deref()),
    })
}

fn check_texts(errors: &mut FieldErrors, field: &str, texts: &Texts, max: usize, required: bool) {
    let multiline = max > MAX_LINE;
    for (code, text) in texts.each() {
        let name = format!("{field}.{code}");
        if required && text.trim().is_empty() {
            errors.add(&name, "translation_required", "Write it in each of the three languages");
        } else if text.chars().count() > max {
            errors.add(&name, "too_long", format!("At most {max} characters"));
        } else if has_hidden_characters(text, multiline) {
            errors.add(&name, "invalid_characters", "Remove the hidden characters");
        }
    }
}

fn trimmed(texts: &Texts) -> Texts {
    Texts { en: texts.en.trim().to_owned(), fr: texts.fr.trim().to_owned(), sw: texts.sw.trim().to_owned() }
}

/// Checks a change and writes what it changes; the answer is the settings now.
pub fn change(tx: &Connection, admin: &UserRow, change: SettingsChange, now: &str) -> ApiResult<Settings> {
    if admin.role != Role::SuperAdmin {
        return Err(AppError::forbidden("super_admin_only", "Only a super admin can change the settings."));
    }
    let before = load(tx)?;
    let mut errors = FieldErrors::default();
    let mut writes: Vec<(&str, serde_json::Value)> = Vec::new();
    if let Some(contact) = change.contact {
        check_texts(&mut errors, "contact.address", &contact.address, MAX_LINE, true);
        check_texts(&mut errors, "contact.hours", &contact.hours, MAX_LINE, true);
        let phone = match contact.phone.trim() {
            "" => Some(String::new()),
            typed => phone::to_e164(typed, Country::Drc),
        };
        if phone.is_none() {
            errors.add("contact.phone", "phone_number_invalid", "Write the number in its international form, +243 …");
        }
        let email = contact.email.trim().to_owned();
        if email.chars().count() > MAX_EMAIL {
            errors.add("contact.email", "too_long", format!("At most {MAX_EMAIL} characters"));
        } else if !email.is_empty() && !looks_like_email(&email) {
            errors.add("contact.email", "email_invalid", "Please enter a valid email address");
        }
        let contact = Contact {
            address: trimmed(&contact.address),
            hours: trimmed(&contact.hours),
            phone: phone.unwrap_or_default(),
            email,
        };
        writes.push(("contact", serde_json::json!(contact)));
    }
    if let Some(policy) = change.shipping_policy {
        check_texts(&mut errors, "shipping_policy", &policy, MAX_POLICY, false);
        writes.push(("shipping_policy", serde_json::json!(trimmed(&policy))));
    }
    if let Some(fee) = change.platform_fee_bp {
        if !(0..=MAX_FEE_BP).contains(&fee) {
            errors.add("platform_fee_bp", "fee_invalid", "The fee is from 0 to 30 percent");
        }
        writes.push(("platform_fee_bp", serde_json::json!(fee)));
    }
    if let Some(by_country) = change.payments {
        let mut payments = before.payments.clone();
        for (code, mut chosen) in by_country {
            let Some(country) = Country::parse(&code) else {
                errors.add(&format!("payments.{code}"), "country_invalid", "Choose one of the six countries");
                continue;
            };
            let known = operators(country);
            if let Some(unknown) = chosen.operators.iter().find(|id| !known.iter().any(|(k, _)| k == id)) {
                errors.add(
                    &format!("payments.{code}"),
                    "operator_invalid",
                    format!("{unknown} is not an operator there"),
                );
            }
            // Kept in the operators' own order (most used first), once each.
            chosen.operators = known
                .iter()
                .filter(|(k, _)| chosen.operators.iter().any(|id| id == k))
                .map(|(k, _)| (*k).to_owned())
                .collect();
            payments.insert(code, chosen);
        }
        writes.push(("payments", serde_json::json!(payments)));
    }
    if let Some(name) = change.email_sender_name {
        let name = name.trim().to_owned();
        if name.is_empty() {
            errors.add("email_sender_name", "required", "Name the sender");
        } else if name.chars().count() > MAX_SENDER {
            errors.add("email_sender_name", "too_long", format!("At most {MAX_SENDER} characters"));
        } else if has_hidden_characters(&name, false) || name.contains(['<', '>', '"', '@']) {
            errors.add(
                "email_sender_name",
                "invalid_characters",
                "Letters, digits, spaces and simple punctuation only",
            );
        }
        writes.push(("email_sender_name", serde_json::json!(name)));
    }
    if let Some(language) = change.email_language {
        if !LANGUAGES.contains(&language.as_str()) {
            errors.add("email_language", "invalid_option", "Choose English, French or Kiswahili");
        }
        writes.push(("email_language", serde_json::json!(language)));
    }
    if let Some(code) = change.ussd_code {
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if !code.is_empty() && !is_ussd_code(&code) {
            errors.add("ussd_code", "ussd_code_invalid", "Write the code as people dial it, e.g. *384*12#");
        }
        writes.push(("ussd_code", serde_json::json!(code)));
    }
    errors.finish()?;
    let before = serde_json::to_value(&before).map_err(AppError::internal)?;
    for (key, value) in writes {
        // Only what changes is written and recorded.
        if before.get(key) != Some(&value) {
            rows::put(tx, key, &value.to_string(), admin.id, now)?;
        }
    }
    Ok(load(tx)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_read_the_catalogues_and_offer_every_operator() {
        let settings = Settings::default();
        assert_eq!(settings.contact.hours.fr, Lang::parse(Some("fr")).text("contact.hours"));
        assert!(!settings.shipping_policy.sw.contains("checkout."), "the default policy is in every catalogue");
        assert_eq!(settings.payments.len(), Country::ALL.len());
        assert_eq!(settings.payments["KEN"].operators, ["MPESA_KEN"]);
    }

    #[test]
    fn a_ussd_code_is_written_as_people_dial_it() {
        for good in ["*384#", "*384*12#", "*123*4*56#"] {
            assert!(is_ussd_code(good), "{good}");
        }
        for bad in ["384#", "*384", "*38a#", "**384#", "*384*#", "*#", "*1234567890*12345678#"] {
            assert!(!is_ussd_code(bad), "{bad}");
        }
    }
}
