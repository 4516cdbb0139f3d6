//! Demo content, loaded by `mavuno serve --demo` into a database that has
//! not had it yet, through the same domain functions as real data. It is
//! loaded once: what an admin later edits or deletes stays that way.

use crate::AppState;
use crate::auth;
use crate::db::{meta, users};
use crate::db::users::NewUser;
use crate::domain::accounts::insert_account;
use crate::domain::user::{Country, Role, Status};
use crate::domain::surveys::{self, AnswersInput};
use crate::error::{ApiResult, AppError};

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
    DemoAccount {
        email: "furaha@mavuno.demo",
        first_name: "Furaha",
        last_name: "Namegabe",
        role: Role::User,
        country: Country::Drc,
        phone_number: "+243990000006",
        location: "Walungu, South Kivu",
    },
    DemoAccount {
        email: "ndayishimiye@mavuno.demo",
        first_name: "Jean-Bosco",
        last_name: "Ndayishimiye",
        role: Role::User,
        country: Country::Bdi,
        phone_number: "+25779000007",
        location: "Cibitoke",
    },
    DemoAccount {
        email: "mukamana@mavuno.demo",
        first_name: "Claudine",
        last_name: "Mukamana",
        role: Role::User,
        country: Country::Rwa,
        phone_number: "+250780000008",
        location: "Nyamasheke",
    },
];

/// Applications waiting for an admin: (applicant, who filled it, answers).
fn applications() -> [(&'static str, &'static str, serde_json::Value); 3] {
    use serde_json::json;
    let base = json!({
        "income_sources": "Farming only", "seed_source": "Local market", "field_preparation": "Hand tools (hoe)",
        "planting_season": "Season A", "higher_season": "Season B", "selling_method": "Sell at local market",
        "improvements_production": "Improved seed and training on soil fertility",
        "improvements_selling": "A collection point and fair prices",
    });
    let with = |extra: serde_json::Value| {
        let mut answers = base.clone();
        answers.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
        answers
    };
    [
        ("furaha@mavuno.demo", "agent@mavuno.demo", with(json!({
            "land_size": "Less than 1 hectare", "work_type": "With family", "cooperative_name": "Umoja wa Wakulima Walungu",
            "seed_type": "Local/traditional", "fertilizers": "Compost/manure", "farming_techniques": "Intercropping beans and maize, mulching",
            "higher_season_reason": "The long rains", "average_yield": "Less than 1 ton", "challenges": "Cassava mosaic and poor roads",
            "post_harvest_losses": true, "loss_percentage": 25, "mobile_interest": true,
        }))),
        ("ndayishimiye@mavuno.demo", "ndayishimiye@mavuno.demo", with(json!({
            "land_size": "1-2 hectares", "work_type": "Cooperative", "cooperative_name": "Coopérative Twiyungunganye",
            "seed_type": "Improved/hybrid", "fertilizers": "Chemical fertilizers", "farming_techniques": "Terracing and crop rotation",
            "higher_season_reason": "More rain and fewer pests", "average_yield": "1-2 tons", "challenges": "Price of fertilizer",
            "selling_challenges": true, "selling_challenges_explanation": "Traders pay late",
        }))),
        ("mukamana@mavuno.demo", "mukamana@mavuno.demo", with(json!({
            "land_size": "2-5 hectares", "work_type": "With hired workers", "seed_type": "Certified seeds",
            "fertilizers": "Organic fertilizers", "farming_techniques": "Drip irrigation for vegetables",
            "higher_season_reason": "Irrigation keeps the dry season productive", "average_yield": "2-5 tons",
            "challenges": "Water in the dry season", "mobile_interest": true,
        }))),
    ]
}

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
            for (applicant, author, answers) in applications() {
                let (Some(owner), Some(author)) = (users::find_by_email(tx, applicant)?, users::find_by_email(tx, author)?) else { continue };
                let input: AnswersInput = serde_json::from_value(answers).map_err(AppError::internal)?;
                surveys::create(tx, &owner, author.id, None, &input, Some("pending"))?;
            }
            meta::set(tx, SEEDED_KEY, &crate::clock::now())?;
            Ok(true)
        })
        .await
}
