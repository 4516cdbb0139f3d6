//! The one integration-test binary: every test starts the real server on
//! port 0 with a fresh data dir (see helpers.rs).

mod accounts;
mod admin;
mod admin_products;
mod admin_surveys;
mod agents;
mod authz;
mod blogs;
mod cli;
mod comments;
mod contact;
mod course_payments;
mod courses;
mod exchange_rates;
mod fuzz;
mod hardening;
mod helpers;
mod http;
mod long_texts;
mod notifications;
mod orders;
mod overview;
mod password_reset;
mod pawapay;
mod payments;
mod phone_accounts;
mod product_names;
mod products;
mod registrations;
mod sessions;
mod settings;
mod sms;
mod surveys;
mod sync;
mod sync_property;
mod uploads;
