//! The contact form (SPEC section 2 and 5): all four fields required.

use std::net::IpAddr;

use serde::Deserialize;
use utoipa::ToSchema;

use super::accounts::looks_like_email;
use crate::db::contact::{self, NewContact};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::{AppState, clock};

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct ContactForm {
    pub name: String,
    pub email: String,
    pub subject: String,
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
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// Stores a message; a few per address per hour, so the form cannot be used to flood the team.
pub async fn send(state: &AppState, form: ContactForm, sender: Option<i64>, from: IpAddr) -> ApiResult<()> {
    validate(&form).map_err(AppError::Validation)?;
    let key = format!("ip:{from}");
    if let Err(wait_secs) = state.contact_throttle.check(&[&key]) {
        return Err(AppError::too_many_requests(
            "too_many_messages",
            "You have sent several messages in a short time. Please wait a while before sending another.",
            wait_secs,
        ));
    }
    state
        .db
        .write(move |tx| {
            let row = NewContact {
                name: form.name.trim(),
                email: form.email.trim(),
                subject: form.subject.trim(),
                message: form.message.trim(),
                user_id: sender,
            };
            contact::insert(tx, &row, &clock::now())?;
            Ok(())
        })
        .await?;
    state.contact_throttle.record(&[&key]);
    Ok(())
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
