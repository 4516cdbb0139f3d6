//! What a farmer sends about a product.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::Loose;

/// Any subset of a listing's fields (absent ones keep their value). Prices
/// are USD with at most two decimals, as numbers or text.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(default)]
pub struct ListingInput {
    #[ts(optional)]
    pub title: Option<String>,
    /// The name in English, French or Kiswahili, when the farmer gives it (blank clears it).
    #[ts(optional)]
    pub title_en: Option<String>,
    #[ts(optional)]
    pub title_fr: Option<String>,
    #[ts(optional)]
    pub title_sw: Option<String>,
    #[ts(optional)]
    pub description: Option<String>,
    /// The description in English, French or Kiswahili, when the farmer gives it (blank clears it).
    #[ts(optional)]
    pub description_en: Option<String>,
    #[ts(optional)]
    pub description_fr: Option<String>,
    #[ts(optional)]
    pub description_sw: Option<String>,
    #[ts(optional)]
    pub category: Option<String>,
    #[ts(optional)]
    pub unit: Option<String>,
    #[ts(optional)]
    #[schema(value_type = Option<i64>)]
    pub quantity: Option<Loose>,
    #[ts(optional)]
    #[schema(value_type = Option<f64>)]
    pub price: Option<Loose>,
    #[ts(optional)]
    #[schema(value_type = Option<f64>)]
    pub current_price: Option<Loose>,
    #[ts(optional)]
    pub status: Option<String>,
    #[ts(optional)]
    pub harvest_date: Option<String>,
    #[ts(optional)]
    pub expiry_date: Option<String>,
    #[ts(optional)]
    pub certifications: Option<Vec<String>>,
    #[ts(optional)]
    pub tags: Option<Vec<String>>,
    #[ts(optional)]
    #[schema(value_type = Option<bool>)]
    pub shipping_available: Option<Loose>,
    #[ts(optional)]
    #[schema(value_type = Option<f64>)]
    pub shipping_cost: Option<Loose>,
    #[ts(optional)]
    pub shipping_days: Option<String>,
    #[ts(optional)]
    #[schema(value_type = Option<f64>)]
    pub min_order: Option<Loose>,
    #[ts(optional)]
    #[schema(value_type = Option<f64>)]
    pub max_order: Option<Loose>,
    /// Hashes of photos already sent to `PUT /uploads/{sha256}`.
    #[ts(optional)]
    pub images: Option<Vec<String>>,
}

impl ListingInput {
    /// The fields this input sets, by name.
    pub fn given_fields(&self) -> Vec<String> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => {
                map.into_iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k).collect()
            }
            _ => Vec::new(),
        }
    }
}
