//! Plain types: what rows, records and answers are made of (roles,
//! statuses, categories, a product's listing, per-field versions). This
//! module imports neither `db`, `domain` nor `api`, so every layer can use
//! it and the layers point one way: api → domain → db → model
//! (docs/architecture.md; `scripts/check-layers` keeps it so).

use std::collections::BTreeMap;

/// Generates `as_str`, `parse`, `ALL`, and [`Word`] (how the database stores it) for a
/// string-backed enum, so the database stores the same words as the API.
macro_rules! string_enum {
    ($name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl crate::model::Word for $name {
            const NAME: &'static str = stringify!($name);

            fn word(&self) -> &'static str {
                self.as_str()
            }

            fn from_word(text: &str) -> Option<Self> {
                $name::parse(text)
            }

            fn words() -> &'static [&'static str] {
                &[$($text),+]
            }
        }
    };
}

/// An enum stored as one of its words (`db/` reads and writes it so).
pub trait Word: Sized {
    const NAME: &'static str;
    fn word(&self) -> &'static str;
    fn from_word(text: &str) -> Option<Self>;
    /// Every word, in the enum's order.
    fn words() -> &'static [&'static str];
}

/// Per-field versions (docs/sync.md): the version that last changed each field of a record.
pub type FieldVersions = BTreeMap<String, i64>;

pub mod blog;
pub mod cooperative;
pub mod course;
pub mod offsite;
pub mod order;
pub mod payment;
pub mod picture;
pub mod price;
pub mod produce_words;
pub mod product;
pub mod survey;
pub mod user;

/// An amount in cents with two decimals: 1500 → "15.00" (mail, CSV, providers, previews).
pub fn decimal_amount(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", (cents / 100).abs(), (cents % 100).abs())
}
