//! Demo content, loaded by `mavuno serve --demo` into a database that has
//! not had it yet, through the same domain functions as real data. It is
//! loaded once: what an admin later edits or deletes stays that way.

use crate::AppState;
use crate::auth;
use crate::db::meta;
use crate::db::users::NewUser;
use crate::domain::accounts::insert_account;
use crate::domain::user::{Country, Role, Status};
use crate::error::ApiResult;

/// The password of every demo account (README.md lists them).
pub const DEMO_PASSWORD: &str = "mavuno-demo";
const SEEDED_KEY: &str = "demo_seeded";

struct DemoAccount {
    email: &'static str,
    first_name: &'static str,
    last_name: &'static str,
    role: Role,
    country: Country,
    phone_number: &'static str,
    location: &'static str,
}

const ACCOUNTS: &[DemoAccount] = &[
    DemoAccount {
        email: "superadmin@mavuno.demo",
        first_name: "Neema",
        last_name: "Mwamba",
        role: Role::SuperAdmin,
        country: Country::Drc,
        phone_number: "+243990000001",
        location: "Bukavu, South Kivu",
    },
    DemoAccount {
        email: "admin@mavuno.demo",
        first_name: "Jean-Paul",
        last_name: "Mushagalusa",
        role: Role::Admin,
        country: Country::Drc,
        phone_number: "+243990000002",
        location: "Bukavu, South Kivu",
    },
    DemoAccount {
        email: "farmer@mavuno.demo",
        first_name: "Amani",
        last_name: "Bahati",
        role: Role::Farmer,
        country: Country::Drc,
        phone_number: "+243990000003",
        location: "Kabare, South Kivu",
    },
    DemoAccount {
        email: "buyer@mavuno.demo",
        first_name: "Grace",
        last_name: "Uwimana",
        role: Role::User,
        country: Country::Rwa,
        phone_number: "+250780000004",
        location: "Rusizi",
    },
    DemoAccount {
        email: "agent@mavuno.demo",
        first_name: "Espoir",
        last_name: "Cirhuza",
        role: Role::FieldAgent,
        country: Country::Drc,
        phone_number: "+243990000005",
        location: "Walungu, South Kivu",
    },
];

/// Loads the demo content unless this database already had it. Returns
/// whether anything was loaded.
pub async fn seed(state: &AppState) -> ApiResult<bool> {
    if state.db.read(|conn| Ok(meta::get(conn, SEEDED_KEY)?)).await?.is_some() {
        return Ok(false);
    }
    let password_hash = auth::hash_password_async(DEMO_PASSWORD.to_owned()).await?;
    state
        .db
        .write(move |tx| {
            // Another process may have seeded meanwhile; the write lock makes this check final.
            if meta::get(tx, SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            for demo in ACCOUNTS {
                let account = NewUser {
                    email: demo.email.to_owned(),
                    password_hash: password_hash.clone(),
                    first_name: demo.first_name.to_owned(),
                    last_name: demo.last_name.to_owned(),
                    phone_number: Some(demo.phone_number.to_owned()),
                    country: Some(demo.country),
                    role: demo.role,
                    status: Status::Active,
                    location: Some(demo.location.to_owned()),
                    avatar: None,
                };
                // An account someone already made with this email is left alone.
                match insert_account(tx, &account) {
                    Err(err) if err.code() == "validation_failed" => {}
                    other => {
                        other?;
                    }
                }
            }
            meta::set(tx, SEEDED_KEY, &crate::clock::now())?;
            Ok(true)
        })
        .await
}
