//! A product's listing: what a farmer says about it, as stored and sent.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Vegetables,
    Fruits,
    Grains,
    Dairy,
    Beverages,
    /// Shown as "Herbs & Spices".
    Herbs,
}
string_enum!(Category {
    Vegetables => "vegetables",
    Fruits => "fruits",
    Grains => "grains",
    Dairy => "dairy",
    Beverages => "beverages",
    Herbs => "herbs",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Kg,
    Piece,
}
string_enum!(Unit { Kg => "kg", Piece => "piece" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ProductStatus {
    Active,
    Inactive,
}
string_enum!(ProductStatus { Active => "active", Inactive => "inactive" });

/// What a farmer says about a product. Money is in US cents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    pub title: String,
    /// The name in the platform's languages, when the farmer gives it.
    pub title_en: Option<String>,
    pub title_fr: Option<String>,
    pub title_sw: Option<String>,
    pub description: String,
    /// The description in the platform's languages, when the farmer gives it.
    pub description_en: Option<String>,
    pub description_fr: Option<String>,
    pub description_sw: Option<String>,
    pub category: Category,
    pub unit: Unit,
    pub quantity: i64,
    pub price: i64,
    pub current_price: i64,
    pub status: ProductStatus,
    pub harvest_date: Option<String>,
    pub expiry_date: Option<String>,
    pub certifications: Vec<String>,
    pub tags: Vec<String>,
    pub shipping_available: bool,
    pub shipping_cost: i64,
    pub shipping_days: Option<String>,
    pub min_order: f64,
    pub max_order: Option<f64>,
    /// Photo hashes in the media store, the first one shown first.
    pub images: Vec<String>,
}

impl Listing {
    /// Every name it has, in one text (a crop is found in any of them: `Crop::names`).
    pub fn all_names(&self) -> String {
        let names = [&self.title_en, &self.title_fr, &self.title_sw];
        std::iter::once(self.title.as_str())
            .chain(names.into_iter().flatten().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Its name in the language `code` (`en`, `fr`, `sw`), if its farmer gave one; else its title.
    pub fn title_in(&self, code: &str) -> &str {
        title_in(&self.title, [&self.title_en, &self.title_fr, &self.title_sw], code)
    }

    /// Its description in the language `code`, if its farmer gave one; else its description.
    pub fn description_in(&self, code: &str) -> &str {
        title_in(&self.description, [&self.description_en, &self.description_fr, &self.description_sw], code)
    }

    /// Every description it has, in one text (searched).
    pub fn all_descriptions(&self) -> String {
        let others = [&self.description_en, &self.description_fr, &self.description_sw];
        std::iter::once(self.description.as_str())
            .chain(others.into_iter().flatten().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A product's name (or description) in the language `code`, from its texts in English,
/// French and Kiswahili when it has one there; else `title`.
pub fn title_in<'a>(title: &'a str, [en, fr, sw]: [&'a Option<String>; 3], code: &str) -> &'a str {
    let named = match code {
        "fr" => fr,
        "sw" => sw,
        _ => en,
    };
    named.as_deref().filter(|t| !t.is_empty()).unwrap_or(title)
}

impl Default for Listing {
    fn default() -> Self {
        Listing {
            title: String::new(),
            title_en: None,
            title_fr: None,
            title_sw: None,
            description: String::new(),
            description_en: None,
            description_fr: None,
            description_sw: None,
            category: Category::Vegetables,
            unit: Unit::Kg,
            quantity: 0,
            price: 0,
            current_price: 0,
            status: ProductStatus::Active,
            harvest_date: None,
            expiry_date: None,
            certifications: Vec::new(),
            tags: Vec::new(),
            shipping_available: true,
            shipping_cost: 500,
            shipping_days: None,
            min_order: 1.0,
            max_order: None,
            images: Vec::new(),
        }
    }
}

/// Lower case without accents, so "cafe" finds "Café" and "eleve" finds "Élevé".
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_text_folds_case_and_accents() {
        assert_eq!(fold("Café Élevé Ñame"), "cafe eleve name");
    }
}
