//! The demo's exchange rate, set once by the demo admin through the admin's domain
//! function (docs/money.md): an example an admin can replace like any rate.

use crate::db::{exchange_rates, users};
use crate::domain::exchange_rates::{RateInput, set};
use crate::error::ApiResult;
use crate::state::AppState;

/// Congolese francs for a US dollar, of the order of late 2026's market rate.
const DEMO_FRANCS_PER_USD: i64 = 2850;

pub async fn seed(state: &AppState) -> ApiResult<bool> {
    state
        .db
        .write(|tx| {
            // Rates are never deleted: once there is one, the demo has nothing to add.
            if exchange_rates::current(tx, "CDF")?.is_some() {
                return Ok(false);
            }
            let Some(admin) = users::find_by_email(tx, "admin@mavuno.demo")? else { return Ok(false) };
            let today = time::OffsetDateTime::now_utc().date().to_string();
            set(
                tx,
                &admin,
                "CDF",
                &RateInput { francs_per_usd: Some(DEMO_FRANCS_PER_USD.into()), as_of: Some(today) },
            )?;
            Ok(true)
        })
        .await
}
