//! The command line's own parts (`main.rs` reads the commands): making an account
//! (`accounts`); the settings a command takes from flags or the environment, checked
//! before anything starts (`database`: SQLite or PostgreSQL, `migrate-to-postgres`,
//! `backup`; `media`: the picture store; `offsite`: the
//! off-site copy), and `mavuno ussd`, a basic phone in the terminal (`phone`). Only the
//! binary has them; the library (`lib.rs`) knows nothing of the command line.

pub mod accounts;
pub mod database;
pub mod media;
pub mod offsite;
pub mod phone;
