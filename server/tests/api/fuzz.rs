//! A seeded, property-based run over every operation of the OpenAPI document
//! (docs/security.md, Fuzzing): requests built from each operation's
//! parameters and body schema, then bent (wrong types, extremes, hostile
//! strings, broken JSON, deep nesting), sent as a visitor, a buyer, a farmer
//! and an admin. The property: no answer is a 5xx, and the server still
//! answers afterwards. `MAVUNO_FUZZ_SEED` and `MAVUNO_FUZZ_CASES` vary the
//! run; a failure prints the seed and the request to replay it.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::helpers::*;

const STRINGS: &[&str] = &[
    "",
    " ",
    "a",
    "all",
    "0",
    "-1",
    "1e309",
    "true",
    "null",
    "Bukavu",
    "é😀日本",
    "\u{0}",
    "\u{1b}[2J",
    "\u{202e}evil",
    "../../etc/passwd",
    "%00",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "Robert'); DROP TABLE users;--",
    "%s%n%x",
    "00000000-0000-4000-8000-000000000001",
    "aaaaaaaa-0000-4000-8000-000000000001",
    "2026-11-23T08:00:00Z",
    "not-a-date",
    "VODACOM_MPESA_COD",
    "+243990000001",
    "DRC",
    "vegetables",
    "pending",
    "delivered",
];

fn text(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "x".repeat(rng.below(5000) + 200),
        1 => "maize ".repeat(rng.below(2000)),
        2 => "a".repeat(64),
        _ => (*rng.pick(STRINGS)).to_owned(),
    }
}

fn number(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(i64::MAX),
        3 => json!(i64::MIN),
        4 => json!(u64::MAX),
        5 => json!(1.5e300),
        6 => json!(-0.000_001),
        7 => json!(rng.below(1000)),
        _ => json!(1),
    }
}

/// Anything at all: the wrong type for wherever it goes.
fn anything(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 4 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => number(rng),
        3 => json!(text(rng)),
        4 => Value::Array((0..rng.below(4)).map(|_| anything(rng, depth + 1)).collect()),
        5 => {
            let mut map = Map::new();
            for _ in 0..rng.below(4) {
                map.insert(text(rng), anything(rng, depth + 1));
            }
            Value::Object(map)
        }
        _ => json!({"uid": text(rng), "id": number(rng)}),
    }
}

struct Doc(Value);

impl Doc {
    fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        match schema["$ref"].as_str() {
            Some(reference) => {
                let name = reference.rsplit('/').next().unwrap_or_default();
                &self.0["components"]["schemas"][name]
            }
            None => schema,
        }
    }

    /// A value shaped like `schema`, now and then bent out of shape.
    fn value(&self, rng: &mut Rng, schema: &Value, depth: usize) -> Value {
        if depth > 6 || rng.chance(8) {
            return anything(rng, depth);
        }
        let schema = self.resolve(schema);
        for combinator in ["oneOf", "anyOf", "allOf"] {
            if let Some(options) = schema[combinator].as_array().filter(|o| !o.is_empty()) {
                let option = &options[rng.below(options.len())];
                return self.value(rng, option, depth + 1);
            }
        }
        if let Some(options) = schema["enum"].as_array().filter(|o| !o.is_empty()) {
            return if rng.chance(80) { options[rng.below(options.len())].clone() } else { json!(text(rng)) };
        }
        let kind = match &schema["type"] {
            Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).find(|k| *k != "null").unwrap_or("null"),
            Value::String(kind) => kind.as_str(),
            _ if schema["properties"].is_object() => "object",
            _ => "any",
        };
        match kind {
            "object" => {
                let mut map = Map::new();
                if let Some(properties) = schema["properties"].as_object() {
                    let required: Vec<&str> =
                        schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                    for (name, property) in properties {
                        if required.contains(&name.as_str()) || rng.chance(70) {
                            map.insert(name.clone(), self.value(rng, property, depth + 1));
                        }
                    }
                }
                if rng.chance(10) {
                    map.insert(text(rng), anything(rng, depth + 1));
                }
                Value::Object(map)
            }
            "array" => {
                let items = &schema["items"];
                Value::Array((0..rng.below(4)).map(|_| self.value(rng, items, depth + 1)).collect())
            }
            "string" => json!(text(rng)),
            "integer" | "number" => number(rng),
            "boolean" => json!(rng.chance(50)),
            "null" => Value::Null,
            _ => anything(rng, depth),
        }
    }
}

