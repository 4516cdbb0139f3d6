//! Values as HTML forms and older clients send them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// A JSON boolean or number, or text ("true", "on", "42"): what a form field
/// holds before the server reads it as a yes/no, a count or a price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(untagged)]
pub enum Loose {
    Bool(bool),
    Number(f64),
    Text(String),
}
