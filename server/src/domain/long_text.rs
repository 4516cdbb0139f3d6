//! Long texts that merge (docs/sync.md, Text that merges): a product's
//! description and an application's free-text answers. Two people editing
//! different sentences offline both keep their edit: each field has an
//! Automerge document on the server, with its heads at every version that
//! wrote it; an edit made on version `base` is applied, as the difference from
//! the text at `base` to the text sent, to a fork at those heads, and merged.
//! The phone needs nothing new: it sends its text and its base, as for any
//! field. Short fields and numbers keep per-field last-writer-wins (`merge`).

use automerge::{ActorId, AutoCommit, ChangeHash, ObjId, ObjType, ROOT, ReadDoc, transaction::Transactable};

use super::merge::Base;
use crate::db::texts::{self, TextKey, TextWrite};
use crate::error::{ApiResult, AppError};

/// What a write of a long text stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    /// Changes made after the edit's base were merged with it (both kept): the
    /// field is not a conflict.
    pub merged: bool,
}

/// How many writes a document keeps before it starts afresh from its text:
/// loading, forking and saving a document take longer the more changes it
/// holds (bench/text-merge.mjs). An edit made on a version older than the
/// document's start is taken as sent, as a short field's would be.
pub const WRITES_KEPT: i64 = 64;

/// And how many operations per character a field may hold: a whole 4,000-character
/// description rewritten at each write adds ~8,000, and at 64 such writes of three
/// descriptions one edit held the writer for 0.7 s (release build; minutes in a debug
/// build), every other write of the server waiting on it.
const OPS_KEPT_PER_CHAR: u64 = 10;

/// Writes `sent` as the new value of a long text at `version`. `stored` is its
/// value now and the version that last wrote it; `base` what the edit was made
/// on. When someone else wrote the field after `base`, both edits are merged,
/// unless the merged text would pass `max_chars` or the document does not go
/// back to `base` (a record last edited before texts merged, or more than
/// `WRITES_KEPT` writes ago): then the edit wins, as a short field's would.
pub fn write(
    conn: &crate::db::Connection,
    key: TextKey<'_>,
    stored: (&str, i64),
    base: Option<Base<'_>>,
    sent: &str,
    version: i64,
    max_chars: usize,
) -> ApiResult<Written> {
    let (mut doc, text) = open(conn, key, stored)?;
    let seen = match base.filter(|base| stored.1 > base.version) {
        Some(base) => seen_by(conn, key, base)?,
        None => None,
    };
    let mut merged = false;
    let own = match seen {
        Some(heads) => {
            let mut fork = doc.fork_at(&heads).map_err(broken)?.with_actor(actor(version));
            rewrite(&mut fork, &text, sent)?;
            let own = fork.get_heads();
            doc.merge(&mut fork).map_err(broken)?;
            if current(&doc, &text)?.chars().count() <= max_chars {
                merged = true;
                own
            } else {
                doc.set_actor(actor_after(version));
                rewrite(&mut doc, &text, sent)?;
                doc.get_heads()
            }
        }
        None => {
            doc.set_actor(actor(version));
            rewrite(&mut doc, &text, sent)?;
            doc.get_heads()
        }
    };
    let written = current(&doc, &text)?;
    let small = doc.stats().num_ops <= OPS_KEPT_PER_CHAR * max_chars as u64;
    let (mut doc, own) = if small && texts::writes(conn, key)? < WRITES_KEPT {
        (doc, own)
    } else {
        // A document's cost grows with its history: start a new one from this text.
        texts::forget_writes(conn, key)?;
        let (mut fresh, _) = document(&written, version)?;
        let own = fresh.get_heads();
        (fresh, own)
    };
    let (heads, own) = (encode_heads(&doc.get_heads()), encode_heads(&own));
    let device = base.map(|base| base.device);
    texts::save(conn, key, &doc.save(), TextWrite { version, heads: &heads, device, own: &own })?;
    Ok(Written { text: written, merged })
}

