//! A mobile-money payment's words: where it stands, and the operators a buyer can pay with.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::user::Country;

/// initiating → pending → succeeded | failed | expired, never back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentStatus {
    /// Written, the provider not yet asked (or its answer not yet known).
    Initiating,
    /// The provider took it; the payer's phone shows the prompt.
    Pending,
    Succeeded,
    Failed,
    /// Nobody answered in time.
    Expired,
}
string_enum!(PaymentStatus {
    Initiating => "initiating",
    Pending => "pending",
    Succeeded => "succeeded",
    Failed => "failed",
    Expired => "expired",
});

impl PaymentStatus {
    pub fn is_final(self) -> bool {
        matches!(self, PaymentStatus::Succeeded | PaymentStatus::Failed | PaymentStatus::Expired)
    }

    /// Statuses only move forward; a final one stays.
    pub fn may_become(self, next: PaymentStatus) -> bool {
        match self {
            PaymentStatus::Initiating => next != PaymentStatus::Initiating,
            PaymentStatus::Pending => next.is_final(),
            _ => false,
        }
    }
}

/// The mobile-money operators of each country, by the provider's names
/// (pawaPay's correspondents), the first being the most used.
pub fn operators(country: Country) -> &'static [&'static str] {
    match country {
        Country::Drc => &["VODACOM_MPESA_COD", "AIRTEL_COD", "ORANGE_COD"],
        Country::Ken => &["MPESA_KEN"],
        Country::Rwa => &["MTN_MOMO_RWA", "AIRTEL_RWA"],
        Country::Uga => &["MTN_MOMO_UGA", "AIRTEL_OAPI_UGA"],
        Country::Tza => &["VODACOM_TZA", "AIRTEL_TZA", "TIGO_TZA"],
        Country::Bdi => &["LUMICASH_BDI", "ECOCASH_BDI"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentStatus::*;

    #[test]
    fn a_payment_only_moves_forward() {
        assert!(Initiating.may_become(Pending) && Initiating.may_become(Failed));
        assert!(Pending.may_become(Succeeded) && Pending.may_become(Expired));
        assert!(!Pending.may_become(Initiating) && !Succeeded.may_become(Failed) && !Failed.may_become(Succeeded));
        assert!(!Expired.may_become(Succeeded));
    }
}
