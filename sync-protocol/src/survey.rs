//! A farmer application's answers, declared once: the stored record
//! ([`SurveyAnswers`]), what a client may send ([`SurveyAnswersInput`]), and
//! the list of fields with their kinds ([`SurveyAnswers::FIELDS`]) that the
//! server's validation, its database columns and exports, and the PWA's form
//! (through the generated TypeScript) all read.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::Loose;

/// How an answer is given and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// A short free text or one of the options; kept as text, blank is no answer.
    Text,
    /// A free text of several sentences: kept as text, and edits made offline
    /// on two devices merge (docs/sync.md, Text that merges).
    LongText,
    /// Yes or no.
    Flag,
    /// A whole number from 0 to 100.
    Percent,
}

/// One question of the application form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AnswerField {
    pub name: &'static str,
    pub kind: AnswerKind,
    /// A submitted application must answer it.
    pub required: bool,
}

/// One answer, borrowed (exports, database writes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell<'a> {
    Text(&'a Option<String>),
    Bool(bool),
    Number(i64),
}

/// One answer, owned (database reads, validation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellValue {
    Text(Option<String>),
    Bool(bool),
    Number(i64),
}

/// What a client sent for one field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Given<'a> {
    Text(&'a str),
    Loose(&'a Loose),
}

/// The three shapes an answer takes, so the generated code needs no per-kind cases.
trait Slot {
    fn cell(&self) -> Cell<'_>;
    fn set(&mut self, value: CellValue);
}

impl Slot for Option<String> {
    fn cell(&self) -> Cell<'_> {
        Cell::Text(self)
    }
    fn set(&mut self, value: CellValue) {
        if let CellValue::Text(text) = value {
            *self = text;
        }
    }
}

impl Slot for bool {
    fn cell(&self) -> Cell<'_> {
        Cell::Bool(*self)
    }
    fn set(&mut self, value: CellValue) {
        if let CellValue::Bool(flag) = value {
            *self = flag;
        }
    }
}

impl Slot for i64 {
    fn cell(&self) -> Cell<'_> {
        Cell::Number(*self)
    }
    fn set(&mut self, value: CellValue) {
        if let CellValue::Number(number) = value {
            *self = number;
        }
    }
}

trait InputSlot {
    fn given(&self) -> Option<Given<'_>>;
}

impl InputSlot for Option<String> {
    fn given(&self) -> Option<Given<'_>> {
        self.as_deref().map(Given::Text)
    }
}

impl InputSlot for Option<Loose> {
    fn given(&self) -> Option<Given<'_>> {
        self.as_ref().map(Given::Loose)
    }
}

