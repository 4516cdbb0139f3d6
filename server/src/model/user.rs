//! Types for what a user is: role, status, country.

use serde::{Deserialize, Serialize};

use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Farmer,
    /// A buyer; the spec calls this role `user`.
    User,
    Admin,
    SuperAdmin,
    FieldAgent,
}
string_enum!(Role { Farmer => "farmer", User => "user", Admin => "admin", SuperAdmin => "super_admin", FieldAgent => "field_agent" });

impl Role {
    /// May call the `/admin` endpoints.
    pub fn is_admin(self) -> bool {
        matches!(self, Role::Admin | Role::SuperAdmin)
    }

    /// May fill farmer applications on other people's behalf.
    pub fn surveys_others(self) -> bool {
        matches!(self, Role::FieldAgent | Role::Admin | Role::SuperAdmin)
    }

    /// May have an application filled on their behalf (buyers and farmers).
    pub fn may_be_surveyed(self) -> bool {
        matches!(self, Role::User | Role::Farmer)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Inactive,
    Pending,
}
string_enum!(Status { Active => "active", Inactive => "inactive", Pending => "pending" });

/// The countries the platform serves (docs/product.md, Records), by the codes the client sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Country {
    #[serde(rename = "DRC")]
    Drc,
    #[serde(rename = "BDI")]
    Bdi,
    #[serde(rename = "RWA")]
    Rwa,
    #[serde(rename = "UGA")]
    Uga,
    #[serde(rename = "TZA")]
    Tza,
    #[serde(rename = "KEN")]
    Ken,
}
string_enum!(Country { Drc => "DRC", Bdi => "BDI", Rwa => "RWA", Uga => "UGA", Tza => "TZA", Ken => "KEN" });

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(*role));
            assert_eq!(serde_json::to_value(role).unwrap(), role.as_str());
        }
        for country in Country::ALL {
            assert_eq!(serde_json::to_value(country).unwrap(), country.as_str());
        }
        assert_eq!(Role::parse("root"), None);
        assert!(Role::SuperAdmin.is_admin() && Role::Admin.is_admin() && !Role::FieldAgent.is_admin());
    }
}