/// A new document holding `text`, written at `version`.
fn document(text: &str, version: i64) -> ApiResult<(AutoCommit, ObjId)> {
    let mut doc = AutoCommit::new().with_actor(actor(version));
    let id = doc.put_object(ROOT, "text", ObjType::Text).map_err(broken)?;
    rewrite(&mut doc, &id, text)?;
    Ok((doc, id))
}

/// The document's heads as the phone saw them when it made its edit: as they
/// were at its base version, with its own later changes (sent, not yet pulled
/// back). `None` when the document does not go back that far.
fn seen_by(conn: &crate::db::Connection, key: TextKey<'_>, base: Base<'_>) -> ApiResult<Option<Vec<ChangeHash>>> {
    let Some(at_base) = texts::heads_at(conn, key, base.version)? else { return Ok(None) };
    let mut heads = decode_heads(&at_base)?;
    for own in texts::own_changes_after(conn, key, base.version, base.device)? {
        heads.extend(decode_heads(&own)?);
    }
    Ok(Some(heads))
}

/// The field's document, made from the stored text when it has none yet (a
/// record written before texts merged, or never edited since its creation);
/// brought back to the stored text if something wrote the field around it.
fn open(conn: &crate::db::Connection, key: TextKey<'_>, (stored, at): (&str, i64)) -> ApiResult<(AutoCommit, ObjId)> {
    let mut opened = None;
    if let Some(bytes) = texts::document(conn, key)? {
        let mut doc = AutoCommit::load(&bytes).map_err(broken)?;
        if let Some((_, text)) = doc.get(ROOT, "text").map_err(broken)? {
            if current(&doc, &text)? == stored {
                return Ok((doc, text));
            }
            doc.set_actor(actor_after(at));
            opened = Some((doc, text));
        }
    }
    let (mut doc, text) = match opened {
        Some((mut doc, text)) => {
            rewrite(&mut doc, &text, stored)?;
            (doc, text)
        }
        None => document(stored, at)?,
    };
    let heads = encode_heads(&doc.get_heads());
    texts::save(conn, key, &doc.save(), TextWrite { version: at, heads: &heads, device: None, own: &heads })?;
    Ok((doc, text))
}

/// Turns the document's text into `new` sentence by sentence: a sentence
/// changed in any way is replaced whole, so two people rewriting the same
/// sentence both keep theirs (one after the other), never a mix of their
/// letters, while changes to different sentences touch different places. The
/// document holds the text with a line end after it, so that every sentence,
/// the last one too, ends in a space or a line: two last sentences written at
/// once, or two answers given to a blank question, stay apart.
fn rewrite(doc: &mut AutoCommit, text: &ObjId, new: &str) -> ApiResult<()> {
    let old = doc.text(text).map_err(broken)?;
    for (at, removed, inserted) in sentence_changes(&old, &format!("{new}\n")).into_iter().rev() {
        let removed = isize::try_from(removed).map_err(broken)?;
        doc.splice_text(text, at, removed, &inserted).map_err(broken)?;
    }
    Ok(())
}

/// The document's text as stored (without the line end `rewrite` adds).
fn current(doc: &AutoCommit, text: &ObjId) -> ApiResult<String> {
    Ok(doc.text(text).map_err(broken)?.trim().to_owned())
}

/// A text cut after each sentence (its closing mark and the spaces after it)
/// and each line.
fn sentences(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let mark = matches!(c, '.' | '!' | '?' | '…');
        if c == '\n' || mark && chars.peek().is_none_or(|(_, next)| next.is_whitespace()) {
            while chars.next_if(|(_, next)| next.is_whitespace()).is_some() {}
            let end = chars.peek().map_or(text.len(), |(i, _)| *i);
            pieces.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        pieces.push(&text[start..]);
    }
    pieces
}

