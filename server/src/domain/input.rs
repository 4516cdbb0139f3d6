//! Reading values as HTML forms and older clients send them ([`Loose`]).

use sync_protocol::Loose;

/// Reads a yes/no as forms send it: a boolean, 0/1, or "true", "on", "yes" and their opposites.
pub fn loose_bool(value: &Loose) -> Option<bool> {
    match value {
        Loose::Bool(b) => Some(*b),
        Loose::Number(n) => Some(*n != 0.0),
        Loose::Text(t) => match t.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => Some(true),
            "false" | "0" | "off" | "no" | "" => Some(false),
            _ => None,
        },
    }
}

pub fn loose_percentage(value: &Loose) -> Option<i64> {
    let number = match value {
        Loose::Number(n) => *n,
        Loose::Text(t) if t.trim().is_empty() => 0.0,
        Loose::Text(t) => t.trim().parse().ok()?,
        Loose::Bool(_) => return None,
    };
    (number.fract() == 0.0 && (0.0..=100.0).contains(&number)).then_some(number as i64)
}

/// Characters no name, address or message needs, which can hide or disguise
/// text (in the admin's screens, in emails, in logs): control characters
/// (NUL, escape sequences; line breaks and tabs too unless `multiline`) and
/// the bidirectional overrides and isolates that reorder what is shown.
pub fn has_hidden_characters(text: &str, multiline: bool) -> bool {
    text.chars().any(|c| {
        (c.is_control() && !(multiline && matches!(c, '\n' | '\r' | '\t')))
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_found() {
        for text in ["a\0b", "\u{1b}[31mred", "two\nlines", "evil\u{202E}gpj.exe", "x\u{2066}y"] {
            assert!(has_hidden_characters(text, false), "{text:?}");
        }
        assert!(!has_hidden_characters("Amani Bahati-Mugisho, Kabare (Sud-Kivu) é ñ 日本", false));
        assert!(!has_hidden_characters("Line one\nLine two\tand a tab", true));
        assert!(has_hidden_characters("Line one\u{0}", true));
    }
}
