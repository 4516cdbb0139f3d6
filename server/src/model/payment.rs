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

/// How the national numbers an operator gives out start (after the country code), where
/// the country's plan tells operators apart: the DRC, Rwanda and Uganda, where a number
/// stays with the operator that gave it. Elsewhere (numbers move between operators, or
/// the plan is not known here) nothing: the operator is asked, never guessed.
pub fn prefixes(id: &str) -> &'static [&'static str] {
    match id {
        "VODACOM_MPESA_COD" => &["81", "82", "83"],
        "AIRTEL_COD" => &["97", "98", "99"],
        "ORANGE_COD" => &["84", "85", "89"],
        "MTN_MOMO_RWA" => &["78", "79"],
        "AIRTEL_RWA" => &["72", "73"],
        "MTN_MOMO_UGA" => &["76", "77", "78"],
        "AIRTEL_OAPI_UGA" => &["70", "74", "75"],
        _ => &[],
    }
}

/// The operator a number (its national digits, without the country code or the trunk
/// 0) belongs to, when the country's plan says it; `None` when it cannot tell (another
/// operator's range, as Africell's 090 in the DRC, or a country where numbers move).
pub fn operator_of_number(country: Country, national: &str) -> Option<&'static str> {
    operators(country).iter().map(|(id, _)| *id).find(|id| prefixes(id).iter().any(|p| national.starts_with(p)))
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
    fn a_number_names_its_operator_where_the_plan_allows_and_nothing_elsewhere() {
        assert_eq!(operator_of_number(Country::Drc, "990000101"), Some("AIRTEL_COD"));
        assert_eq!(operator_of_number(Country::Drc, "812345678"), Some("VODACOM_MPESA_COD"));
        assert_eq!(operator_of_number(Country::Drc, "891234567"), Some("ORANGE_COD"));
        assert_eq!(operator_of_number(Country::Drc, "901234567"), None, "Africell's range: no wallet offered");
        assert_eq!(operator_of_number(Country::Rwa, "788123456"), Some("MTN_MOMO_RWA"));
        assert_eq!(operator_of_number(Country::Uga, "701234567"), Some("AIRTEL_OAPI_UGA"));
        assert_eq!(operator_of_number(Country::Ken, "712345678"), None, "Kenyan numbers move between operators");
        assert_eq!(operator_of_number(Country::Tza, "754123456"), None);
        // Every prefix names an operator of its own country only.
        for country in Country::ALL {
            for (id, _) in operators(*country) {
                for prefix in prefixes(id) {
                    assert_eq!(operator_of_number(*country, &format!("{prefix}1234567")), Some(*id));
                }
            }
        }
    }

    #[test]
    fn an_operator_is_named_as_people_know_it() {
        assert_eq!(operator_name("MTN_MOMO_RWA"), "MTN MoMo");
        assert_eq!(operator_name("VODACOM_MPESA_COD"), "Vodacom M-Pesa");
        assert_eq!(operator_name("SOMETHING_NEW"), "SOMETHING_NEW");
    }
}
