//! The status rules (docs/applications.md): where the owner may move an
//! application, and the admin's decisions.

use super::validate::Strictness;
use crate::error::{ApiResult, AppError};
use crate::model::survey::SurveyStatus;

pub(super) fn locked(status: SurveyStatus) -> AppError {
    AppError::conflict(
        "survey_locked",
        format!("This application is {status} and can no longer be changed by its owner"),
    )
}

fn invalid_transition(message: &str) -> AppError {
    AppError::invalid("status", "invalid_transition", message)
}

/// docs/product.md, Statuses for the owner: where a requested status may lead, and how
/// strictly the answers are checked on the way.
pub fn owner_transition(from: Option<SurveyStatus>, requested: Option<&str>) -> ApiResult<(SurveyStatus, Strictness)> {
    use SurveyStatus::*;
    let requested = match requested.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => Some(SurveyStatus::parse(text).ok_or_else(|| invalid_transition("Unknown status"))?),
        None => None,
    };
    match (from, requested) {
        (None, None | Some(Pending)) => Ok((Pending, Strictness::Submission)),
        (None, Some(Draft)) => Ok((Draft, Strictness::Draft)),
        (None, Some(_)) => Err(invalid_transition("A new application is saved as a draft or submitted")),
        (Some(Draft), None | Some(Draft)) => Ok((Draft, Strictness::Draft)),
        (Some(Draft), Some(Pending)) => Ok((Pending, Strictness::Submission)),
        (Some(Draft), Some(_)) => Err(invalid_transition("A draft can only be saved again or submitted")),
        (Some(Rejected), None | Some(Rejected)) => Ok((Rejected, Strictness::Draft)),
        (Some(Rejected), Some(Resubmitted)) => Ok((Resubmitted, Strictness::Submission)),
        (Some(Rejected), Some(_)) => {
            Err(invalid_transition("A rejected application can only be edited or re-submitted"))
        }
        (Some(other), _) => Err(locked(other)),
    }
}

/// An admin's decision on an application (docs/product.md, Statuses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Reject,
}

impl Decision {
    /// The statuses an admin may send: the server's `approved` or the spec client's `active`.
    pub fn parse(status: &str) -> Option<Decision> {
        match status {
            "approved" | "active" => Some(Decision::Approve),
            "rejected" => Some(Decision::Reject),
            _ => None,
        }
    }
}
