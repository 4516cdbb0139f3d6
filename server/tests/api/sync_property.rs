//! Random interleavings of offline edits (short answers and a long text),
//! pushes (with lost answers), pulls, pruned results, removed tombstones and a
//! restore from a backup, by several devices, end with every device holding
//! the same applications as the server, and no sentence written to the long
//! text lost unless a device that saw it replaced it. Seeded, so a failure can
//! be replayed. The devices behave as the app does (docs/sync.md): an answered
//! change is kept until a pull covers it; a `mutation_gap` or
//! `snapshot_required` leads to a new snapshot and the unconfirmed changes
//! numbered on from the server's sequence.

use std::collections::{BTreeMap, BTreeSet};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{mutation, uid};

const FIELDS: [(&str, &[&str]); 4] = [
    ("land_size", &["Less than 1 hectare", "1-2 hectares", "2-5 hectares"]),
    ("work_type", &["Alone", "With family", "Cooperative"]),
    ("seed_type", &["Local/traditional", "Mixed", "Improved/hybrid"]),
    ("cooperative_name", &["Umoja", "Tuungane", "Amani"]),
];
/// A long text: edits of different sentences merge (docs/sync.md, Text that merges).
const TEXT: &str = "additional_comments";

/// What a device holds of one application: the compared fields and the version it saw.
#[derive(Debug, Clone, PartialEq)]
struct Local {
    fields: BTreeMap<String, Value>,
    version: Option<i64>,
}

fn fields_of(record: &Value) -> BTreeMap<String, Value> {
    let mut fields: BTreeMap<String, Value> =
        FIELDS.iter().map(|(name, _)| ((*name).to_owned(), record[*name].clone())).collect();
    fields.insert("status".into(), record["status"].clone());
    fields.insert(TEXT.into(), record[TEXT].clone());
    fields
}

/// A long text's sentences ("Note 12." each).
fn sentences(text: &Value) -> Vec<String> {
    let text = text.as_str().unwrap_or_default();
    text.split_inclusive('.').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect()
}

struct Device {
    client_id: String,
    token: String,
    next_mutation: u64,
    /// Not sent yet.
    queue: Vec<Value>,
    /// Answered, not yet covered by a pull's `last_mutation_id`.
    sent: Vec<Value>,
    local: BTreeMap<String, Local>,
    cursor: Option<i64>,
}

impl Device {
    fn queue(&mut self, name: &str, args: Value, base: Option<i64>) {
        self.queue.push(mutation(self.next_mutation, name, args, base));
        self.next_mutation += 1;
    }
}

/// What the run wrote to the long texts, to check none of it was lost.
#[derive(Default)]
struct Notes {
    next: u32,
    /// Each note and the application it was written to.
    written: BTreeMap<String, String>,
    /// Notes a device replaced (it saw them) or overwrote (an edit without a base).
    removed: BTreeSet<String>,
    /// Notes that may have been lost with the server's history (before a restore).
    before_restore: BTreeSet<String>,
}

async fn pull_all(app: &TestApp, device: &mut Device) {
    // A first pull's pages carry its snapshot, as the app sends it back.
    let mut snapshot: Option<i64> = None;
    loop {
        let mut query = format!("/sync/pull?client_id={}&limit=3", device.client_id);
        if let Some(cursor) = device.cursor {
            query.push_str(&format!("&cursor={cursor}"));
        }
        if let Some(snapshot) = snapshot {
            query.push_str(&format!("&snapshot={snapshot}"));
        }
        let response = app.get(&query, Some(&device.token)).await;
        if response.status() == StatusCode::CONFLICT {
            // Tombstones removed past its cursor, or a restored server: start again.
            assert_eq!(response.json::<Value>().await.unwrap()["code"], "snapshot_required");
            device.local.clear();
            device.cursor = None;
            snapshot = None;
            continue;
        }
        let page: Value = response.json().await.unwrap();
        snapshot = page["snapshot"].as_i64();
        for change in page["changes"].as_array().unwrap() {
            let id = change["id"].as_str().unwrap().to_owned();
            if change["op"] == "del" {
                device.local.remove(&id);
            } else {
                let record = &change["record"];
                device.local.insert(id, Local { fields: fields_of(record), version: record["version"].as_i64() });
            }
        }
        device.cursor = page["cursor"].as_i64();
        if page["has_more"] == false {
            confirm(device, page["last_mutation_id"].as_i64().unwrap() as u64);
            return;
        }
    }
}

