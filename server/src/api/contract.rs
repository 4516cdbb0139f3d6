//! The OpenAPI document as tools other than ours read it (issue 75): what
//! `openapi-spec-validator` checks (run on the published copy by `scripts/test`) holds by
//! construction here too, so a new route cannot break it unnoticed; one schema name per
//! type; and the published copy, `docs/openapi.json`, is the document the server serves.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Where integrators diff the document between versions.
const PUBLISHED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/openapi.json");

fn document() -> Value {
    super::document(super::router().1)
}

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            if ["get", "put", "post", "delete", "options", "head", "patch", "trace"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone(), operation));
            }
        }
    }
    out
}

#[test]
fn every_operation_has_its_own_id_and_declares_exactly_its_path_parameters() {
    let doc = document();
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (method, path, operation) in operations(&doc) {
        let id = operation["operationId"].as_str().unwrap_or_default().to_owned();
        ids.entry(id).or_default().push(format!("{method} {path}"));
        let in_template: BTreeSet<&str> =
            path.split('/').filter_map(|part| part.strip_prefix('{')?.strip_suffix('}')).collect();
        let parameters = operation["parameters"].as_array().cloned().unwrap_or_default();
        let declared: BTreeSet<String> = parameters
            .iter()
            .filter(|p| p["in"] == "path")
            .map(|p| p["name"].as_str().unwrap_or_default().to_owned())
            .collect();
        let declared: BTreeSet<&str> = declared.iter().map(String::as_str).collect();
        assert_eq!(in_template, declared, "{method} {path}: path parameters (a query's are `in: query`)");
        for p in &parameters {
            assert!(p["in"] != "path" || p["required"] == true, "{method} {path}: a path parameter is required");
        }
    }
    let shared: Vec<_> = ids.iter().filter(|(id, ops)| id.is_empty() || ops.len() > 1).collect();
    assert!(shared.is_empty(), "operationIds must be unique: {shared:?}");
}

#[test]
fn every_schema_named_in_the_document_is_in_it() {
    let doc = document();
    let text = doc.to_string();
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    let missing: BTreeSet<&str> = text
        .split("\"#/components/schemas/")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| !schemas.contains_key(*name))
        .collect();
    assert!(missing.is_empty(), "references to no schema: {missing:?}");
}

/// utoipa keeps one schema per name: two types of one name and the document describes
/// only one of them (`#[schema(as = …)]` names the other).
#[test]
fn no_two_types_share_a_schema_name() {
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for root in ["src", "../sync-protocol/src"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        for file in rust_files(&dir) {
            let text = std::fs::read_to_string(&file).expect("a source file");
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if !(line.trim_start().starts_with("#[derive(") && line.contains("ToSchema")) {
                    continue;
                }
                let mut alias = None;
                for next in lines.iter().skip(i).take(12) {
                    if let Some(rest) = next.trim().strip_prefix("#[schema(as = ") {
                        alias = rest.split([')', ',']).next().map(|a| a.rsplit("::").next().unwrap_or(a).to_owned());
                    }
                    let words: Vec<&str> = next.split_whitespace().collect();
                    if let Some(at) = words.iter().position(|w| *w == "struct" || *w == "enum") {
                        let name = words.get(at + 1).map(|n| n.trim_end_matches(['{', '(', ';', '<'])).unwrap_or("");
                        let shown = alias.clone().unwrap_or_else(|| name.split('<').next().unwrap_or(name).to_owned());
                        names.entry(shown).or_default().push(format!("{}:{}", file.display(), i + 1));
                        break;
                    }
                }
            }
        }
    }
    let clashes: Vec<_> = names.iter().filter(|(_, at)| at.len() > 1).collect();
    assert!(clashes.is_empty(), "schema names given to two types (name one with #[schema(as = …)]): {clashes:?}");
}

/// An email's shape is said once (`domain::person::EMAIL_PATTERN`): where a derive needs
/// it as a literal (the contact form), it is the same.
#[test]
fn every_email_pattern_is_the_one_the_server_checks() {
    fn email_patterns<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(pattern) = map.get("email").and_then(|e| e["pattern"].as_str()) {
                    out.push(pattern);
                }
                map.values().for_each(|v| email_patterns(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| email_patterns(v, out)),
            _ => {}
        }
    }
    let doc = document();
    let mut patterns = Vec::new();
    email_patterns(&doc, &mut patterns);
    // (Sign-in's email is only "not blank": an account is looked for whatever it is.)
    let shapes: Vec<&&str> = patterns.iter().filter(|p| p.contains('@')).collect();
    assert!(shapes.len() >= 2, "the contact form's and the forgotten password's: {patterns:?}");
    assert!(shapes.iter().all(|p| **p == crate::domain::person::EMAIL_PATTERN), "{shapes:?}");
}

