//! `GET /farmer/earnings`: what a farmer earned (the ledger's sum), what
//! their orders not yet delivered will bring, totals by month, and the
//! newest entries (docs/orders.md).

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::AuthUser;
use crate::db::earnings;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::user::Role;
use crate::state::AppState;

/// The newest entries listed.
const ENTRIES: i64 = 50;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(farmer_earnings))
}

#[derive(Serialize, ToSchema)]
struct MonthJson {
    /// `YYYY-MM`.
    month: String,
    earned_cents: i64,
    /// How many order parts were delivered that month.
    sales: i64,
}

#[derive(Serialize, ToSchema)]
struct EntryJson {
    order_id: i64,
    part_id: i64,
    /// sale (a part delivered) or refund.
    kind: String,
    amount_cents: i64,
    at: String,
}

#[derive(Serialize, ToSchema)]
struct EarningsJson {
    success: bool,
    currency: String,
    /// The sum of the ledger's entries.
    earned_cents: i64,
    /// Parts ordered but not yet delivered.
    pending_cents: i64,
    by_month: Vec<MonthJson>,
    entries: Vec<EntryJson>,
}

#[utoipa::path(get, path = "/farmer/earnings", tag = "orders", security(("bearer" = [])),
    responses((status = 200, body = EarningsJson), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn farmer_earnings(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<EarningsJson>> {
    if auth.user.role != Role::Farmer {
        return Err(AppError::forbidden("farmers_only", "Only farmers have earnings"));
    }
    let farmer = auth.user.id;
    let (months, entries, pending) = state
        .db
        .read(move |conn| {
            let tx = conn.begin_read()?;
            Ok((
                earnings::by_month(&tx, farmer)?,
                earnings::entries_of(&tx, farmer, ENTRIES)?,
                earnings::pending(&tx, farmer)?,
            ))
        })
        .await?;
    Ok(Json(EarningsJson {
        success: true,
        currency: entries.first().map_or_else(|| "USD".to_owned(), |e| e.currency.clone()),
        earned_cents: months.iter().map(|(_, cents, _)| cents).sum(),
        pending_cents: pending,
        by_month: months
            .into_iter()
            .map(|(month, earned_cents, sales)| MonthJson { month, earned_cents, sales })
            .collect(),
        entries: entries
            .into_iter()
            .map(|e| EntryJson {
                order_id: e.order_id,
                part_id: e.part_id,
                kind: e.kind,
                amount_cents: e.amount_cents,
                at: e.at,
            })
            .collect(),
    }))
}
