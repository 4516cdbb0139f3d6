//! Demo content, loaded by `mavuno serve --demo` into a database that has
//! not had it yet, through the same domain functions as real data. It is
//! loaded once: what an admin later edits or deletes stays that way.

pub mod blogs;
pub mod cooperatives;
pub mod courses;
pub mod orders;
pub mod pictures;
pub mod prices;
pub mod rates;

use crate::auth;
use crate::db::users::NewUser;
use crate::db::{meta, uploads, users};
use crate::domain::identifiers::insert_account;
use crate::domain::products;
use crate::domain::surveys;
use crate::error::{ApiResult, AppError};
use crate::model::survey::SurveyAnswersInput;
use crate::model::user::{Country, Role, Status};
use crate::outbound::media;
use crate::state::AppState;
use pictures::Produce;
use sync_protocol::ListingInput;

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
    DemoAccount {
        email: "esther@mavuno.demo",
        first_name: "Esther",
        last_name: "Nabintu",
        role: Role::Farmer,
        country: Country::Drc,
        phone_number: "+243990000009",
        location: "Kalehe, South Kivu",
    },
    DemoAccount {
        email: "habimana@mavuno.demo",
        first_name: "Jean-Claude",
        last_name: "Habimana",
        role: Role::Farmer,
        country: Country::Rwa,
        phone_number: "+250780000010",
        location: "Rusizi",
    },
];

/// The spec's six products, from the demo farmers.
struct DemoProduct {
    farmer: &'static str,
    picture: Produce,
    /// The listing as the farmer's form sends it.
    fields: fn() -> serde_json::Value,
    /// Days before today it was harvested, days after today it expires.
    harvested: i64,
    keeps: i64,
}

