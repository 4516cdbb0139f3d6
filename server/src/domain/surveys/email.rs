//! The email (and SMS, to a phone number) that tells an applicant about a decision.

use crate::db::Connection;

use crate::db::surveys::SurveyRow;
use crate::domain::settings::lang_for;
use crate::error::ApiResult;
use crate::model::survey::SurveyStatus;
use crate::platform::clock;
use crate::platform::gsm7;

/// Writes the applicant an email about the decision on `survey`, in the
/// language of their country, when they have an email, and an SMS when they have a phone number; the
/// senders send them after the commit.
pub fn notify_decision(conn: &Connection, survey: &SurveyRow) -> ApiResult<()> {
    let Some(applicant) = crate::db::users::find(conn, survey.user_id)? else { return Ok(()) };
    let lang = lang_for(conn, applicant.country)?;
    let outcome = if survey.status == SurveyStatus::Approved { "approved" } else { "rejected" };
    let name = applicant.greeting_name();
    let number = survey.id.to_string();
    let mut body = lang.format(&format!("email.decision.body_{outcome}"), &[("name", &name), ("number", &number)]);
    if let Some(comment) = &survey.admin_comment {
        body.push_str("\n\n");
        body.push_str(&lang.format("email.decision.comment", &[("comment", comment)]));
    }
    body.push_str("\n\n");
    body.push_str(&lang.text("email.signature"));
    let subject = lang.format(&format!("email.decision.subject_{outcome}"), &[("number", &number)]);
    if let Some(email) = &applicant.email {
        crate::db::outbox::enqueue(conn, email, &subject, &body, &clock::now())?;
    }
    // The admin's comment comes in the SMS too (a basic phone has no app to read it in),
    // shortened at a word to what the segment has room for.
    match survey.admin_comment.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(comment) => {
            let key = format!("decision_{outcome}_comment");
            let sms_lang = crate::domain::sms::lang_of(conn, &applicant)?;
            let frame = crate::domain::sms::compose(
                sms_lang,
                &key,
                &applicant.first_name,
                &[("number", &number), ("comment", "")],
            );
            let room = gsm7::SEGMENT.saturating_sub(gsm7::units(&frame).unwrap_or(gsm7::SEGMENT));
            let comment = gsm7::shorten(&gsm7::fold(comment), room);
            crate::domain::sms::text_person(conn, &applicant, &key, &[("number", &number), ("comment", &comment)])?;
        }
        None => {
            crate::domain::sms::text_person(conn, &applicant, &format!("decision_{outcome}"), &[("number", &number)])?
        }
    }
    let link = crate::domain::notifications::section("applications");
    crate::domain::notifications::notify(
        conn,
        applicant.id,
        &format!("application_{outcome}"),
        &link,
        &[("number", &number)],
    )?;
    Ok(())
}
