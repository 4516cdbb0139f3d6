//! A farmer application's status; its answers are declared once in the
//! sync-protocol crate, which the PWA's TypeScript is generated from.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use sync_protocol::{AnswerKind, Cell, CellValue, Given, SurveyAnswers, SurveyAnswersInput};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum SurveyStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "pending")]
    Pending,
    /// Shown as "Approved" (the spec's older client said "Active"); `active` is true.
    #[serde(rename = "approved")]
    Approved,
    #[serde(rename = "rejected")]
    Rejected,
    #[serde(rename = "re-submitted")]
    Resubmitted,
}
string_enum!(SurveyStatus {
    Draft => "draft",
    Pending => "pending",
    Approved => "approved",
    Rejected => "rejected",
    Resubmitted => "re-submitted",
});

impl SurveyStatus {
    /// docs/product.md, Statuses: the owner may edit or delete only drafts and rejected applications.
    pub fn owner_may_change(self) -> bool {
        matches!(self, SurveyStatus::Draft | SurveyStatus::Rejected)
    }
}
