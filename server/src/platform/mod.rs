//! What the server runs on, knowing nothing of the product: the HTTP/1.1 accept loop
//! (`server`), security headers and who a request comes from (`middleware`), the
//! answers kept in memory (`cache`), the configuration
//! (`config`), times as stored (`clock`), the data dir's modes (`files`), and texts'
//! forms: GSM-7, what an SMS can carry (`gsm7`), CSV, written and read (`csv`), and JSON
//! read with an object wherever a record is expected (`strict_json`).

pub mod cache;
pub mod clock;
pub mod config;
pub mod csv;
pub mod files;
pub mod gsm7;
pub mod metrics;
pub mod middleware;
pub mod request_id;
pub mod server;
pub mod strict_json;
