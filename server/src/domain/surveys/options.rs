//! The allowed answers of the option questions (docs/applications.md).

const SEASONS: &[&str] = &["Season A", "Season B", "Both seasons"];

/// The allowed answers of the option questions: both readings of the older
/// clients (the customer form and the admin's survey creation), so either
/// client's values are kept as sent.
pub fn options(field: &str) -> Option<&'static [&'static str]> {
    Some(match field {
        "land_size" => &["Less than 1 hectare", "1-2 hectares", "2-5 hectares", "More than 5 hectares"],
        "work_type" => &["Alone", "With family", "With hired workers", "Cooperative"],
        "income_sources" => {
            &["Farming only", "Farming and other business", "Farming and employment", "Multiple sources"]
        }
        "seed_type" => &["Local/traditional", "Improved/hybrid", "Certified seeds", "Mixed", "Both"],
        "seed_source" => &[
            "Local market",
            "Agricultural stores",
            "Government programs",
            "NGOs",
            "Own saved seeds",
            "Agricultural store",
            "Government program",
            "NGO program",
        ],
        "fertilizers" => &[
            "Compost/manure",
            "Chemical fertilizers",
            "Organic fertilizers",
            "No fertilizers",
            "Mixed",
            "Both",
            "None",
        ],
        "field_preparation" => &["Hand tools (hoe)", "Animal traction", "Tractor", "Mixed methods", "Combination"],
        "planting_season" | "higher_season" => SEASONS,
        "average_yield" => &["Less than 1 ton", "1-2 tons", "2-5 tons", "More than 5 tons"],
        "selling_method" => &[
            "Sell at local market",
            "Direct to consumers",
            "Through cooperatives",
            "To processors",
            "Multiple channels",
            "Sell to traders",
            "Sell to cooperatives",
        ],
        _ => return None,
    })
}
