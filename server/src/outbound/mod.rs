//! What leaves the server for the outside world: the off-site copy (`offsite`), emails
//! (`mailer`), SMS (`sms`), mobile-money providers and their poller (`providers`),
//! pictures checked and re-encoded (`media`) and certificates as PDF
//! (`certificate_pdf`). Each has a default that needs no keys and goes through the same
//! code path as the real provider (docs/payments.md, docs/sms.md).

pub mod certificate_pdf;
pub mod mailer;
pub mod media;
pub mod offsite;
pub mod providers;
pub mod sms;