/// The longest common subsequence is taken over at most this many cells: the
/// sentences that changed, between those both texts start and end with.
const MAX_TABLE: usize = 256 * 256;

/// The changes from `old` to `new` as (position in characters, characters
/// removed, text inserted), in order. The sentences both texts start and end with
/// are kept; between them, the longest run of sentences the two share (a longest
/// common subsequence), or, past `MAX_TABLE` (a text of thousands of one-letter
/// lines), the whole middle replaced. Sentences that differ only in the spaces
/// after them match (the last sentence gains one when one is added).
fn sentence_changes(old: &str, new: &str) -> Vec<(usize, usize, String)> {
    let (old, new) = (sentences(old), sentences(new));
    let head = old.iter().zip(&new).take_while(|(x, y)| x == y).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let width = |pieces: &[&str]| pieces.iter().map(|s| s.chars().count()).sum::<usize>();
    let mut at = width(&old[..head]);
    if (a.len() + 1) * (b.len() + 1) > MAX_TABLE {
        return vec![(at, width(a), b.concat())];
    }
    let same = |i: usize, j: usize| a[i].trim_end() == b[j].trim_end();
    let mut common = vec![vec![0u16; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if same(i, j) { common[i + 1][j + 1] + 1 } else { common[i + 1][j].max(common[i][j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut changes = Vec::new();
    let mut open: Option<(usize, usize, String)> = None;
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && same(i, j) {
            changes.extend(open.take());
            let kept = a[i].trim_end().chars().count();
            let (spaces, new_spaces) = (&a[i][a[i].trim_end().len()..], &b[j][b[j].trim_end().len()..]);
            at += kept + spaces.chars().count();
            if spaces != new_spaces {
                open = Some((at - spaces.chars().count(), spaces.chars().count(), new_spaces.to_owned()));
            }
            i += 1;
            j += 1;
            continue;
        }
        let change = open.get_or_insert_with(|| (at, 0, String::new()));
        if j < b.len() && (i == a.len() || common[i][j + 1] >= common[i + 1][j]) {
            change.2.push_str(b[j]);
            j += 1;
        } else {
            let length = a[i].chars().count();
            change.1 += length;
            at += length;
            i += 1;
        }
    }
    changes.extend(open);
    changes
}

/// Each version writes with its own actor, so changes made on different forks
/// never share an actor's sequence. Two insertions at one place (two rewrites
/// of the same sentence) are ordered by their operations' counters, then the
/// greater actor first: counting down puts the earlier version's first when the
/// counters tie, and the order is the same on every run.
fn actor(version: i64) -> ActorId {
    ActorId::from(version.wrapping_neg().to_be_bytes().to_vec())
}

/// A second actor for the same version (a fallback or a repair after a merge
/// with `actor(version)`'s changes already in the document).
fn actor_after(version: i64) -> ActorId {
    let mut bytes = version.wrapping_neg().to_be_bytes().to_vec();
    bytes.push(1);
    ActorId::from(bytes)
}

fn encode_heads(heads: &[ChangeHash]) -> Vec<u8> {
    let mut sorted = heads.to_vec();
    sorted.sort_unstable();
    sorted.iter().flat_map(|hash| hash.0).collect()
}

fn decode_heads(bytes: &[u8]) -> ApiResult<Vec<ChangeHash>> {
    bytes.chunks(32).map(|chunk| ChangeHash::try_from(chunk).map_err(broken)).collect()
}

fn broken(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> AppError {
    AppError::internal_while("text document", error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db;

    const KEY: TextKey<'static> = TextKey { entity: "product", record_id: 1, field: "description" };

    fn conn() -> crate::db::Connection {
        let mut conn = crate::db::Connection::open_in_memory().unwrap();
        db::migrate(&mut conn).unwrap();
        conn
    }

    fn a(version: i64) -> Option<Base<'static>> {
        Some(Base { version, device: "phone-a" })
    }

    fn b(version: i64) -> Option<Base<'static>> {
        Some(Base { version, device: "phone-b" })
    }

    const START: &str = "Red beans from Kabare. Dried in the sun. Sold by the kilo.";

    #[test]
    fn edits_of_different_sentences_made_on_one_version_both_stay() {
        let conn = conn();
        let first = write(&conn, KEY, (START, 3), a(3), &START.replace("Kabare", "Walungu"), 5, 2000).unwrap();
        assert!(!first.merged);
        let second =
            write(&conn, KEY, (&first.text, 5), b(3), &START.replace("the kilo", "the bag of 50 kg"), 6, 2000).unwrap();
        assert!(second.merged);
        assert_eq!(second.text, "Red beans from Walungu. Dried in the sun. Sold by the bag of 50 kg.");
    }

    #[test]
    fn two_sentences_added_at_the_end_are_both_kept() {
        let conn = conn();
        let one = write(&conn, KEY, (START, 3), a(3), &format!("{START} Organic."), 5, 2000).unwrap();
        let two = write(&conn, KEY, (&one.text, 5), b(3), &format!("{START}\nDelivery on Fridays."), 6, 2000).unwrap();
        assert!(two.merged);
        assert!(two.text.starts_with(START), "{}", two.text);
        assert!(two.text.contains(" Organic.") && two.text.contains("\nDelivery on Fridays."), "{}", two.text);
    }

    #[test]
    fn a_phones_second_edit_on_the_same_base_includes_its_first() {
        let conn = conn();
        let one = write(&conn, KEY, (START, 3), a(3), &START.replace("Kabare", "Walungu"), 5, 2000).unwrap();
        let other = write(&conn, KEY, (&one.text, 5), b(3), &START.replace("the kilo", "the bag"), 6, 2000).unwrap();
        // Phone A has not pulled yet: its next edit is still on version 3, with its first edit in it.
        let sent = START.replace("Kabare", "Walungu").replace("Red beans", "Red and white beans");
        let two = write(&conn, KEY, (&other.text, 6), a(3), &sent, 7, 2000).unwrap();
        assert_eq!(two.text, "Red and white beans from Walungu. Dried in the sun. Sold by the bag.");
    }

    #[test]
    fn two_answers_given_to_a_blank_question_stay_apart() {
        let conn = conn();
        write(&conn, KEY, ("", 3), a(3), "Pests", 5, 2000).unwrap();
        let both = write(&conn, KEY, ("Pests", 5), b(3), "Drought", 6, 2000).unwrap();
        assert_eq!(both, Written { text: "Pests\nDrought".into(), merged: true });
    }

    #[test]
    fn two_rewrites_of_one_sentence_are_both_kept_in_the_same_order_every_time() {
        let run = || {
            let conn = conn();
            let one = write(&conn, KEY, (START, 3), a(3), &START.replace("in the sun", "on racks"), 5, 2000).unwrap();
            write(&conn, KEY, (&one.text, 5), b(3), &START.replace("in the sun", "by the fire"), 6, 2000).unwrap()
        };
        let written = run();
        assert!(written.merged);
        assert_eq!(written.text, "Red beans from Kabare. Dried on racks. Dried by the fire. Sold by the kilo.");
        assert_eq!(run(), written);
    }

    #[test]
    fn texts_are_cut_after_sentences_and_lines_and_compared_by_sentence() {
        assert_eq!(sentences("One. Two!  Three\nFour... 3.5 kg"), ["One. ", "Two!  ", "Three\n", "Four... ", "3.5 kg"]);
        assert_eq!(sentences(""), Vec::<&str>::new());
        assert_eq!(sentence_changes("A. B. C.", "A. X. C. D."), [(3, 3, "X. ".to_owned()), (8, 0, " D.".to_owned())]);
        assert_eq!(sentence_changes("Same.", "Same."), []);
        // Thousands of one-letter lines: the middle is replaced whole, no table of millions of cells.
        let (old, new) = ("x\n".repeat(3000), format!("A.\n{}B.\n", "y\n".repeat(3000)));
        assert_eq!(sentence_changes(&old, &new), [(0, 6000, new.clone())]);
        let edited = format!("{}z\n", "x\n".repeat(2999));
        assert_eq!(sentence_changes(&old, &edited), [(5998, 2, "z\n".to_owned())], "only the last line changed");
    }

    #[test]
    fn an_edit_made_on_the_current_text_or_without_a_base_is_taken_as_sent() {
        let conn = conn();
        let one = write(&conn, KEY, (START, 3), a(3), "Beans.", 5, 2000).unwrap();
        assert_eq!(one, Written { text: "Beans.".into(), merged: false });
        let two = write(&conn, KEY, ("Beans.", 5), None, "Maize.", 6, 2000).unwrap();
        assert_eq!(two.text, "Maize.");
    }

    #[test]
    fn a_merge_longer_than_allowed_or_older_than_the_document_lets_the_edit_win() {
        let conn = conn();
        let one = write(&conn, KEY, (START, 3), a(3), &format!("{START} More."), 5, 70).unwrap();
        let two = write(&conn, KEY, (&one.text, 5), b(3), &format!("Fresh. {START}"), 6, 70).unwrap();
        assert_eq!(two, Written { text: format!("Fresh. {START}"), merged: false });
        let other = TextKey { record_id: 2, ..KEY };
        let old = write(&conn, other, (START, 9), a(4), "Only this.", 10, 2000).unwrap();
        assert_eq!(old, Written { text: "Only this.".into(), merged: false });
    }

    #[test]
    fn a_document_keeps_its_last_writes_and_then_starts_afresh() {
        let conn = conn();
        let mut text = START.to_owned();
        for version in 4..4 + WRITES_KEPT {
            let sent = format!("Edit {version}. {START}");
            text = write(&conn, KEY, (&text, version - 1), a(version - 1), &sent, version, 2000).unwrap().text;
        }
        assert!(texts::writes(&conn, KEY).unwrap() < 3, "the history started again");
        let last = 3 + WRITES_KEPT;
        let recent = write(&conn, KEY, (&text, last), b(last), &format!("{text} More."), last + 1, 2000).unwrap();
        assert_eq!(recent.text, format!("{text} More."));
        // An edit made before the new start is taken as sent.
        let old = write(&conn, KEY, (&recent.text, last + 1), b(last - 5), START, last + 2, 2000).unwrap();
        assert_eq!(old, Written { text: START.into(), merged: false });
    }

    #[test]
    fn a_document_of_whole_rewrites_starts_afresh_before_it_grows_past_its_operations() {
        let conn = conn();
        let mut text = String::new();
        for version in 1..=20 {
            let sent = version.to_string().repeat(4000 / version.to_string().len());
            text = write(&conn, KEY, (&text, version - 1), a(version - 1), &sent, version, 4000).unwrap().text;
            assert_eq!(text, sent);
            let (doc, _) = open(&conn, KEY, (&text, version)).unwrap();
            assert!(doc.stats().num_ops <= OPS_KEPT_PER_CHAR * 4000, "{} operations", doc.stats().num_ops);
        }
        assert!(texts::writes(&conn, KEY).unwrap() < 10, "the history started again");
    }

    #[test]
    fn a_text_written_around_the_document_is_taken_up_before_the_next_edit() {
        let conn = conn();
        write(&conn, KEY, (START, 3), a(3), "Beans from Kabare.", 5, 2000).unwrap();
        let next = write(&conn, KEY, ("Maize from Uvira.", 7), a(7), "Maize from Uvira, dry.", 8, 2000).unwrap();
        assert_eq!(next.text, "Maize from Uvira, dry.");
    }
}
