//! Per-field merging of offline edits (docs/sync.md).

use crate::model::FieldVersions;

/// Per-field versions (docs/sync.md): records which version last changed each field.
pub fn stamp(versions: &mut FieldVersions, fields: &[&str], version: i64) {
    for field in fields {
        versions.insert((*field).to_owned(), version);
    }
}

/// The fields an edit based on version `base` touches that someone else
/// changed after `base`: the edit wins them, and says so.
pub fn conflicts(versions: &FieldVersions, touched: &[&str], base: Option<i64>) -> Vec<String> {
    let Some(base) = base else { return Vec::new() };
    touched
        .iter()
        .filter(|field| versions.get(**field).is_some_and(|changed| *changed > base))
        .map(|field| (*field).to_owned())
        .collect()
}
