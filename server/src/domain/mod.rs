//! The rules: validation in the spec's order and wording, permissions and
//! state machines. REST handlers (and, later, sync mutations) call these
//! functions, so each rule lives in one place.

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

/// A UUID in its usual text form (client-made ids: records, devices).
pub fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() })
}

/// Per-field versions (docs/sync.md): records which version last changed each field.
pub fn stamp(versions: &mut crate::db::surveys::FieldVersions, fields: &[&str], version: i64) {
    for field in fields {
        versions.insert((*field).to_owned(), version);
    }
}

/// The fields an edit based on version `base` touches that someone else
/// changed after `base`: the edit wins them, and says so.
pub fn conflicts(versions: &crate::db::surveys::FieldVersions, touched: &[&str], base: Option<i64>) -> Vec<String> {
    let Some(base) = base else { return Vec::new() };
    touched
        .iter()
        .filter(|field| versions.get(**field).is_some_and(|changed| *changed > base))
        .map(|field| (*field).to_owned())
        .collect()
}

pub mod accounts;
pub mod contact;
pub mod people;
pub mod phone;
pub mod products;
pub mod surveys;
pub mod sync;
pub mod user;
