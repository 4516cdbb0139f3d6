//! Checking an application's answers: required answers for a submission,
//! options, lengths, yes/no and percentages, then the conditional rules
//! (docs/applications.md).

use super::options::options;
use crate::domain::input::{loose_bool, loose_percentage};
use crate::error::FieldErrors;
use crate::model::survey::{AnswerKind, CellValue, Given, SurveyAnswers, SurveyAnswersInput};

/// The longest free-text answer (and admin comment), in characters.
pub(super) const MAX_TEXT_CHARS: usize = 2000;

/// "loss_percentage" → "Loss percentage", for messages.
fn label(field: &str) -> String {
    let spaced = field.replace('_', " ");
    let mut chars = spaced.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// How strictly to check: a draft may be incomplete; a submission may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    Draft,
    Submission,
}

fn kind_of(field: &str) -> Option<AnswerKind> {
    SurveyAnswers::FIELDS.iter().find(|f| f.name == field).map(|f| f.kind)
}

/// Lays `input` over `base` and checks the result: required answers (for a
/// submission), options and lengths, yes/no answers, the loss percentage;
/// then applies the conditional rules (no loss percentage without losses, no
/// explanation without selling challenges).
pub fn apply(
    base: &SurveyAnswers,
    input: &SurveyAnswersInput,
    strictness: Strictness,
) -> Result<SurveyAnswers, FieldErrors> {
    let mut answers = base.clone();
    let mut flag_errors = Vec::new();
    let mut percent_errors = Vec::new();
    for (field, given) in input.given() {
        match (kind_of(field), given) {
            (_, Given::Text(text)) => {
                let text = text.trim();
                answers.set(field, CellValue::Text((!text.is_empty()).then(|| text.to_owned())));
            }
            (Some(AnswerKind::Flag), Given::Loose(value)) => match loose_bool(value) {
                Some(yes) => answers.set(field, CellValue::Bool(yes)),
                None => flag_errors.push(field),
            },
            (Some(AnswerKind::Percent), Given::Loose(value)) => match loose_percentage(value) {
                Some(number) => answers.set(field, CellValue::Number(number)),
                None => percent_errors.push(field),
            },
            (_, Given::Loose(_)) => {}
        }
    }

    let mut errors = FieldErrors::default();
    let cells = answers.cells();
    let text_of = |field: &str| {
        cells.iter().find_map(|(name, cell)| match cell {
            sync_protocol::Cell::Text(text) if *name == field => Some(*text),
            _ => None,
        })
    };
    if strictness == Strictness::Submission {
        for field in SurveyAnswers::FIELDS.iter().filter(|f| f.required) {
            if text_of(field.name).is_none_or(Option::is_none) {
                errors.add(field.name, "required", format!("{} is required", label(field.name)));
            }
        }
    }
    for field in SurveyAnswers::FIELDS.iter().filter(|f| matches!(f.kind, AnswerKind::Text | AnswerKind::LongText)) {
        let Some(Some(value)) = text_of(field.name) else { continue };
        if options(field.name).is_some_and(|allowed| !allowed.contains(&value.as_str())) {
            errors.add(field.name, "invalid_option", "Please choose one of the options");
        } else if value.chars().count() > MAX_TEXT_CHARS {
            errors.add(
                field.name,
                "too_long",
                format!("{} is too long (at most {MAX_TEXT_CHARS} characters)", label(field.name)),
            );
        }
    }
    for field in flag_errors {
        errors.add(field, "invalid_boolean", format!("{} must be yes or no", label(field)));
    }
    for field in percent_errors {
        errors.add(field, "out_of_range", format!("{} must be a whole number from 0 to 100", label(field)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if !answers.post_harvest_losses {
        answers.loss_percentage = 0;
    }
    if !answers.selling_challenges {
        answers.selling_challenges_explanation = None;
    }
    Ok(answers)
}
