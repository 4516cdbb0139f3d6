//! `GET /admin/analytics/{chart}` and its CSV, `GET /admin/analytics/{chart}/export`
//! (admins); docs/analytics.md.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::csv_download;
use crate::auth::AdminUser;
use crate::domain::analytics::{self, Chart};
use crate::error::{ApiResult, ErrorBody};
use crate::labels::Lang;
use crate::model::decimal_amount;
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(chart)).routes(routes!(export))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ChartQuery {
    /// `30d` (by day), `90d` (by week), `12m` (by month, the default) or `all` (by month).
    period: Option<String>,
    /// The CSV's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl ChartQuery {
    fn period(&self) -> String {
        self.period.clone().unwrap_or_else(|| "12m".to_owned())
    }
}

#[derive(Serialize, ToSchema)]
struct ChartResponse {
    success: bool,
    data: Chart,
}

async fn read(state: &AppState, name: String, period: String) -> ApiResult<Chart> {
    state.db.read(move |conn| analytics::chart(conn, &name, &period)).await
}

/// One chart's numbers: `goals`, `signups`, `applications`, `listings`, `orders`,
/// `top_products`, `top_farmers` or `courses`.
#[utoipa::path(get, path = "/admin/analytics/{chart}", tag = "admin", security(("bearer" = [])),
    params(("chart" = String, Path, description = "goals, signups, applications, listings, orders, top_products, top_farmers or courses"), ChartQuery),
    responses((status = 200, body = ChartResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, description = "chart_not_found", body = ErrorBody),
        (status = 422, description = "invalid_filter: an unknown period", body = ErrorBody)))]
async fn chart(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(name): Path<String>,
    Query(query): Query<ChartQuery>,
) -> ApiResult<Json<ChartResponse>> {
    let data = read(&state, name, query.period()).await?;
    Ok(Json(ChartResponse { success: true, data }))
}

/// A number as the CSV writes it: dollars for cents, the figure otherwise.
fn cell(unit: &str, value: i64) -> String {
    if unit == "cents" { decimal_amount(value) } else { value.to_string() }
}

/// The label of a table row, in `lang`.
fn row_label(lang: Lang, rows_are: &str, key: &str, label: Option<&str>) -> String {
    match (rows_are, label) {
        (_, Some(label)) => label.to_owned(),
        ("country", _) if key == "none" => lang.text("analytics.keys.none"),
        ("country", _) => lang.text(&format!("countries.{key}")),
        ("category", _) => lang.text(&format!("market.category.{key}")),
        _ => lang.text(&format!("analytics.keys.{key}")),
    }
}

/// The chart's numbers as `analytics_{chart}_{date}.csv`: the time series (a row per
/// bucket), then the table, then the key figures, each part after an empty row.
#[utoipa::path(get, path = "/admin/analytics/{chart}/export", operation_id = "export_chart", tag = "admin", security(("bearer" = [])),
    params(("chart" = String, Path, description = "goals, signups, applications, listings, orders, top_products, top_farmers or courses"), ChartQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(name): Path<String>,
    Query(query): Query<ChartQuery>,
) -> ApiResult<impl IntoResponse> {
    let lang = super::export_lang(query.lang.as_deref())?;
    let chart = read(&state, name, query.period()).await?;
    let key = |key: &str| lang.text(&format!("analytics.keys.{key}"));
    let mut csv = Csv::new();
    if !chart.series.is_empty() {
        let head = std::iter::once(lang.text(&format!("analytics.grain.{}", chart.grain)));
        csv.row(head.chain(chart.series.iter().map(|s| key(&s.key))));
        for (i, bucket) in chart.buckets.iter().enumerate() {
            let values = chart.series.iter().map(|s| cell(s.unit, s.values[i]));
            csv.row(std::iter::once(bucket.clone()).chain(values));
        }
        csv.row([""]);
    }
    if let Some(table) = &chart.table {
        let head = std::iter::once(key(table.rows_are));
        csv.row(head.chain(table.columns.iter().map(|c| key(c.key))));
        for row in &table.rows {
            let label = row_label(lang, table.rows_are, &row.key, row.label.as_deref());
            let values = table.columns.iter().zip(&row.values).map(|(c, v)| cell(c.unit, *v));
            csv.row(std::iter::once(label).chain(values));
        }
        csv.row([""]);
    }
    csv.row([key("figure"), key("value"), key("target")]);
    for figure in &chart.figures {
        let value = match (figure.value, figure.unit) {
            (None, _) => lang.text("analytics.not_recorded"),
            (Some(v), "cents") => decimal_amount(v as i64),
            (Some(v), _) => v.to_string(),
        };
        csv.row([key(figure.key), value, figure.target.map(|t| t.to_string()).unwrap_or_default()]);
    }
    Ok(csv_download(&format!("analytics_{}", chart.chart), csv))
}
