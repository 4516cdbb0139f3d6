//! Cooperatives' plain types (docs/cooperatives.md): a member's place in one, the
//! grades and the units of the weigh book.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CooperativeStatus)]
pub enum Status {
    Active,
    /// By an admin: nothing is weighed in or sold; its book and money stay.
    Suspended,
}
string_enum!(Status { Active => "active", Suspended => "suspended" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemberRole {
    Member,
    /// Records deliveries, accepts members, makes lots.
    Manager,
}
string_enum!(MemberRole { Member => "member", Manager => "manager" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemberStatus {
    /// Asked to join; a manager has not answered.
    Asked,
    Active,
    /// No longer a member: keeps their history and what they are owed.
    Removed,
}
string_enum!(MemberStatus { Asked => "asked", Active => "active", Removed => "removed" });

/// A delivery's quality grade, as the collection point sorts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
pub enum Grade {
    A,
    B,
    C,
}
string_enum!(Grade { A => "A", B => "B", C => "C" });

/// What a collection point weighs in: kilograms on the scale, or full bags of a known weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum WeighUnit {
    #[serde(rename = "kg")]
    Kg,
    #[serde(rename = "bag_50kg")]
    Bag50kg,
    #[serde(rename = "bag_100kg")]
    Bag100kg,
}
string_enum!(WeighUnit { Kg => "kg", Bag50kg => "bag_50kg", Bag100kg => "bag_100kg" });

impl WeighUnit {
    pub fn grams(self) -> i64 {
        match self {
            WeighUnit::Kg => 1_000,
            WeighUnit::Bag50kg => 50_000,
            WeighUnit::Bag100kg => 100_000,
        }
    }
}

/// The days of the week, as the API and the database write them, in the week's order.
pub const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
/// Monday to Saturday: the days a lot is collected on when its manager does not say.
pub const STORE_DAYS: &str = "mon tue wed thu fri sat";

/// Days as sent (any order, repeated) in the week's order, joined by spaces as stored;
/// `None` when one is not a day or none is given.
pub fn week_days(days: &[String]) -> Option<String> {
    if days.iter().any(|d| !WEEKDAYS.contains(&d.as_str())) {
        return None;
    }
    let chosen: Vec<&str> = WEEKDAYS.into_iter().filter(|w| days.iter().any(|d| d == w)).collect();
    (!chosen.is_empty()).then(|| chosen.join(" "))
}

/// Stored days (`"tue thu sat"`) as the API lists them.
pub fn day_list(stored: &str) -> Vec<String> {
    stored.split(' ').map(str::to_owned).collect()
}

/// Grams as kilograms with at most one decimal, as a receipt and the book say them: "48.5".
pub fn kilograms(grams: i64) -> String {
    let tenths = (grams + 50) / 100;
    if tenths % 10 == 0 { format!("{}", tenths / 10) } else { format!("{}.{}", tenths / 10, tenths % 10) }
}

/// A cooperative's lot as the marketplace shows it.
#[derive(Debug, Clone)]
pub struct LotCard {
    pub id: i64,
    pub cooperative_id: i64,
    pub cooperative_name: String,
    pub crop: String,
    pub grade: Grade,
    /// How many members put into it.
    pub members: i64,
    pub collected_from: String,
    pub collected_to: String,
    pub pickup: String,
    /// The days it is collected on (`WEEKDAYS`), space-separated.
    pub pickup_days: String,
}
