//! The rules: validation in the spec's order and wording, permissions and
//! state machines. REST handlers (and, later, sync mutations) call these
//! functions, so each rule lives in one place.

pub mod accounts;
pub mod contact;
pub mod phone;
pub mod user;