/// Drops the answered changes the server confirms; when the server's sequence is
/// behind the rest (a restore), numbers them on from it, to be sent again.
fn confirm(device: &mut Device, last: u64) {
    let id = |m: &Value| m["mutation_id"].as_u64().unwrap();
    device.sent.retain(|m| id(m) > last);
    let mut waiting: Vec<Value> = device.sent.drain(..).chain(device.queue.drain(..)).collect();
    if waiting.first().is_some_and(|m| id(m) != last + 1) {
        for (n, m) in waiting.iter_mut().enumerate() {
            m["mutation_id"] = json!(last + 1 + n as u64);
        }
    }
    device.next_mutation = waiting.last().map_or(last + 1, |m| id(m) + 1).max(last + 1);
    device.queue = waiting;
}

async fn push_queue(app: &TestApp, device: &mut Device, notes: &mut Notes, lose_answer: bool) {
    let batch = std::mem::take(&mut device.queue);
    let response = app.push(&device.token, &device.client_id, batch.clone()).await;
    if response.status() == StatusCode::CONFLICT {
        // The server lost changes it had answered (a restore): catch up, then send again.
        assert_eq!(response.json::<Value>().await.unwrap()["code"], "mutation_gap");
        device.queue = batch;
        pull_all(app, device).await;
        return Box::pin(push_queue(app, device, notes, lose_answer)).await;
    }
    assert_eq!(response.status(), StatusCode::OK);
    // An edit without a base (behind the device's own create, before a pull gave it a
    // version) is a deliberate overwrite: it replaces what arrived before it.
    for edit in batch.iter().filter(|m| m["name"] == "survey.update" && m["base"].is_null()) {
        let Some(text) = edit["args"]["answers"].get(TEXT) else { continue };
        let (id, kept) = (edit["args"]["uid"].as_str().unwrap(), sentences(text));
        let others = notes.written.iter().filter(|(n, app)| *app == id && !kept.contains(n));
        notes.removed.extend(others.map(|(n, _)| n.clone()).collect::<Vec<_>>());
    }
    if lose_answer {
        // The answer was lost on the way back: the device sends it all again.
        let again = app.push_ok(&device.token, &device.client_id, batch.clone()).await;
        assert!(again["results"].as_array().unwrap().iter().all(|r| r["duplicate"] == true));
    }
    device.sent.extend(batch);
}

