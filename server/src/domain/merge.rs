//! Per-field merging of offline edits (docs/sync.md).

use crate::model::FieldVersions;

/// What an offline edit was made on: the record's `version` on the phone, and
/// the phone (its sync client id), whose own later edits, sent but not yet
/// pulled back, are part of what it saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Base<'a> {
    pub version: i64,
    pub device: &'a str,
}

/// Per-field versions (docs/sync.md): records which version last changed each field.
pub fn stamp(versions: &mut FieldVersions, fields: &[&str], version: i64) {
    for field in fields {
        versions.insert((*field).to_owned(), version);
    }
}

/// The fields an edit based on version `base` changes (`changed`: its value
/// differs from the stored one) that someone else changed after `base`: the
/// edit wins them, and says so. Setting a field to the value it already has
/// is no conflict. An edit without a base is a deliberate overwrite (a form
/// filled online, or an edit queued behind its own create): it reports none.
pub fn conflicts(versions: &FieldVersions, changed: &[&str], base: Option<i64>) -> Vec<String> {
    let Some(base) = base else { return Vec::new() };
    changed
        .iter()
        .filter(|field| versions.get(**field).is_some_and(|changed| *changed > base))
        .map(|field| (*field).to_owned())
        .collect()
}
