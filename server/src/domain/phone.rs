//! Phone numbers to E.164 for the six countries the platform serves.
//!
//! A full numbering-plan library would weigh more than the rest of the
//! server; these six plans are simple: a calling code, a fixed national
//! length, and (except Burundi) a trunk `0` that people type at home.

use crate::model::user::Country;

struct Plan {
    calling_code: &'static str,
    national_digits: usize,
}

fn plan(country: Country) -> Plan {
    let (calling_code, national_digits) = match country {
        Country::Drc => ("243", 9),
        Country::Bdi => ("257", 8),
        Country::Rwa => ("250", 9),
        Country::Uga => ("256", 9),
        Country::Tza => ("255", 9),
        Country::Ken => ("254", 9),
    };
    Plan { calling_code, national_digits }
}

/// The last eight digits of a number however it was typed (`+243 99…`, `099…`,
/// `00243-99…`): what throttles count one number by, as accounts are found by it.
pub fn last_digits(typed: &str) -> String {
    let digits: Vec<char> = typed.chars().filter(char::is_ascii_digit).collect();
    digits[digits.len().saturating_sub(8)..].iter().collect()
}

/// The country's calling code, without `+` ("243" for the DRC).
pub fn calling_code(country: Country) -> &'static str {
    plan(country).calling_code
}

/// Returns the number in E.164 (`+243991234567`) when it can be read for
/// `country` (or is already international), `None` when it cannot.
pub fn to_e164(raw: &str, country: Country) -> Option<String> {
    let trimmed = raw.trim();
    if !trimmed.chars().all(|c| c.is_ascii_digit() || " +-.()/".contains(c)) {
        return None;
    }
    let digits: String = trimmed.chars().filter(char::is_ascii_digit).collect();
    let international = trimmed.starts_with('+') || digits.starts_with("00");
    let plan = plan(country);

    if international {
        let number = if trimmed.starts_with('+') { digits.as_str() } else { &digits[2..] };
        // Another country's number is kept as long as it has E.164's shape.
        return (8..=15).contains(&number.len()).then(|| format!("+{number}"));
    }
    let national = if digits.len() == plan.national_digits + 1 && digits.starts_with('0') {
        &digits[1..]
    } else if digits.len() == plan.calling_code.len() + plan.national_digits && digits.starts_with(plan.calling_code) {
        &digits[plan.calling_code.len()..]
    } else if digits.len() == plan.national_digits {
        digits.as_str()
    } else {
        return None;
    };
    Some(format!("+{}{national}", plan.calling_code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn national_forms_become_e164() {
        assert_eq!(to_e164("0991 234 567", Country::Drc).as_deref(), Some("+243991234567"));
        assert_eq!(to_e164("991234567", Country::Drc).as_deref(), Some("+243991234567"));
        assert_eq!(to_e164("243991234567", Country::Drc).as_deref(), Some("+243991234567"));
        assert_eq!(to_e164("79 123 456", Country::Bdi).as_deref(), Some("+25779123456"));
        assert_eq!(to_e164("078-123-4567", Country::Rwa).as_deref(), Some("+250781234567"));
        assert_eq!(to_e164("(0772) 123456", Country::Uga).as_deref(), Some("+256772123456"));
        assert_eq!(to_e164("0712 345 678", Country::Tza).as_deref(), Some("+255712345678"));
        assert_eq!(to_e164("0712345678", Country::Ken).as_deref(), Some("+254712345678"));
    }

    #[test]
    fn international_forms_are_kept() {
        assert_eq!(to_e164("+254 712 345 678", Country::Drc).as_deref(), Some("+254712345678"));
        assert_eq!(to_e164("00243991234567", Country::Ken).as_deref(), Some("+243991234567"));
    }

    #[test]
    fn unreadable_numbers_are_refused() {
        assert_eq!(to_e164("12345", Country::Ken), None);
        assert_eq!(to_e164("call me", Country::Ken), None);
        assert_eq!(to_e164("+12", Country::Ken), None);
    }
}
