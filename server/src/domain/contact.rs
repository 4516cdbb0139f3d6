//! The contact form (docs/product.md, Screens and Validation): all four fields required.

use serde::Deserialize;
use utoipa::ToSchema;

use super::person::looks_like_email;
use crate::error::FieldErrors;

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ContactForm {
    // What `validate` takes, for the API document: something besides spaces, within the
    // limits, no hidden characters (line breaks in the message only). A field left out is
    // read as empty, so that it is refused with its words, as an empty one is.
    #[serde(default)]
    #[schema(
        required = true,
        max_length = 100,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*[^\s\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C][^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*$"
    )]
    pub name: String,
    #[serde(default)]
    #[schema(
        required = true,
        max_length = 254,
        pattern = r"^[^@\s\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+@([^@\s.\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+\.)+[^@\s.\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+$"
    )]
    pub email: String,
    #[serde(default)]
    #[schema(
        required = true,
        max_length = 200,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*[^\s\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C][^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*$"
    )]
    pub subject: String,
    #[serde(default)]
    #[schema(
        required = true,
        max_length = 5000,
        pattern = r"^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*[^\s\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C][^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*$"
    )]
    pub message: String,
}

const LIMITS: [(&str, usize); 4] = [("name", 100), ("email", 254), ("subject", 200), ("message", 5000)];

pub fn validate(form: &ContactForm) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    let fields = [
        ("name", form.name.trim(), "name_required", "Name is required"),
        ("email", form.email.trim(), "email_required", "Email is required"),
        ("subject", form.subject.trim(), "subject_required", "Subject is required"),
        ("message", form.message.trim(), "message_required", "Message is required"),
    ];
    for (field, value, code, message) in fields {
        if value.is_empty() {
            errors.add(field, code, message);
        }
    }
    if !form.email.trim().is_empty() && !looks_like_email(form.email.trim()) {
        errors.add("email", "email_invalid", "Please enter a valid email address");
    }
    for ((field, value, ..), (_, max)) in fields.iter().zip(LIMITS) {
        if value.chars().count() > max {
            errors.add(field, "too_long", format!("{field} is too long (at most {max} characters)"));
        } else if super::input::has_hidden_characters(value, *field == "message") {
            errors.add(field, "invalid_characters", format!("{field} contains characters that are not allowed"));
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_required_in_order() {
        let errors = validate(&ContactForm { email: " ".into(), ..Default::default() }).unwrap_err();
        assert_eq!(errors.codes(), ["name_required", "email_required", "subject_required", "message_required"]);
        let errors = validate(&ContactForm {
            name: "A".into(),
            email: "not-an-email".into(),
            subject: "S".into(),
            message: "m".repeat(5001),
        })
        .unwrap_err();
        assert_eq!(errors.codes(), ["email_invalid", "too_long"]);
    }
}
