//! What the server runs on, knowing nothing of the product: the HTTP/1.1 accept loop
//! (`server`), security headers and who a request comes from (`middleware`), the
//! throttles (`rate_limit`), answers kept in memory (`cache`), the configuration
//! (`config`), times as stored (`clock`) and the data dir's modes (`files`).

pub mod cache;
pub mod clock;
pub mod config;
pub mod files;
pub mod middleware;
pub mod rate_limit;
pub mod server;
