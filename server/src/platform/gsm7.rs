//! The GSM-7 alphabet of text messages (3GPP TS 23.038): 160 characters fit one
//! SMS segment, but a single character outside it sends the whole message as
//! UCS-2, 70 to a segment. Our messages are written in it (a test checks every
//! template in every language) and what people typed is brought into it.

/// The basic set: one unit each.
const BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡\
ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/// The extension table: two units each (an escape, then the character).
const EXTENDED: &str = "^{}\\[~]|€\u{c}";

/// One segment of GSM-7.
pub const SEGMENT: usize = 160;

/// How many units `text` takes in GSM-7; `None` when a character is outside it.
pub fn units(text: &str) -> Option<usize> {
    text.chars().try_fold(0, |sum, c| {
        if BASIC.contains(c) {
            Some(sum + 1)
        } else if EXTENDED.contains(c) {
            Some(sum + 2)
        } else {
            None
        }
    })
}

/// Words whose plain fold is another word, and what they are written as instead:
/// "Maïs" (maize) would read "Mais" (but), and the commodity is "maïs grain".
const NOT_FOLDED: [(&str, &str); 3] = [("Maïs", "Mais-grain"), ("maïs", "mais-grain"), ("MAÏS", "MAIS-GRAIN")];

/// `text` in GSM-7: accented letters the alphabet lacks lose their accent
/// ("ê" → "e", "ç" → "c"), but a word that would become another is written as in
/// `NOT_FOLDED`; typographic quotes and dashes become plain ones, and anything else
/// becomes "?".
pub fn fold(text: &str) -> String {
    let mut text = std::borrow::Cow::Borrowed(text);
    for (word, instead) in NOT_FOLDED {
        if text.contains(word) {
            text = std::borrow::Cow::Owned(replace_word(&text, word, instead));
        }
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if BASIC.contains(c) || EXTENDED.contains(c) {
            out.push(c);
            continue;
        }
        let plain = match c {
            'á' | 'â' | 'ã' | 'ā' => "a",
            'À' | 'Á' | 'Â' | 'Ã' => "A",
            'ç' => "c",
            'ê' | 'ë' | 'ē' => "e",
            'È' | 'Ê' | 'Ë' => "E",
            'í' | 'î' | 'ï' => "i",
            'Í' | 'Î' | 'Ï' => "I",
            'ó' | 'ô' | 'õ' => "o",
            'Ó' | 'Ô' | 'Õ' => "O",
            'ú' | 'û' => "u",
            'Ú' | 'Û' => "U",
            'ý' | 'ÿ' => "y",
            'œ' => "oe",
            'Œ' => "OE",
            '‘' | '’' | '`' => "'",
            '“' | '”' | '«' | '»' => "\"",
            '–' | '—' => "-",
            '…' => "...",
            '\u{a0}' | '\u{202f}' | '\t' => " ",
            _ => "?",
        };
        out.push_str(plain);
    }
    out
}

/// `text` with each whole-word `word` replaced by `instead`.
fn replace_word(text: &str, word: &str, instead: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().last().or_else(|| out.chars().last());
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        let whole = !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        out.push_str(if whole { instead } else { word });
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

/// `text` cut to at most `max` units, whole characters only.
pub fn cut(text: &str, max: usize) -> String {
    let mut used = 0;
    text.chars()
        .take_while(|c| {
            used += units(c.encode_utf8(&mut [0; 4])).unwrap_or(1);
            used <= max
        })
        .collect()
}

/// `text` in at most `max` units, cut at a word and marked ("Café arabica en...")
/// when it is longer: a name cut mid-word ("Café arabica en grai") reads as another.
pub fn shorten(text: &str, max: usize) -> String {
    let width = |t: &str| t.chars().map(|c| units(c.encode_utf8(&mut [0; 4])).unwrap_or(1)).sum::<usize>();
    let text = text.trim();
    if width(text) <= max {
        return text.to_owned();
    }
    let room = cut(text, max.saturating_sub(3));
    // Back to the last whole word, unless that leaves too little of the name.
    let words = match room.rfind(' ') {
        Some(at) if at * 2 >= room.len() => &room[..at],
        _ => room.as_str(),
    };
    format!("{}...", words.trim_end_matches([' ', ',', ';', ':', '-', '(', '.']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_counts_extended_characters_twice_and_refuses_the_rest() {
        assert_eq!(units("Habari, Amani!"), Some(14));
        assert_eq!(units("Prix: 5 €"), Some(10));
        assert_eq!(units("approuvée à Bukavu"), Some(18));
        assert_eq!(units("fenêtre"), None, "ê sends a message as UCS-2");
        assert_eq!(units("garçon"), None);
    }

    #[test]
    fn what_people_type_is_folded_into_it() {
        assert_eq!(fold("Françoise Bahati-Mukêsa"), "Francoise Bahati-Mukesa");
        assert_eq!(fold("l’été — «oui»"), "l'été - \"oui\"");
        assert_eq!(fold("名字"), "??");
        assert_eq!(fold("Maïs : 1.20 USD, maïs blanc"), "Mais-grain : 1.20 USD, mais-grain blanc", "not \"but\"");
        assert_eq!(fold("Maïsa"), "Maisa", "a name is not the word");
        assert!(units(&fold("Œuvre d’Ândré ïle")).is_some());
        assert_eq!(cut("Prix € 5", 6), "Prix ");
        assert_eq!(cut("Amani", 10), "Amani");
    }

    #[test]
    fn a_long_name_is_cut_at_a_word_and_marked() {
        assert_eq!(shorten("Café arabica en grains", 20), "Café arabica en...");
        assert_eq!(shorten("Café arabica", 20), "Café arabica");
        assert_eq!(shorten("Maharage (hapana kuuza)", 14), "Maharage...");
        assert_eq!(shorten("Supercalifragilistic", 10), "Superca...", "one long word is cut inside");
        assert!(units(&shorten("Pommes de terre de Kabare, lavées", 18)).unwrap() <= 18);
    }
}
