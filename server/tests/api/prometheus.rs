//! A real Prometheus (Debian's, as an operator runs it) scrapes two nodes every second
//! with the metrics token, loads ops/prometheus/rules.yml, and sees each node's counters
//! move with the traffic each one served; every expression of the Grafana dashboard
//! (ops/grafana/mavuno.json) is one it can evaluate.

use std::time::Duration;

use serde_json::Value;

use crate::helpers::*;
use crate::metrics::{TOKEN, observed_app, promtool};

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A free port on loopback.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `host:port` of a test server.
fn target(app: &TestApp) -> String {
    app.origin.trim_start_matches("http://").to_owned()
}

struct Prometheus {
    _process: tokio::process::Child,
    api: String,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl Prometheus {
    /// Starts Prometheus scraping `targets` each second, with the rules loaded.
    fn start(targets: &[String]) -> Prometheus {
        promtool(); // the same package brings both
        let dir = tempfile::tempdir().unwrap();
        let token = dir.path().join("token");
        std::fs::write(&token, TOKEN).unwrap();
        let config = format!(
            "global: {{scrape_interval: 1s, evaluation_interval: 1s}}\n\
             rule_files: ['{REPO}/ops/prometheus/rules.yml']\n\
             scrape_configs:\n\
             - job_name: mavuno\n  metrics_path: /api/v1/metrics\n\
             \x20 authorization: {{type: Bearer, credentials_file: '{}'}}\n\
             \x20 static_configs: [{{targets: {targets:?}}}]\n",
            token.display()
        );
        std::fs::write(dir.path().join("prometheus.yml"), config).unwrap();
        let address = format!("127.0.0.1:{}", free_port());
        let process = tokio::process::Command::new("prometheus")
            .arg(format!("--config.file={}", dir.path().join("prometheus.yml").display()))
            .arg(format!("--storage.tsdb.path={}", dir.path().join("data").display()))
            .arg(format!("--web.listen-address={address}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("prometheus: scripts/test installs Debian's");
        Prometheus {
            _process: process,
            api: format!("http://{address}/api/v1"),
            client: reqwest::Client::new(),
            _dir: dir,
        }
    }

    async fn get(&self, path: &str, query: &[(&str, &str)]) -> Option<Value> {
        let response = self.client.get(format!("{}{path}", self.api)).query(query).send().await.ok()?;
        let body: Value = response.json().await.ok()?;
        (body["status"] == "success").then(|| body["data"].clone())
    }

    /// Asks until `check` holds of the answer to `path` (30 s at most).
    async fn until(&self, what: &str, path: &str, query: &[(&str, &str)], check: impl Fn(&Value) -> bool) -> Value {
        let mut last = Value::Null;
        for _ in 0..120 {
            if let Some(data) = self.get(path, query).await {
                if check(&data) {
                    return data;
                }
                last = data;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        panic!("{what}: Prometheus said {last}");
    }
}

/// A vector's value for each instance.
fn by_instance(data: &Value) -> std::collections::BTreeMap<String, f64> {
    data["result"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            (
                r["metric"]["instance"].as_str().unwrap_or("").to_owned(),
                r["value"][1].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_real_prometheus_scrapes_two_nodes_loads_the_rules_and_can_draw_the_dashboard() {
    let (one, two) = (observed_app().await, observed_app().await);
    let targets = [target(&one), target(&two)];
    let prometheus = Prometheus::start(&targets);
    prometheus
        .until("both nodes scraped", "/targets", &[], |data| {
            let up = data["activeTargets"].as_array().into_iter().flatten().filter(|t| t["health"] == "up").count();
            up == 2
        })
        .await;

    // Each node's own traffic, seen on each.
    for _ in 0..5 {
        one.get("/products", None).await;
    }
    for _ in 0..9 {
        two.get("/products", None).await;
    }
    let query = [("query", "sum by (instance) (mavuno_http_requests_total{route=\"/api/v1/products\"})")];
    let data = prometheus
        .until("the counters moved", "/query", &query, |data| {
            let seen = by_instance(data);
            seen.get(&targets[0]) == Some(&5.0) && seen.get(&targets[1]) == Some(&9.0)
        })
        .await;
    assert_eq!(by_instance(&data).len(), 2, "{data}");

    // The rules are loaded and evaluate without error.
    let rules = prometheus
        .until("the rules evaluated", "/rules", &[], |data| {
            let all: Vec<&Value> =
                data["groups"].as_array().into_iter().flatten().flat_map(|g| g["rules"].as_array().unwrap()).collect();
            all.len() == 8 && all.iter().all(|r| r["health"] == "ok")
        })
        .await;
    assert_eq!(rules["groups"].as_array().unwrap().len(), 2);

    // Every expression the dashboard draws is one Prometheus evaluates.
    let dashboard: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{REPO}/ops/grafana/mavuno.json")).unwrap()).unwrap();
    let mut drawn = 0;
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap().replace("$instance", ".*");
            let answer = prometheus.get("/query", &[("query", &expr)]).await;
            assert!(answer.is_some(), "{}: Prometheus cannot evaluate {expr}", panel["title"]);
            drawn += 1;
        }
    }
    assert!(drawn >= 30, "{drawn} expressions");
}
