//! The records phones read by sync, written out in TypeScript for the PWA
//! (`pwa/src/lib/sync/records.ts`) from the structs the server sends, so that a field is
//! added once: a test fails while the file is stale (as `sync-protocol`'s mutations).

use ts_rs::{Config, TS};

use super::{FavouriteJson, NotificationJson};
use crate::api::blogs::BlogJson;
use crate::api::courses::{CertificateJson, CourseJson, EnrolmentJson, InstructorJson, LessonOutlineJson, ModuleJson};
use crate::api::exchange_rates::RateJson;
use crate::api::orders::{AddressJson, EventJson, FarmerJson as OrderFarmer, LineJson, OrderJson, PartJson};
use crate::api::products::{
    FarmerJson as ProductFarmer, HiddenJson, ImageJson, LotJson as ProductLot, ProductJson, ShippingJson,
};
use crate::api::surveys::{PersonJson, SurveyJson};
use crate::domain::products::CERTIFICATIONS;
use crate::model::blog::BlogCategory;
use crate::model::course::{CourseCategory, CourseLanguage, EnrolmentStatus, LessonKind, Level, Progress, QuizResult};
use crate::model::order::{Delivery, PartStatus, PaymentMethod};
use crate::model::payment::PaymentStatus;
use crate::model::product::{Category, ProductStatus, Unit};
use crate::model::survey::SurveyStatus;

const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../pwa/src/lib/sync/records.ts");

fn typescript() -> String {
    // Ids, cents and counts are far below 2^53: numbers, not bigints.
    let cfg = Config::default().with_large_int("number");
    let declarations = [
        ProductJson::decl(&cfg),
        ImageJson::decl(&cfg),
        ShippingJson::decl(&cfg),
        ProductFarmer::decl(&cfg),
        HiddenJson::decl(&cfg),
        ProductLot::decl(&cfg),
        Category::decl(&cfg),
        Unit::decl(&cfg),
        ProductStatus::decl(&cfg),
        FavouriteJson::decl(&cfg),
        OrderJson::decl(&cfg),
        AddressJson::decl(&cfg),
        PartJson::decl(&cfg),
        OrderFarmer::decl(&cfg),
        LineJson::decl(&cfg),
        EventJson::decl(&cfg),
        PartStatus::decl(&cfg),
        PaymentMethod::decl(&cfg),
        Delivery::decl(&cfg),
        PaymentStatus::decl(&cfg),
        CourseJson::decl(&cfg),
        InstructorJson::decl(&cfg),
        ModuleJson::decl(&cfg),
        LessonOutlineJson::decl(&cfg),
        CourseCategory::decl(&cfg),
        Level::decl(&cfg),
        CourseLanguage::decl(&cfg),
        LessonKind::decl(&cfg),
        EnrolmentJson::decl(&cfg),
        EnrolmentStatus::decl(&cfg),
        Progress::decl(&cfg),
        QuizResult::decl(&cfg),
        CertificateJson::decl(&cfg),
        BlogJson::decl(&cfg),
        BlogCategory::decl(&cfg),
        RateJson::decl(&cfg),
        SurveyJson::decl(&cfg),
        PersonJson::decl(&cfg),
        SurveyStatus::decl(&cfg),
        NotificationJson::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the server's records (server/src/api/sync/records.rs) by its tests; do not edit.\n\
         // Regenerate: UPDATE_TS_BINDINGS=1 cargo test -p mavuno --lib records\n",
    );
    let certifications = serde_json::to_string(&CERTIFICATIONS).unwrap();
    out.push_str(&format!(
        "\n/** The certifications a listing may carry. */\n\
         export const CERTIFICATIONS = {certifications} as const;\n\
         export type Certification = (typeof CERTIFICATIONS)[number];\n"
    ));
    // The words of the lists the app offers in its filters and forms, in the server's order.
    let lists = [
        ("CATEGORIES", words(Category::ALL, |c| c.as_str())),
        ("PART_STATUSES", words(PartStatus::ALL, |s| s.as_str())),
        ("COURSE_CATEGORIES", words(CourseCategory::ALL, |c| c.as_str())),
        ("LEVELS", words(Level::ALL, |l| l.as_str())),
        ("BLOG_CATEGORIES", words(BlogCategory::ALL, |c| c.as_str())),
    ];
    for (name, list) in lists {
        out.push_str(&format!("\nexport const {name} = {list} as const;\n"));
    }
    for declaration in declarations {
        out.push_str(&format!("\nexport {declaration}\n"));
    }
    out
}

