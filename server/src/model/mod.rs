//! Plain types: what rows, records and answers are made of (roles,
//! statuses, categories, a product's listing, per-field versions). This
//! module imports neither `db`, `domain` nor `api`, so every layer can use
//! it and the layers point one way: api → domain → db → model
//! (docs/architecture.md; `scripts/check-layers` keeps it so).

use std::collections::BTreeMap;

/// Generates `as_str`, `parse`, `ALL`, and the SQLite conversions for a
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

        impl rusqlite::types::ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
                Ok(rusqlite::types::ToSqlOutput::from(self.as_str()))
            }
        }

        impl rusqlite::types::FromSql for $name {
            fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
                let text = value.as_str()?;
                $name::parse(text).ok_or_else(|| rusqlite::types::FromSqlError::Other(format!("unknown {} {text:?}", stringify!($name)).into()))
            }
        }
    };
}

/// Per-field versions (docs/sync.md): the version that last changed each field of a record.
pub type FieldVersions = BTreeMap<String, i64>;

pub mod blog;
pub mod course;
pub mod order;
pub mod payment;
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
