//! The region's produce in English, French and Kiswahili (issue 17): a search for
//! "café" also looks for "coffee" and "kahawa". The words live in one file that the
//! phone's offline search reads too (pwa/src/lib/entities/produce-words.json).

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Deserialize, Default)]
struct Vocabulary {
    groups: Vec<Vec<String>>,
    categories: HashMap<String, Vec<String>>,
}

static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../pwa/src/lib/entities/produce-words.json")).unwrap_or_default()
});
static GROUPS: LazyLock<&'static [Vec<String>]> = LazyLock::new(|| &VOCABULARY.groups);

/// The words of a category (`vegetables`) in the three languages, added to each
/// listing's searched text: "légumes" and "mboga" find the vegetables.
pub fn category_words(category: &str) -> String {
    VOCABULARY.categories.get(category).map(|words| words.join(" ")).unwrap_or_default()
}

/// A search, word by word, each with what to look for (`equivalents`); a name of
/// several words ("pomme de terre") counts as one word.
pub fn search_words(search: &str) -> Vec<Vec<String>> {
    let mut rest = format!(" {} ", search.split_whitespace().collect::<Vec<_>>().join(" "));
    let mut words = Vec::new();
    let mut phrases: Vec<&String> = GROUPS.iter().flatten().filter(|term| term.contains(' ')).collect();
    phrases.sort_by_key(|phrase| std::cmp::Reverse(phrase.len()));
    for phrase in phrases {
        let needle = format!(" {} ", phrase.trim_start_matches('='));
        while let Some(at) = rest.find(&needle) {
            words.push(equivalents(phrase.trim_start_matches('=')));
            rest.replace_range(at..at + needle.len() - 1, "");
        }
    }
    words.extend(rest.split_whitespace().map(equivalents));
    words
}

/// What to look for in listings for one search word (already folded): every name of
/// the products it names (itself or its plural is one of a group's words), or else the
/// word itself. A word marked `=` in the file only starts a search.
pub fn equivalents(word: &str) -> Vec<String> {
    let names = |term: &String| {
        let term = term.trim_start_matches('=');
        word == term || word.strip_suffix('s') == Some(term) || word.strip_suffix("es") == Some(term)
    };
    let mut found: Vec<String> = Vec::new();
    for group in GROUPS.iter().filter(|group| group.iter().any(names)) {
        for term in group.iter().filter(|term| !term.starts_with('=')) {
            if !found.contains(term) {
                found.push(term.clone());
            }
        }
    }
    if found.is_empty() {
        found.push(word.to_owned());
    }
    found
}

/// The names of other produce that contain `name` ("coffee bean" and "soybean" for
/// "bean", "boeuf" for "oeuf"): a listing that holds one of them is not found by `name`,
/// so a search for beans lists no coffee and one for eggs no aubergines. The phone's
/// search does the same (lib/entities/product-search.ts).
pub fn inside_other_names(name: &str) -> Vec<&'static str> {
    let names = |group: &&Vec<String>| group.iter().any(|term| term.trim_start_matches('=') == name);
    let mut found: Vec<&'static str> = Vec::new();
    // A word that names no produce ("mato", a part of a word) is looked for everywhere.
    if !GROUPS.iter().any(|group| names(&group)) {
        return found;
    }
    for group in GROUPS.iter().filter(|group| !names(group)) {
        for term in group.iter().filter(|term| !term.starts_with('=') && term.contains(name) && *term != name) {
            if !found.contains(&term.as_str()) {
                found.push(term);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::product::fold;

    #[test]
    fn the_vocabulary_is_read_and_every_word_can_be_looked_for() {
        assert!(GROUPS.len() >= 60, "{} groups", GROUPS.len());
        for group in GROUPS.iter() {
            let searched: Vec<&String> = group.iter().filter(|t| !t.starts_with('=')).collect();
            assert!(searched.len() >= 2, "{group:?}: at least two names to look for");
            for term in group {
                assert_eq!(&fold(term), term, "{term}: lower case, no accents");
            }
            for term in searched {
                assert!(term.chars().count() >= 3, "{term}: the search index finds three letters or more");
            }
        }
    }

    #[test]
    fn every_category_has_its_words_in_each_language() {
        for category in crate::model::product::Category::ALL {
            let words = category_words(category.as_str());
            assert!(words.split(' ').count() >= 3, "{category:?}: {words}");
            assert_eq!(fold(&words), words);
        }
    }

    #[test]
    fn the_listings_written_before_were_given_these_category_words() {
        // Changing a category's words needs a migration like 0024 for the listings already written.
        let migration = include_str!("../../../migrations/0024_category_search.sql");
        for category in crate::model::product::Category::ALL {
            let line = format!("WHEN '{}' THEN '{}'", category.as_str(), category_words(category.as_str()));
            assert!(migration.contains(&line), "{line}");
        }
    }

    #[test]
    fn a_word_finds_its_names_in_every_language() {
        assert_eq!(equivalents("cafe"), ["coffee", "cafe", "kahawa", "coffee bean"]);
        assert_eq!(equivalents("haricots"), ["bean", "haricot", "maharage", "maharagwe"]);
        assert_eq!(equivalents("ble"), ["wheat", "froment", "ngano"], "too short to look for itself");
        assert_eq!(equivalents("kabare"), ["kabare"]);
        let words = search_words("pommes de terre  kabare");
        assert_eq!(words.len(), 2);
        assert!(words[0].contains(&"viazi".to_owned()) && words[1] == ["kabare"]);
    }

    #[test]
    fn a_name_is_not_found_inside_another_produce_name() {
        assert_eq!(inside_other_names("bean"), ["coffee bean", "soybean"]);
        assert_eq!(inside_other_names("oeuf"), ["boeuf"]);
        assert_eq!(inside_other_names("egg"), ["eggplant"]);
        assert!(inside_other_names("coffee").is_empty() && inside_other_names("kabare").is_empty());
        assert!(inside_other_names("mato").is_empty(), "a part of a word is no produce's name");
    }
}