/// Declares the answers once. Each line is `name: kind` (`text`, `long_text`,
/// `flag`, `percent`) with `+ required`
/// for answers a submission must give, in the form's order. A macro, because
/// the two structs' fields and the field table must come from one list; the
/// tt-muncher builds both structs' fields and the table as it reads the lines.
macro_rules! survey_answers {
    (@read [$($stored:tt)*] [$($input:tt)*] [$($table:tt)*]
        $(#[doc = $doc:literal])* $name:ident: text $(+ $required:ident)?; $($rest:tt)*) => {
        survey_answers!(@read
            [$($stored)* $(#[doc = $doc])* pub $name: Option<String>,]
            [$($input)* #[ts(optional)] pub $name: Option<String>,]
            [$($table)* ($name, Text, survey_answers!(@required $($required)?))]
            $($rest)*);
    };
    (@read [$($stored:tt)*] [$($input:tt)*] [$($table:tt)*]
        $(#[doc = $doc:literal])* $name:ident: long_text $(+ $required:ident)?; $($rest:tt)*) => {
        survey_answers!(@read
            [$($stored)* $(#[doc = $doc])* pub $name: Option<String>,]
            [$($input)* #[ts(optional)] pub $name: Option<String>,]
            [$($table)* ($name, LongText, survey_answers!(@required $($required)?))]
            $($rest)*);
    };
    (@read [$($stored:tt)*] [$($input:tt)*] [$($table:tt)*]
        $(#[doc = $doc:literal])* $name:ident: flag; $($rest:tt)*) => {
        survey_answers!(@read
            [$($stored)* $(#[doc = $doc])* pub $name: bool,]
            [$($input)* #[ts(optional)] #[schema(value_type = Option<bool>)] pub $name: Option<Loose>,]
            [$($table)* ($name, Flag, false)]
            $($rest)*);
    };
    (@read [$($stored:tt)*] [$($input:tt)*] [$($table:tt)*]
        $(#[doc = $doc:literal])* $name:ident: percent; $($rest:tt)*) => {
        survey_answers!(@read
            [$($stored)* $(#[doc = $doc])* #[ts(type = "number")] pub $name: i64,]
            [$($input)* #[ts(optional)] #[schema(value_type = Option<i64>)] pub $name: Option<Loose>,]
            [$($table)* ($name, Percent, false)]
            $($rest)*);
    };
    (@required required) => { true };
    (@required) => { false };

    (@read [$($stored:tt)*] [$($input:tt)*] [$(($name:ident, $kind:ident, $required:expr))*]) => {
        /// The answers of an application. Option answers hold the spec's
        /// English option text, which stays stable; the PWA translates it.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
        pub struct SurveyAnswers { $($stored)* }

        /// What a client sends: any subset of the answers (absent ones keep their value).
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS, ToSchema)]
        #[serde(default)]
        pub struct SurveyAnswersInput { $($input)* }

        impl SurveyAnswers {
            /// Every question, in the form's order.
            pub const FIELDS: &'static [AnswerField] =
                &[$(AnswerField { name: stringify!($name), kind: AnswerKind::$kind, required: $required }),*];

            /// Every answer with its name, in the form's order.
            pub fn cells(&self) -> Vec<(&'static str, Cell<'_>)> {
                vec![$((stringify!($name), Slot::cell(&self.$name))),*]
            }

            /// Sets one answer; a value of another kind than the field's is ignored.
            pub fn set(&mut self, name: &str, value: CellValue) {
                match name {
                    $(stringify!($name) => Slot::set(&mut self.$name, value),)*
                    _ => {}
                }
            }

            /// The fields whose answers differ from `other`'s.
            pub fn changed_fields(&self, other: &SurveyAnswers) -> Vec<&'static str> {
                let mut changed = Vec::new();
                $(if self.$name != other.$name { changed.push(stringify!($name)); })*
                changed
            }
        }

        impl SurveyAnswersInput {
            /// The fields this input sets, with what was sent, in the form's order.
            pub fn given(&self) -> Vec<(&'static str, Given<'_>)> {
                let mut given = Vec::new();
                $(if let Some(value) = InputSlot::given(&self.$name) { given.push((stringify!($name), value)); })*
                given
            }
        }
    };

    ($($body:tt)*) => { survey_answers!(@read [] [] [] $($body)*); };
}

survey_answers! {
    land_size: text + required;
    work_type: text + required;
    cooperative_name: text;
    income_sources: text + required;
    seed_type: text + required;
    seed_source: text + required;
    fertilizers: text + required;
    field_preparation: text + required;
    farming_techniques: long_text + required;
    planting_season: text + required;
    higher_season: text + required;
    higher_season_reason: long_text + required;
    average_yield: text + required;
    challenges: long_text + required;
    post_harvest_losses: flag;
    /// 0 to 100; 0 unless `post_harvest_losses`.
    loss_percentage: percent;
    selling_method: text + required;
    selling_challenges: flag;
    /// Only when `selling_challenges`.
    selling_challenges_explanation: long_text;
    mobile_interest: flag;
    improvements_production: long_text + required;
    improvements_selling: long_text + required;
    additional_comments: long_text;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_the_record_and_the_input_name_the_same_fields_in_order() {
        let names: Vec<&str> = SurveyAnswers::FIELDS.iter().map(|f| f.name).collect();
        let cells: Vec<&str> = SurveyAnswers::default().cells().into_iter().map(|(name, _)| name).collect();
        assert_eq!(names, cells);
        let record = serde_json::to_value(SurveyAnswers::default()).unwrap();
        let mut keys: Vec<&str> = record.as_object().unwrap().keys().map(String::as_str).collect();
        let mut sorted = names.clone();
        keys.sort_unstable();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        assert_eq!(SurveyAnswers::FIELDS.iter().filter(|f| f.required).count(), 16);
        let input: SurveyAnswersInput = serde_json::from_value(serde_json::json!({
            "land_size": "2-5 hectares", "mobile_interest": "on", "loss_percentage": 30
        }))
        .unwrap();
        let given: Vec<&str> = input.given().into_iter().map(|(name, _)| name).collect();
        assert_eq!(given, ["land_size", "loss_percentage", "mobile_interest"]);
    }

    #[test]
    fn set_and_compare_by_name() {
        let mut answers = SurveyAnswers::default();
        answers.set("challenges", CellValue::Text(Some("Pests".into())));
        answers.set("mobile_interest", CellValue::Bool(true));
        answers.set("mobile_interest", CellValue::Number(3));
        assert_eq!(answers.challenges.as_deref(), Some("Pests"));
        assert!(answers.mobile_interest);
        assert_eq!(answers.changed_fields(&SurveyAnswers::default()), ["challenges", "mobile_interest"]);
    }
}
