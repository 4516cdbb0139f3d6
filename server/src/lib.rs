//! The MAVUNO server: REST API, sync endpoint and PWA host in one binary.
//!
//! `startup::Application::build` opens the data dir, listens and starts the workers;
//! `mavuno serve` and the tests both start the server through it.

pub mod api;
pub mod auth;
pub mod db;
pub mod demo;
pub mod domain;
pub mod error;
pub mod housekeeping;
pub mod labels;
pub mod model;
pub mod outbound;
pub mod platform;
pub mod startup;
pub mod state;
pub mod web;

pub use platform::config::Config;
