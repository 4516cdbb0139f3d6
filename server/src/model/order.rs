//! An order's words: how it is paid, how it travels, where each farmer's part stands.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    /// Started by a tap on "Pay now" while online (docs/decisions.md: no card form).
    MobileMoney,
    CashOnDelivery,
}
string_enum!(PaymentMethod { MobileMoney => "mobile_money", CashOnDelivery => "cash_on_delivery" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Sent to the buyer; each farmer's part costs that farmer's shipping.
    Delivery,
    /// Collected at the farmer's place; no shipping.
    Pickup,
}
string_enum!(Delivery { Delivery => "delivery", Pickup => "pickup" });

/// Where one farmer's part of an order stands: processing → shipped →
/// delivered, or cancelled (by the buyer while processing, or by the farmer
/// with a reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PartStatus {
    Processing,
    Shipped,
    Delivered,
    Cancelled,
}
string_enum!(PartStatus {
    Processing => "processing",
    Shipped => "shipped",
    Delivered => "delivered",
    Cancelled => "cancelled",
});

impl PartStatus {
    /// The order's status as the buyer sees it, from its parts: the least
    /// advanced part that is not cancelled; cancelled only when all are.
    pub fn of_order(parts: impl IntoIterator<Item = PartStatus>) -> PartStatus {
        parts
            .into_iter()
            .filter(|s| *s != PartStatus::Cancelled)
            .min_by_key(|s| match s {
                PartStatus::Processing => 0,
                PartStatus::Shipped => 1,
                PartStatus::Delivered => 2,
                PartStatus::Cancelled => 3,
            })
            .unwrap_or(PartStatus::Cancelled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PartStatus::*;

    #[test]
    fn an_order_is_as_far_as_its_slowest_live_part() {
        assert_eq!(PartStatus::of_order([Shipped, Delivered]), Shipped);
        assert_eq!(PartStatus::of_order([Cancelled, Delivered]), Delivered);
        assert_eq!(PartStatus::of_order([Cancelled, Cancelled]), Cancelled);
        assert_eq!(PartStatus::of_order([Processing, Cancelled, Delivered]), Processing);
    }
}
