//! The refusals each operation answers, with their codes: those every operation of its kind
//! shares (`shared`: a session, a body, parameters, the database), and those of its own as
//! the code answered them (`refusals.txt`, one `method path status code` a line, written by
//! `node scripts/refusals.mjs --update` from what the API tests and schemathesis recorded:
//! `api::record_refusals`; a few by hand, for refusals no run reaches yet). Each refusal
//! lists its codes in `x-codes` and in its description;
//! `scripts/test` fails when the server answers one the document does not list.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

/// What the tests saw each operation refuse, beyond the shared refusals.
const RECORDED: &str = include_str!("refusals.txt");

/// A status's codes, in order.
type Codes = BTreeMap<&'static str, BTreeSet<&'static str>>;

/// The statuses an operation can answer before its handler runs: (status, codes, why).
fn shared(operation: &Value) -> Vec<(&'static str, &'static [&'static str], &'static str)> {
    let mut out: Vec<(&str, &[&str], &str)> = Vec::new();
    let signed = operation["security"].as_array().is_some_and(|all| all.iter().any(|s| s.get("bearer").is_some()));
    if signed {
        out.push((
            "401",
            &["missing_token", "invalid_token", "token_expired", "account_inactive"],
            "No valid session.",
        ));
    }
    let parameters = operation["parameters"].as_array().map_or(0, Vec::len);
    if operation.get("requestBody").is_some() {
        let codes: &[&str] = if operation.pointer("/requestBody/content/multipart~1form-data").is_some() {
            &["malformed_json", "invalid_body", "bad_request", "invalid_text", "malformed_multipart"]
        } else {
            &["malformed_json", "invalid_body", "bad_request", "invalid_text"]
        };
        out.push(("400", codes, "A body, path or query the server cannot read."));
        out.push(("413", &["request_too_large"], "A body over the route's limit."));
        out.push(("415", &["unsupported_media_type"], "A body of another content type."));
    } else if parameters > 0 {
        out.push(("400", &["bad_request", "invalid_query", "invalid_text"], "A path or query the server cannot read."));
    }
    let listed = operation["parameters"].as_array().into_iter().flatten().any(|p| {
        let schema = &p["schema"];
        let dated = |schema: &Value| schema.get("format").is_some_and(|f| f == "date" || f == "date-time");
        schema.get("enum").is_some() || dated(schema) || schema["anyOf"].as_array().is_some_and(|a| a.iter().any(dated))
    });
    if listed {
        out.push(("422", &["invalid_filter"], "A filter not on its list, or not a date."));
    }
    let busy = "The database is out of reach for a moment (Retry-After says when to try again).";
    out.push(("503", &["server_busy"], busy));
    out
}

/// The recorded refusals of each operation, by (method, path).
fn recorded() -> BTreeMap<(&'static str, &'static str), Codes> {
    let mut out: BTreeMap<_, Codes> = BTreeMap::new();
    for line in RECORDED.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(' ').collect();
        let [method, path, status, code] = fields[..] else {
            panic!("refusals.txt: `{line}` is not `method path status code`")
        };
        out.entry((method, path)).or_default().entry(status).or_default().insert(code);
    }
    out
}

/// Adds to every operation its refusals, shared and recorded, each with the error
/// envelope (unless it says otherwise) and its codes.
pub fn add(doc: &mut Value) {
    let recorded = recorded();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, operation) in item.iter_mut() {
            if !super::OPERATIONS.contains(&method.as_str()) {
                continue;
            }
            let mut why = BTreeMap::new();
            let mut codes = recorded.get(&(method.as_str(), path.as_str())).cloned().unwrap_or_default();
            for (status, shared_codes, description) in shared(operation) {
                codes.entry(status).or_default().extend(shared_codes);
                why.insert(status, description);
            }
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            for (status, codes) in codes {
                list(responses, status, &codes, why.get(status).copied().unwrap_or_default());
            }
        }
    }
}

/// The response for `status`, with `codes` in `x-codes` and said in its description.
fn list(responses: &mut Map<String, Value>, status: &str, codes: &BTreeSet<&str>, why: &str) {
    let response = responses.entry(status).or_insert_with(|| {
        json!({"description": why, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}})
    });
    let said: Vec<String> = codes.iter().map(|code| format!("`{code}`")).collect();
    let description = response["description"].as_str().unwrap_or_default().trim();
    let codes_said = format!("Codes: {}.", said.join(", "));
    response["description"] =
        json!(if description.is_empty() { codes_said } else { format!("{description}\n\n{codes_said}") });
    response["x-codes"] = json!(codes);
}

#[cfg(test)]
mod tests {
    /// The table is kept sorted and without repeats, so that `--update` diffs are small.
    #[test]
    fn the_recorded_table_is_sorted_and_names_documented_operations() {
        let lines: Vec<&str> = super::RECORDED.lines().filter(|l| !l.starts_with('#')).collect();
        let mut sorted = lines.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(lines, sorted, "refusals.txt: run `node scripts/refusals.mjs --update`");
        let doc = crate::api::document(crate::api::router().1);
        let mut shared = Vec::new();
        for ((method, path), codes) in super::recorded() {
            let operation = &doc["paths"][path][method];
            assert!(operation.is_object(), "refusals.txt: no {method} {path} in the document");
            for (status, shared_codes, _) in super::shared(operation) {
                let said = codes.get(status).into_iter().flatten().filter(|code| shared_codes.contains(code));
                shared.extend(said.map(|code| format!("{method} {path} {status} {code}")));
            }
        }
        assert!(shared.is_empty(), "refusals.txt: said of every such operation already:\n{}", shared.join("\n"));
    }
}