async fn run(seed: u64) {
    let mut app = spawn_app().await;
    let restores = seed % 2 == 1;
    let backup_dir = tempfile::tempdir().unwrap();
    let restored_dir = tempfile::tempdir().unwrap();
    let (first, _) = app.register("amani@example.com").await;
    let mut devices = vec![];
    for n in 0..3 {
        let token = if n == 0 { first.clone() } else { app.login_token("amani@example.com", PASSWORD).await };
        devices.push(Device {
            client_id: format!("cccccccc-0000-4000-8000-00000000000{n}"),
            token,
            next_mutation: 1,
            queue: vec![],
            sent: vec![],
            local: BTreeMap::new(),
            cursor: None,
        });
    }
    let mut rng = Rng(seed);
    let mut made = 0;
    let mut notes = Notes::default();
    for step in 0..70 {
        if restores && step == 20 {
            backup_database(&app.data_dir, backup_dir.path());
        }
        if restores && step == 45 {
            // The server is restored from the backup of step 20.
            let restored = restored_dir.path();
            restore_database(backup_dir.path(), restored);
            std::fs::copy(app.data_dir.join("jwt-secret"), restored.join("jwt-secret")).unwrap();
            app = spawn_in(restored, |_| {}).await;
            notes.before_restore = notes.written.keys().cloned().collect();
        }
        let d = rng.below(devices.len());
        let device = &mut devices[d];
        match rng.below(14) {
            0..=1 => {
                made += 1;
                let id = uid(seed as u32 % 1000 * 1000 + made);
                let land = *rng.pick(FIELDS[0].1);
                device.queue(
                    "survey.create",
                    json!({"uid": id, "status": "draft", "answers": {"land_size": land}}),
                    None,
                );
                let mut fields: BTreeMap<String, Value> =
                    FIELDS.iter().map(|(name, _)| ((*name).to_owned(), Value::Null)).collect();
                fields.insert("land_size".into(), json!(land));
                fields.insert("status".into(), json!("draft"));
                fields.insert(TEXT.into(), Value::Null);
                device.local.insert(id, Local { fields, version: None });
            }
            2..=3 if !device.local.is_empty() => {
                let ids: Vec<String> = device.local.keys().cloned().collect();
                let id = rng.pick(&ids).clone();
                let (field, values) = *rng.pick(&FIELDS);
                let value = *rng.pick(values);
                let local = device.local.get_mut(&id).unwrap();
                let base = local.version;
                local.fields.insert(field.into(), json!(value));
                device.queue("survey.update", json!({"uid": id, "answers": {field: value}}), base);
            }
            4..=5 if !device.local.is_empty() => {
                // A sentence of the long text rewritten, or one added.
                let ids: Vec<String> = device.local.keys().cloned().collect();
                let id = rng.pick(&ids).clone();
                let local = device.local.get_mut(&id).unwrap();
                let mut text = sentences(&local.fields[TEXT]);
                notes.next += 1;
                let note = format!("Note {}.", notes.next);
                if text.is_empty() || rng.below(3) == 0 {
                    text.push(note.clone());
                } else {
                    let at = rng.below(text.len());
                    notes.removed.insert(std::mem::replace(&mut text[at], note.clone()));
                }
                notes.written.insert(note, id.clone());
                let joined = text.join(" ");
                local.fields.insert(TEXT.into(), json!(joined));
                let base = local.version;
                device.queue("survey.update", json!({"uid": id, "answers": {TEXT: joined}}), base);
            }
            6 if !device.local.is_empty() => {
                let ids: Vec<String> = device.local.keys().cloned().collect();
                let id = rng.pick(&ids).clone();
                device.local.remove(&id);
                device.queue("survey.delete", json!({"uid": id}), None);
            }
            7..=8 if !device.queue.is_empty() => {
                let lose_answer = rng.below(3) == 0;
                push_queue(&app, device, &mut notes, lose_answer).await;
            }
            9 => {
                // The hourly round forgot this device's results (as after 500 more).
                app.sql(&format!("DELETE FROM sync_results WHERE client_id = '{}'", device.client_id));
            }
            10 => {
                // Deletions older than the retention window are removed: the horizon rises.
                let long_ago = mavuno::platform::clock::before_now(
                    mavuno::housekeeping::TOMBSTONES_KEPT + std::time::Duration::from_secs(60),
                );
                app.sql(&format!("UPDATE surveys SET deleted_at = '{long_ago}' WHERE deleted_at IS NOT NULL"));
                app.state.housekeeping().run_once().await.unwrap();
            }
            _ if device.queue.is_empty() => pull_all(&app, device).await,
            _ => {}
        }
    }
    // The network comes back for everyone: push what is left, then pull.
    for device in &mut devices {
        pull_all(&app, device).await;
        if !device.queue.is_empty() {
            push_queue(&app, device, &mut notes, false).await;
        }
    }
    let list: Value = app.get("/farmer/farmer_survey_forms", Some(&first)).await.json().await.unwrap();
    let server: BTreeMap<String, BTreeMap<String, Value>> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["uid"].as_str().unwrap().to_owned(), fields_of(r)))
        .collect();
    for device in &mut devices {
        pull_all(&app, device).await;
        assert!(device.queue.is_empty() && device.sent.is_empty(), "seed {seed}: every change confirmed");
        let held: BTreeMap<String, BTreeMap<String, Value>> =
            device.local.iter().map(|(id, l)| (id.clone(), l.fields.clone())).collect();
        assert_eq!(held, server, "seed {seed}: device {} differs from the server", device.client_id);
    }
    for (note, id) in &notes.written {
        let Some(fields) = server.get(id) else { continue };
        let text = sentences(&fields[TEXT]);
        let kept = notes.removed.contains(note) || notes.before_restore.contains(note) || text.contains(note);
        assert!(kept, "seed {seed}: {note} was lost from {id}: {text:?}");
    }
    for fields in server.values() {
        for sentence in sentences(&fields[TEXT]) {
            assert!(notes.written.contains_key(&sentence), "seed {seed}: {sentence:?} is no one's sentence");
        }
    }
}

#[tokio::test]
async fn devices_converge_on_the_servers_records() {
    for seed in [1, 7, 8, 42, 1234, 99_991] {
        run(seed).await;
    }
}
