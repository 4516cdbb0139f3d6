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
