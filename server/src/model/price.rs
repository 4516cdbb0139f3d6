//! Market prices' plain types (docs/prices.md): where an observation comes from,
//! the units prices are quoted in and how they convert to a crop's base unit.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A delivered order line of the platform.
    Sale,
    /// A field agent at a market.
    Agent,
    /// A row of an imported price series (WFP VAM).
    Import,
}
string_enum!(Source { Sale => "sale", Agent => "agent", Import => "import" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Currency {
    #[serde(rename = "USD")]
    Usd,
    #[serde(rename = "CDF")]
    Cdf,
}
string_enum!(Currency { Usd => "USD", Cdf => "CDF" });

/// The units prices are quoted in at South Kivu's markets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PriceUnit {
    Kg,
    /// A bag of 50 kg.
    #[serde(rename = "bag_50kg")]
    Bag50kg,
    /// A bag of 100 kg.
    #[serde(rename = "bag_100kg")]
    Bag100kg,
    /// A basin (bassin, beseni): its weight depends on the crop.
    Basin,
    Bunch,
    Piece,
}
string_enum!(PriceUnit {
    Kg => "kg",
    Bag50kg => "bag_50kg",
    Bag100kg => "bag_100kg",
    Basin => "basin",
    Bunch => "bunch",
    Piece => "piece",
});

/// Kilograms in a basin of each crop sold by the basin (as traders in Bukavu
/// fill them); a crop not listed has no basin conversion, so its basin prices
/// keep a median of their own.
const BASIN_KG: &[(&str, i64)] =
    &[("maize", 20), ("bean", 25), ("cassava", 15), ("rice", 25), ("sorghum", 20), ("groundnut", 20), ("soybean", 25)];

/// How many of the crop's `base` unit one `unit` holds, when it converts:
/// weights to kilograms, anything to itself.
pub fn base_quantity(crop: &str, base: PriceUnit, unit: PriceUnit) -> Option<i64> {
    if unit == base {
        return Some(1);
    }
    if base != PriceUnit::Kg {
        return None;
    }
    match unit {
        PriceUnit::Bag50kg => Some(50),
        PriceUnit::Bag100kg => Some(100),
        PriceUnit::Basin => BASIN_KG.iter().find(|(c, _)| *c == crop).map(|(_, kg)| *kg),
        _ => None,
    }
}

/// The Monday of the week of `day` (ISO weeks), as YYYY-MM-DD.
pub fn week_of(day: time::Date) -> time::Date {
    day - time::Duration::days(i64::from(day.weekday().number_days_from_monday()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_convert_to_kilograms_and_other_units_only_to_themselves() {
        assert_eq!(base_quantity("bean", PriceUnit::Kg, PriceUnit::Bag50kg), Some(50));
        assert_eq!(base_quantity("bean", PriceUnit::Kg, PriceUnit::Basin), Some(25));
        assert_eq!(base_quantity("tomato", PriceUnit::Kg, PriceUnit::Basin), None);
        assert_eq!(base_quantity("banana", PriceUnit::Piece, PriceUnit::Bunch), None);
        assert_eq!(base_quantity("banana", PriceUnit::Piece, PriceUnit::Piece), Some(1));
        assert_eq!(base_quantity("bean", PriceUnit::Kg, PriceUnit::Piece), None);
    }

    #[test]
    fn a_week_starts_on_monday() {
        let day = time::macros::date!(2026 - 11 - 26);
        assert_eq!(week_of(day), time::macros::date!(2026 - 11 - 23));
        assert_eq!(week_of(time::macros::date!(2026 - 11 - 23)), time::macros::date!(2026 - 11 - 23));
        assert_eq!(week_of(time::macros::date!(2026 - 11 - 29)), time::macros::date!(2026 - 11 - 23));
    }
}
