//! A mobile-money payment's words: where it stands, and the operators a buyer can pay with.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::user::Country;

/// initiating → pending → succeeded | failed | expired, never back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// The mobile-money operators of each country: the provider's name
/// (pawaPay's correspondent) and the brand people know, most used first.
pub fn operators(country: Country) -> &'static [(&'static str, &'static str)] {
    match country {
        Country::Drc => {
            &[("VODACOM_MPESA_COD", "Vodacom M-Pesa"), ("AIRTEL_COD", "Airtel Money"), ("ORANGE_COD", "Orange Money")]
        }
        Country::Ken => &[("MPESA_KEN", "M-Pesa")],
        Country::Rwa => &[("MTN_MOMO_RWA", "MTN MoMo"), ("AIRTEL_RWA", "Airtel Money")],
        Country::Uga => &[("MTN_MOMO_UGA", "MTN MoMo"), ("AIRTEL_OAPI_UGA", "Airtel Money")],
        Country::Tza => &[("VODACOM_TZA", "Vodacom M-Pesa"), ("AIRTEL_TZA", "Airtel Money"), ("TIGO_TZA", "Tigo Pesa")],
        Country::Bdi => &[("LUMICASH_BDI", "Lumicash"), ("ECOCASH_BDI", "EcoCash")],
    }
}

/// The brand people know for an operator's provider name ("MTN_MOMO_RWA" → "MTN MoMo"),
/// or the name itself when it is not one of ours.
pub fn operator_name(id: &str) -> &str {
    Country::ALL
        .iter()
        .flat_map(|&country| operators(country))
        .find(|(code, _)| *code == id)
        .map_or(id, |(_, name)| name)
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

    #[test]
    fn an_operator_is_named_as_people_know_it() {
        assert_eq!(operator_name("MTN_MOMO_RWA"), "MTN MoMo");
        assert_eq!(operator_name("VODACOM_MPESA_COD"), "Vodacom M-Pesa");
        assert_eq!(operator_name("SOMETHING_NEW"), "SOMETHING_NEW");
    }
}