/// A handler that reads a session (even an optional one) answers 401 to a token that is
/// not valid: its operation must say it takes the bearer token, or a client sending an
/// old token meets a status the document never listed. One for a role lists 403.
#[test]
fn every_handler_that_reads_a_session_says_so() {
    const SESSION: [&str; 4] = ["AuthUser", "MaybeAuthUser", "AdminUser", "AgentUser"];
    let (mut silent, mut unrefused) = (Vec::new(), Vec::new());
    for file in rust_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api")) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (at, _) in text.match_indices("#[utoipa::path(") {
            let rest = &text[at..];
            let Some(handler) = rest.find("async fn ").map(|f| &rest[f..]) else { continue };
            let attribute = &rest[..rest.len() - handler.len()];
            let signature = &handler[..handler.find(") ->").unwrap_or(handler.len())];
            let reads_session = signature.split(|c: char| !c.is_alphanumeric()).any(|word| SESSION.contains(&word));
            if reads_session && !attribute.contains("\"bearer\"") {
                silent.push(format!("{}: {}", file.display(), signature.lines().next().unwrap_or("")));
            }
            // A role's extractor answers 403 to everybody else.
            let needs_role = signature.contains("AdminUser") || signature.contains("AgentUser");
            if needs_role && !attribute.replace(' ', "").contains("status=403") {
                unrefused.push(format!("{}: {}", file.display(), signature.lines().next().unwrap_or("")));
            }
        }
    }
    assert!(silent.is_empty(), "handlers reading a session whose operation has no bearer security: {silent:#?}");
    assert!(unrefused.is_empty(), "handlers for one role whose operation does not list 403: {unrefused:#?}");
}

/// The methods docs/api.md's rows name.
const METHODS: [&str; 6] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];

/// docs/api.md's endpoint rows (`| GET, PUT `/path` | who | answer |`) name operations the
/// document has, and say who may call them as the document does: "anyone" needs no token,
/// another server sends none, a person sends one, and a row for roles alone (admin,
/// farmer, …) lists their 403.
#[test]
fn every_row_of_docs_api_md_agrees_with_the_document() {
    const ROLES: [&str; 5] = ["admin", "super_admin", "farmer", "farmers", "field_agent"];
    // Other servers, which prove who they are otherwise (a signature, a token in the path,
    // Prometheus' own bearer token).
    const MACHINES: [&str; 4] = ["the provider", "Africa's Talking", "a USSD gateway", "Prometheus"];
    let doc = document();
    let notes = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/api.md")).expect("docs/api.md");
    let (mut rows, mut wrong) = (0, Vec::new());
    for line in notes.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, route, who, ..] = cells[..] else { continue };
        if !METHODS.iter().any(|m| route.starts_with(&format!("{m} "))) {
            continue;
        }
        for (method, path) in routes_of(route, &doc) {
            rows += 1;
            let operation = &doc["paths"][&path][method.to_lowercase()];
            if !operation.is_object() {
                wrong.push(format!("{method} {path}: no such operation in the document"));
                continue;
            }
            let security = operation["security"].as_array().cloned().unwrap_or_default();
            let token_optional =
                security.is_empty() || security.iter().any(|s| s.as_object().is_some_and(|o| o.is_empty()));
            let bearer = security.iter().any(|s| s.get("bearer").is_some());
            let anyone = who.starts_with("anyone");
            let roles_only = who.split([',', ' ']).filter(|w| !w.is_empty()).all(|w| ROLES.contains(&w));
            if anyone && !token_optional {
                wrong.push(format!("{method} {path}: the row says anyone, the document needs a token"));
            }
            if MACHINES.contains(&who) && bearer {
                wrong.push(format!("{method} {path}: {who} calls it, the document asks for a person's token"));
            }
            if (who == "Prometheus") != security.iter().any(|s| s.get("metrics").is_some()) {
                wrong.push(format!("{method} {path}: Prometheus alone sends the metrics token"));
            }
            if !anyone && !MACHINES.contains(&who) && !bearer {
                wrong.push(format!("{method} {path}: the row says {who:?}, the document takes no token"));
            }
            if roles_only && operation["responses"].get("403").is_none() {
                wrong.push(format!("{method} {path}: the row is for {who:?}, the document lists no 403"));
            }
        }
    }
    assert!(rows > 80, "only {rows} rows read from docs/api.md");
    assert!(wrong.is_empty(), "docs/api.md and the document disagree:\n{}", wrong.join("\n"));
}

/// The operations a row's first cell names: methods, each followed by its paths in
/// backquotes (`PUT `/a/{id}/hide`, `/unhide``, `POST `/m`, PATCH and DELETE `/m/{id}``);
/// a path of one segment the document lacks is its neighbour's sibling (`/unhide`).
fn routes_of(route: &str, doc: &Value) -> Vec<(String, String)> {
    let (mut methods, mut last, mut out) = (Vec::new(), String::new(), Vec::new());
    for (at, part) in route.split('`').enumerate() {
        if at % 2 == 0 {
            let words: Vec<&str> =
                part.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| METHODS.contains(w)).collect();
            if !words.is_empty() {
                methods = words;
            }
            continue;
        }
        let mut path = part.split('?').next().unwrap_or_default().to_owned();
        if doc["paths"].get(&path).is_none() && path.matches('/').count() == 1 {
            if let Some((parent, _)) = last.rsplit_once('/') {
                path = format!("{parent}{path}");
            }
        }
        out.extend(methods.iter().map(|m| (m.to_string(), path.clone())));
        last = path;
    }
    out
}

fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// `docs/openapi.json` is the served document; `UPDATE_OPENAPI=1 cargo test -p mavuno --lib
/// contract` writes it again.
#[test]
fn the_published_document_is_the_served_one() {
    let served = serde_json::to_string_pretty(&document()).expect("the document") + "\n";
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(PUBLISHED, &served).expect("docs/openapi.json written");
    }
    let published = std::fs::read_to_string(PUBLISHED).unwrap_or_default();
    assert!(
        published == served,
        "docs/openapi.json is not the served document: run UPDATE_OPENAPI=1 cargo test -p mavuno --lib contract"
    );
}