const PRODUCTS: &[DemoProduct] = &[
    DemoProduct {
        farmer: "farmer@mavuno.demo",
        picture: Produce::Tomatoes,
        fields: || {
            serde_json::json!({
                "title": "Fresh tomatoes", "title_fr": "Tomates fraîches", "title_sw": "Nyanya mbichi",
                "description": "Firm, ripe tomatoes grown on the volcanic soil of Kabare, picked the day they are sent.",
                "description_fr": "Tomates fermes et mûres, cultivées sur le sol volcanique de Kabare, cueillies le jour de l'envoi.",
                "description_sw": "Nyanya imara na zilizoiva, zilizolimwa kwenye udongo wa volkano wa Kabare, huvunwa siku zinapotumwa.",
                "category": "vegetables", "unit": "kg", "quantity": 120, "price": "1.50", "current_price": "1.20",
                "certifications": ["organic"], "tags": ["fresh", "kabare"], "shipping_cost": "5.00", "shipping_days": "1-2",
                "min_order": 1, "max_order": 50,
            })
        },
        harvested: 3,
        keeps: 12,
    },
    DemoProduct {
        farmer: "esther@mavuno.demo",
        picture: Produce::CoffeeBeans,
        fields: || {
            serde_json::json!({
                "title": "Arabica coffee beans", "title_fr": "Café arabica en grains", "title_sw": "Kahawa ya arabika",
                "description": "Washed arabica from the hills above Lake Kivu, sun-dried on raised beds.",
                "description_fr": "Arabica lavé des collines qui dominent le lac Kivu, séché au soleil sur des claies surélevées.",
                "description_sw": "Arabika iliyooshwa kutoka milima juu ya Ziwa Kivu, iliyokaushwa juani kwenye vichanja.",
                "category": "beverages", "unit": "kg", "quantity": 80, "price": "12.00", "current_price": "10.50",
                "certifications": ["organic", "fair-trade"], "tags": ["arabica", "lake kivu"], "shipping_cost": "8.00", "shipping_days": "2-3",
                "min_order": 0.5, "max_order": 20,
            })
        },
        harvested: 60,
        keeps: 300,
    },
    DemoProduct {
        farmer: "farmer@mavuno.demo",
        picture: Produce::SweetCorn,
        fields: || {
            serde_json::json!({
                "title": "Sweet corn", "title_fr": "Maïs doux", "title_sw": "Mahindi matamu",
                "description": "Tender yellow maize cobs, harvested young for grilling or boiling.",
                "description_fr": "Épis de maïs jaune tendres, récoltés jeunes, à griller ou à bouillir.",
                "description_sw": "Mahindi mabichi ya njano, yaliyovunwa yakiwa machanga, ya kuchoma au kuchemsha.",
                "category": "grains", "unit": "kg", "quantity": 300, "price": "0.80", "current_price": "0.80",
                "tags": ["maize"], "shipping_cost": "4.00", "shipping_days": "1-2", "min_order": 5, "max_order": 100,
            })
        },
        harvested: 2,
        keeps: 10,
    },
    DemoProduct {
        farmer: "habimana@mavuno.demo",
        picture: Produce::Avocados,
        fields: || {
            serde_json::json!({
                "title": "Avocados", "title_fr": "Avocats", "title_sw": "Parachichi",
                "description": "Creamy avocados from Rusizi, sold by the piece, ready to eat in three to five days.",
                "description_fr": "Avocats onctueux de la Ruzizi, vendus à la pièce, prêts à manger dans trois à cinq jours.",
                "description_sw": "Parachichi laini kutoka Rusizi, yanauzwa moja moja, tayari kuliwa baada ya siku tatu hadi tano.",
                "category": "fruits", "unit": "piece", "quantity": 200, "price": "0.50", "current_price": "0.40",
                "certifications": ["organic"], "tags": ["hass"], "shipping_cost": "6.00", "shipping_days": "2-3",
                "min_order": 5, "max_order": 100,
            })
        },
        harvested: 4,
        keeps: 14,
    },
    DemoProduct {
        farmer: "habimana@mavuno.demo",
        picture: Produce::GreenBeans,
        fields: || {
            serde_json::json!({
                "title": "Green beans", "title_fr": "Haricots verts", "title_sw": "Maharagwe mabichi",
                "description": "Fine green beans, hand-picked and sorted, for local markets and hotels.",
                "description_fr": "Haricots verts fins, cueillis et triés à la main, pour les marchés locaux et les hôtels.",
                "description_sw": "Maharagwe mabichi membamba, yaliyochumwa na kuchaguliwa kwa mkono, kwa masoko ya karibu na hoteli.",
                "category": "vegetables", "unit": "kg", "quantity": 60, "price": "2.00", "current_price": "1.80",
                "certifications": ["rainforest-alliance"], "tags": ["fresh"], "shipping_cost": "5.00", "shipping_days": "1-2",
                "min_order": 1, "max_order": 30,
            })
        },
        harvested: 1,
        keeps: 7,
    },
    DemoProduct {
        farmer: "esther@mavuno.demo",
        picture: Produce::Mangoes,
        fields: || {
            serde_json::json!({
                "title": "Mangoes", "title_fr": "Mangues", "title_sw": "Maembe",
                "description": "Sweet mangoes from the shores of Lake Kivu; only a few left this week.",
                "description_fr": "Mangues sucrées des rives du lac Kivu ; il n'en reste que quelques-unes cette semaine.",
                "description_sw": "Maembe matamu kutoka pwani ya Ziwa Kivu; yamebaki machache tu wiki hii.",
                "category": "fruits", "unit": "piece", "quantity": 8, "price": "0.70", "current_price": "0.60",
                "certifications": ["organic"], "tags": ["sweet"], "shipping_cost": "6.00", "shipping_days": "2-3",
                "min_order": 2, "max_order": 8,
            })
        },
        harvested: 5,
        keeps: 9,
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
        (
            "furaha@mavuno.demo",
            "agent@mavuno.demo",
            with(json!({
                "land_size": "Less than 1 hectare", "work_type": "With family", "cooperative_name": "Umoja wa Wakulima Walungu",
                "seed_type": "Local/traditional", "fertilizers": "Compost/manure", "farming_techniques": "Intercropping beans and maize, mulching",
                "higher_season_reason": "The long rains", "average_yield": "Less than 1 ton", "challenges": "Cassava mosaic and poor roads",
                "post_harvest_losses": true, "loss_percentage": 25, "mobile_interest": true,
            })),
        ),
        (
            "ndayishimiye@mavuno.demo",
            "ndayishimiye@mavuno.demo",
            with(json!({
                "land_size": "1-2 hectares", "work_type": "Cooperative", "cooperative_name": "Coopérative Twiyungunganye",
                "seed_type": "Improved/hybrid", "fertilizers": "Chemical fertilizers", "farming_techniques": "Terracing and crop rotation",
                "higher_season_reason": "More rain and fewer pests", "average_yield": "1-2 tons", "challenges": "Price of fertilizer",
                "selling_challenges": true, "selling_challenges_explanation": "Traders pay late",
            })),
        ),
        (
            "mukamana@mavuno.demo",
            "mukamana@mavuno.demo",
            with(json!({
                "land_size": "2-5 hectares", "work_type": "With hired workers", "seed_type": "Certified seeds",
                "fertilizers": "Organic fertilizers", "farming_techniques": "Drip irrigation for vegetables",
                "higher_season_reason": "Irrigation keeps the dry season productive", "average_yield": "2-5 tons",
                "challenges": "Water in the dry season", "mobile_interest": true,
            })),
        ),
    ]
}

