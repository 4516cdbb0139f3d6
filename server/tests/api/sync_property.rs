//! Random interleavings of offline edits, pushes (with lost answers) and
//! pulls by several devices end with every device holding the same
//! applications as the server. Seeded, so a failure can be replayed.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{mutation, uid};

const FIELDS: [(&str, &[&str]); 4] = [
    ("land_size", &["Less than 1 hectare", "1-2 hectares", "2-5 hectares"]),
    ("work_type", &["Alone", "With family", "Cooperative"]),
    ("seed_type", &["Local/traditional", "Mixed", "Improved/hybrid"]),
    ("challenges", &["Pests", "Drought", "Roads", "Prices"]),
];

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
    fields
}

struct Device {
    client_id: String,
    token: String,
    next_mutation: u64,
    queue: Vec<Value>,
    local: BTreeMap<String, Local>,
    cursor: Option<i64>,
}

impl Device {
    fn queue(&mut self, name: &str, args: Value, base: Option<i64>) {
        self.queue.push(mutation(self.next_mutation, name, args, base));
        self.next_mutation += 1;
    }
}

async fn pull_all(app: &TestApp, device: &mut Device) {
    // A first pull's pages carry its snapshot, as the app sends it back.
    let mut snapshot: Option<i64> = None;
    loop {
        let page = match snapshot {
            None => app.pull(&device.token, &device.client_id, device.cursor, 3).await,
            Some(snapshot) => {
                let cursor = device.cursor.unwrap();
                let query =
                    format!("/sync/pull?client_id={}&limit=3&cursor={cursor}&snapshot={snapshot}", device.client_id);
                app.get(&query, Some(&device.token)).await.json().await.unwrap()
            }
        };
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
            break;
        }
    }
}

async fn run(seed: u64) {
    let app = spawn_app().await;
    let (first, _) = app.register("amani@example.com").await;
    let mut devices = vec![];
    for n in 0..3 {
        let token = if n == 0 { first.clone() } else { app.login_token("amani@example.com", PASSWORD).await };
        devices.push(Device {
            client_id: format!("cccccccc-0000-4000-8000-00000000000{n}"),
            token,
            next_mutation: 1,
            queue: vec![],
            local: BTreeMap::new(),
            cursor: None,
        });
    }
    let mut rng = Rng(seed);
    let mut made = 0;
    for _ in 0..60 {
        let d = rng.below(devices.len());
        let device = &mut devices[d];
        match rng.below(10) {
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
                device.local.insert(id, Local { fields, version: None });
            }
            2..=4 if !device.local.is_empty() => {
                let ids: Vec<String> = device.local.keys().cloned().collect();
                let id = rng.pick(&ids).clone();
                let (field, values) = *rng.pick(&FIELDS);
                let value = *rng.pick(values);
                let local = device.local.get_mut(&id).unwrap();
                let base = local.version;
                local.fields.insert(field.into(), json!(value));
                device.queue("survey.update", json!({"uid": id, "answers": {field: value}}), base);
            }
            5 if !device.local.is_empty() => {
                let ids: Vec<String> = device.local.keys().cloned().collect();
                let id = rng.pick(&ids).clone();
                device.local.remove(&id);
                device.queue("survey.delete", json!({"uid": id}), None);
            }
            6..=7 if !device.queue.is_empty() => {
                let batch = std::mem::take(&mut device.queue);
                app.push_ok(&device.token, &device.client_id, batch.clone()).await;
                if rng.below(3) == 0 {
                    // The answer was lost on the way back: the device sends it all again.
                    let again = app.push_ok(&device.token, &device.client_id, batch).await;
                    assert!(again["results"].as_array().unwrap().iter().all(|r| r["duplicate"] == true));
                }
            }
            _ if device.queue.is_empty() => pull_all(&app, device).await,
            _ => {}
        }
    }
    // The network comes back for everyone: push what is left, then pull.
    for device in &mut devices {
        let batch = std::mem::take(&mut device.queue);
        if !batch.is_empty() {
            app.push_ok(&device.token, &device.client_id, batch).await;
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
        let held: BTreeMap<String, BTreeMap<String, Value>> =
            device.local.iter().map(|(id, l)| (id.clone(), l.fields.clone())).collect();
        assert_eq!(held, server, "seed {seed}: device {} differs from the server", device.client_id);
    }
}

#[tokio::test]
async fn devices_converge_on_the_servers_records() {
    for seed in [1, 7, 42, 1234, 99_991] {
        run(seed).await;
    }
}
