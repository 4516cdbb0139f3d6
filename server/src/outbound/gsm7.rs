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

/// `text` in GSM-7: accented letters the alphabet lacks lose their accent
/// ("ê" → "e", "ç" → "c"), typographic quotes and dashes become plain ones, and
/// anything else becomes "?".
pub fn fold(text: &str) -> String {
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
            '\u{a0}' | '\t' => " ",
            _ => "?",
        };
        out.push_str(plain);
    }
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
        assert!(units(&fold("Œuvre d’Ândré ïle")).is_some());
        assert_eq!(cut("Prix € 5", 6), "Prix ");
        assert_eq!(cut("Amani", 10), "Amani");
    }
}