/// The demo farmers' approved applications (so they show as verified) and their products.
fn seed_products(tx: &crate::db::Connection, pictures: &[Vec<(String, i64)>]) -> ApiResult<()> {
    let today = time::OffsetDateTime::now_utc().date();
    let now = crate::platform::clock::now();
    for (product, photos) in PRODUCTS.iter().zip(pictures) {
        let Some(farmer) = users::find_by_email(tx, product.farmer)? else { continue };
        if !crate::db::surveys::has_approved(tx, farmer.id)? {
            let input: SurveyAnswersInput =
                serde_json::from_value(applications()[1].2.clone()).map_err(AppError::internal)?;
            let (survey, _) = surveys::create(tx, &farmer, farmer.id, None, &input, Some("pending"))?;
            surveys::review(
                tx,
                survey.id,
                surveys::Decision::Approve,
                Some("Visited by our field team. Welcome to MAVUNO!"),
            )?;
        }
        for (hash, size) in photos {
            uploads::insert(tx, hash, farmer.id, *size, &now)?;
        }
        let mut fields = (product.fields)();
        let day = |offset: i64| (today + time::Duration::days(offset)).to_string();
        fields["harvest_date"] = day(-product.harvested).into();
        fields["expiry_date"] = day(product.keeps).into();
        fields["images"] = photos.iter().map(|(hash, _)| hash.clone()).collect::<Vec<_>>().into();
        let input: ListingInput = serde_json::from_value(fields).map_err(AppError::internal)?;
        products::create(tx, &farmer, None, &input)?;
    }
    Ok(())
}

/// Who can reach a server with demo content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exposure {
    /// Only this machine (a loopback address): the published passwords are fine.
    Local,
    /// Other people (`--public-demo`): the staff accounts get passwords of their own.
    Public,
}

/// Gives every demo staff account (super admin, admin, field agent) that still
/// has the published password a generated one, and signs it out everywhere;
/// answers the new passwords, for the operator to read once.
pub async fn protect_staff(state: &AppState) -> ApiResult<Vec<(String, String)>> {
    let mut changed = Vec::new();
    for demo in ACCOUNTS.iter().filter(|a| matches!(a.role, Role::SuperAdmin | Role::Admin | Role::FieldAgent)) {
        let email = demo.email;
        let Some(user) = state.db.read(move |conn| Ok(users::find_by_email(conn, email)?)).await? else {
            continue;
        };
        if !auth::verify_password_async(Some(user.password_hash), DEMO_PASSWORD.to_owned()).await? {
            continue;
        }
        let password = auth::random_password();
        let changes = users::ProfileChanges {
            password_hash: Some(auth::hash_password_async(password.clone()).await?),
            ..Default::default()
        };
        state
            .db
            .write(move |tx| {
                users::update_profile(tx, user.id, &changes, &crate::platform::clock::now())?;
                Ok(crate::db::sessions::delete_for_user(tx, user.id, None)?)
            })
            .await?;
        changed.push((email.to_owned(), password));
    }
    Ok(changed)
}

/// Loads the demo content unless this database already had it. Returns
/// whether anything was loaded.
pub async fn seed(state: &AppState) -> ApiResult<bool> {
    if state.db.read(|conn| Ok(meta::get(conn, SEEDED_KEY)?)).await?.is_some() {
        return Ok(false);
    }
    let password_hash = auth::hash_password_async(DEMO_PASSWORD.to_owned()).await?;
    // Three drawn pictures per product, stored like uploaded photos.
    let mut pictures = Vec::with_capacity(PRODUCTS.len());
    for product in PRODUCTS {
        let mut hashes = Vec::new();
        for variant in 0..3 {
            let bytes = pictures::picture(product.picture, variant);
            let size = bytes.len() as i64;
            hashes.push((state.media.store_image(bytes, media::PHOTO_SIZES).await?, size));
        }
        pictures.push(hashes);
    }
    state
        .db
        .write(move |tx| {
            // Another process may have seeded meanwhile; the write lock makes this check final.
            if meta::get(tx, SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            for demo in ACCOUNTS {
                let account = NewUser {
                    email: Some(demo.email.to_owned()),
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
                    Err(AppError::Validation(_)) => {}
                    other => {
                        other?;
                    }
                }
            }
            for (applicant, author, answers) in applications() {
                let (Some(owner), Some(author)) =
                    (users::find_by_email(tx, applicant)?, users::find_by_email(tx, author)?)
                else {
                    continue;
                };
                let input: SurveyAnswersInput = serde_json::from_value(answers).map_err(AppError::internal)?;
                surveys::create(tx, &owner, author.id, None, &input, Some("pending"))?;
            }
            seed_products(tx, &pictures)?;
            crate::demo::orders::seed(tx)?;
            meta::set(tx, SEEDED_KEY, &crate::platform::clock::now())?;
            Ok(true)
        })
        .await
}
