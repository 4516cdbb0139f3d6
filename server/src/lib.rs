//! The MAVUNO server: REST API, sync endpoint and PWA host in one binary.
//!
//! `startup::Application::build` opens the data dir, listens and starts the workers;
//! `mavuno serve` and the tests both start the server through it.

pub mod api;
pub mod auth;
pub mod cache;
pub mod certificate_pdf;
pub mod clock;
pub mod config;
pub mod csv;
pub mod db;
pub mod demo;
pub mod demo_blogs;
pub mod demo_courses;
pub mod demo_orders;
pub mod demo_pictures;
pub mod demo_prices;
pub mod demo_rates;
pub mod domain;
pub mod error;
pub mod files;
pub mod gsm7;
pub mod housekeeping;
pub mod labels;
pub mod mailer;
pub mod media;
pub mod middleware;
pub mod model;
pub mod providers;
pub mod rate_limit;
pub mod server;
pub mod sms;
pub mod startup;
pub mod web;

pub use config::Config;