/// A body no parser likes.
fn broken_body(rng: &mut Rng) -> Vec<u8> {
    match rng.below(4) {
        0 => b"{\"user\":".to_vec(),
        1 => "[".repeat(5000).into_bytes(),
        2 => vec![0xff, 0xfe, 0x00, 0x41],
        _ => format!("{{\"a\": \"{}\"}}", "\\u0000".repeat(100)).into_bytes(),
    }
}

fn path_value(rng: &mut Rng) -> String {
    let values = ["1", "0", "-1", "2", "9223372036854775807", "99999999999999999999", "abc", "%2e%2e%2f", "%00", "é"];
    match rng.below(8) {
        0 => "a".repeat(64),
        1 => "b".repeat(300),
        _ => (*rng.pick(&values)).to_owned(),
    }
}

fn query_value(rng: &mut Rng) -> String {
    let text = text(rng);
    let mut encoded = String::new();
    for byte in text.bytes().take(3000) {
        if byte.is_ascii_alphanumeric() {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[tokio::test]
async fn no_request_built_from_the_document_makes_the_server_fail() {
    let seed = std::env::var("MAVUNO_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_123_u64);
    let cases = std::env::var("MAVUNO_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(24_usize);
    let app = spawn_with(|config| {
        config.signup_max = usize::MAX;
        config.login_spacing = std::time::Duration::ZERO;
    })
    .await;
    let tokens = [
        None,
        Some(app.user_with_role("buyer@example.com", Role::User).await),
        Some(app.user_with_role("farmer@example.com", Role::Farmer).await),
        Some(app.user_with_role("admin@example.com", Role::SuperAdmin).await),
    ];
    let doc = Doc(app.get("/openapi.json", None).await.json().await.unwrap());
    let mut rng = Rng(seed | 1);
    let mut failures = Vec::new();
    let mut sent = 0;
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let paths = doc.0["paths"].as_object().unwrap().clone();
    for (template, operations) in &paths {
        for (method, operation) in operations.as_object().unwrap() {
            for case in 0..cases {
                let mut path = template.clone();
                while let (Some(start), Some(end)) = (path.find('{'), path.find('}')) {
                    path.replace_range(start..=end, &path_value(&mut rng));
                }
                let mut query = Vec::new();
                for parameter in operation["parameters"].as_array().into_iter().flatten() {
                    if parameter["in"] == "query" && rng.chance(60) {
                        let name = parameter["name"].as_str().unwrap_or_default();
                        query.push(format!("{name}={}", query_value(&mut rng)));
                    }
                }
                let url =
                    if query.is_empty() { app.api(&path) } else { format!("{}?{}", app.api(&path), query.join("&")) };
                let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                let mut request = app.client.request(method.clone(), &url);
                // Signing out or erasing would end the run's own sessions: those go without one.
                let sessionless = template == "/auth/logout" || template == "/me/delete";
                if let Some(token) = tokens[case % tokens.len()].as_ref().filter(|_| !sessionless) {
                    request = request.bearer_auth(token);
                }
                let body_schema = &operation["requestBody"]["content"]["application/json"]["schema"];
                let description = if !matches!(method, Method::GET | Method::HEAD | Method::DELETE) {
                    if rng.chance(15) {
                        let bytes = broken_body(&mut rng);
                        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned();
                        request = request.header("content-type", "application/json").body(bytes);
                        shown
                    } else {
                        let body = doc.value(&mut rng, body_schema, 0);
                        let shown = body.to_string().chars().take(300).collect();
                        request = request.json(&body);
                        shown
                    }
                } else {
                    String::new()
                };
                let response = request.send().await;
                sent += 1;
                if let Ok(response) = &response {
                    *statuses.entry(response.status().as_u16()).or_default() += 1;
                }
                match response {
                    Ok(response) if response.status().is_server_error() => {
                        failures.push(format!("{} {method} {url} {description}", response.status()));
                    }
                    Ok(_) => {}
                    Err(err) => failures.push(format!("no answer: {method} {url} {description}: {err}")),
                }
            }
        }
    }
    assert_eq!(app.get("/health", None).await.status(), StatusCode::OK);
    // The run reached the handlers, not only the doors: some calls succeeded, some were judged on their content.
    for status in [200, 400, 401, 403, 404, 422] {
        assert!(statuses.contains_key(&status), "no {status} among {statuses:?}");
    }
    assert!(
        failures.is_empty(),
        "seed {seed}: {} of {sent} requests failed the server:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