fn words<T: Copy>(all: &[T], word: impl Fn(T) -> &'static str) -> String {
    serde_json::to_string(&all.iter().map(|&t| word(t)).collect::<Vec<_>>()).unwrap()
}

#[test]
fn the_pwa_records_are_up_to_date() {
    let expected = typescript();
    if std::env::var_os("UPDATE_TS_BINDINGS").is_some() {
        std::fs::write(BINDINGS, &expected).unwrap();
    }
    let committed = std::fs::read_to_string(BINDINGS).unwrap_or_default();
    assert!(
        committed == expected,
        "pwa/src/lib/sync/records.ts is stale; run UPDATE_TS_BINDINGS=1 cargo test -p mavuno --lib records"
    );
}

/// Each record is also a REST answer (and the sync protocol's answers are documented): its
/// TypeScript for the app and its schema in the API document have the same fields (issue
/// 75), so the app, the document and the server cannot drift apart.
#[test]
fn each_record_has_the_fields_the_document_gives_it() {
    let cfg = Config::default().with_large_int("number");
    macro_rules! both {
        ($($record:ty),* $(,)?) => {
            [$((<$record as TS>::decl(&cfg), serde_json::to_value(<$record as utoipa::PartialSchema>::schema()).unwrap())),*]
        };
    }
    let records = both![
        ProductJson,
        ImageJson,
        ShippingJson,
        ProductFarmer,
        HiddenJson,
        ProductLot,
        OrderJson,
        AddressJson,
        PartJson,
        OrderFarmer,
        LineJson,
        EventJson,
        CourseJson,
        InstructorJson,
        ModuleJson,
        LessonOutlineJson,
        EnrolmentJson,
        Progress,
        QuizResult,
        CertificateJson,
        BlogJson,
        RateJson,
        SurveyJson,
        PersonJson,
        // The sync protocol's answers (pwa/src/lib/sync/protocol.ts).
        sync_protocol::PushResponse,
        sync_protocol::MutationResult,
        sync_protocol::PullResponse,
        sync_protocol::Change,
    ];
    let mut compared = 0;
    for (declaration, schema) in records {
        let (name, fields) = ts_objects(&format!("export {declaration}")).remove(0);
        let Some(properties) = schema["properties"].as_object() else { continue };
        let documented: std::collections::BTreeSet<&str> = properties.keys().map(String::as_str).collect();
        let typed: std::collections::BTreeSet<&str> = fields.iter().map(String::as_str).collect();
        assert_eq!(typed, documented, "{name}: the app's fields and the document's differ");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} records compared");
}

/// `export type Name = { field: …, other?: … };` declarations of a TypeScript file: each
/// plain object type's name and field names (an intersection, `{…} & Other`, is left out).
fn ts_objects(source: &str) -> Vec<(String, Vec<String>)> {
    let mut text = String::new();
    let mut rest = source;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = rest[start..].find("*/").map_or("", |end| &rest[start + end + 2..]);
    }
    text.push_str(rest);
    let mut out = Vec::new();
    for declaration in text.split("export type ").skip(1) {
        let Some((name, body)) = declaration.split_once(" = {") else { continue };
        let (mut depth, mut field, mut fields, mut end) = (1, String::new(), Vec::new(), None);
        for (at, c) in body.char_indices() {
            match c {
                '{' | '(' | '[' | '<' => depth += 1,
                '}' | ')' | ']' | '>' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = Some(at);
                break;
            }
            if depth == 1 && c == ',' {
                fields.push(std::mem::take(&mut field));
            } else {
                field.push(c);
            }
        }
        let Some(end) = end else { continue };
        if body[end + 1..].trim_start().starts_with('&') {
            continue;
        }
        fields.push(field);
        let names = fields
            .iter()
            .filter_map(|f| f.split_once(':').map(|(n, _)| n.trim().trim_end_matches('?').trim_matches('"').to_owned()))
            .filter(|n| !n.is_empty())
            .collect();
        out.push((name.trim().to_owned(), names));
    }
    out
}
