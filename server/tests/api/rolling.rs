//! A rolling restart (docs/operations.md, Several nodes): two `mavuno serve` processes
//! on one PostgreSQL database, each restarted in turn (SIGTERM, then started again on
//! its data dir and port) while phones push and buyers race for the last units. The
//! test's client plays the proxy: a request a node does not take (refused, cut, or a
//! 503) goes to the other, as nginx's `proxy_next_upstream` does. Nothing accepted is
//! lost or applied twice, and nothing is oversold. PostgreSQL only.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mavuno::model::user::Role;
use reqwest::{RequestBuilder, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::helpers::*;
use crate::orders::{line, order};
use crate::sync::mutation;

/// One node: a `mavuno serve` process on a port and data dir of its own.
struct Node {
    port: u16,
    dir: TempDir,
    url: String,
    child: Option<tokio::process::Child>,
}

impl Node {
    async fn start(url: &str) -> Node {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut node = Node { port, dir: tempfile::tempdir().unwrap(), url: url.to_owned(), child: None };
        node.run().await;
        node
    }

    async fn run(&mut self) {
        use tokio::io::AsyncBufReadExt;
        let data: PathBuf = self.dir.path().to_owned();
        let mut child = mavuno()
            .args(["serve", "--addr", &format!("127.0.0.1:{}", self.port), "--payments", "simulator"])
            .arg("--data-dir")
            .arg(&data)
            .args(["--database-url", &self.url, "--database-pool", "6"])
            .env("RUST_LOG", "warn,mavuno=info")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        tokio::time::timeout(Duration::from_secs(30), read_origin(&mut lines)).await.expect("the node listens");
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.child = Some(child);
    }

    /// SIGTERM, as systemd stops a unit; then the same node starts again.
    async fn restart(&mut self) {
        let mut child = self.child.take().unwrap();
        let pid = child.id().unwrap().to_string();
        assert!(std::process::Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let stopped = tokio::time::timeout(Duration::from_secs(40), child.wait()).await;
        assert!(stopped.expect("stopped within 40 s").unwrap().success(), "a clean stop");
        self.run().await;
    }
}

/// The test's proxy: the request goes to the next node in turn, and to the other when a
/// node does not take it (refused, cut) or answers 503.
#[derive(Clone)]
struct Proxy {
    ports: [u16; 2],
    client: reqwest::Client,
}

impl Proxy {
    async fn send(&self, n: usize, make: impl Fn(&reqwest::Client, &str) -> RequestBuilder) -> (StatusCode, Value) {
        for attempt in 0..600 {
            let port = self.ports[(n + attempt) % 2];
            match make(&self.client, &format!("http://127.0.0.1:{port}/api/v1")).send().await {
                Ok(response) if response.status() != StatusCode::SERVICE_UNAVAILABLE => {
                    let status = response.status();
                    return (status, response.json().await.unwrap_or(Value::Null));
                }
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
        panic!("no node took the request for 30 s");
    }
}

fn survey(n: u32) -> Value {
    json!({"uid": format!("00000000-0000-4000-a000-{n:012}"), "status": "draft", "answers": {"land_size": "1-2 hectares"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn nodes_restarted_in_turn_under_load_lose_double_and_oversell_nothing() {
    if !on_postgres() {
        return;
    }
    // Accounts and the last five bags, made through a node of the test's own.
    let setup = spawn_app().await;
    let url = setup.database_url.clone().unwrap();
    let farmer = setup.user_with_role("farmer@example.com", Role::Farmer).await;
    let beans = setup
        .listed(&farmer, json!({"title": "Beans", "description": "Dry", "quantity": 5, "price": 2, "current_price": 2}))
        .await;
    let mut buyers = Vec::new();
    for n in 0..30 {
        buyers.push(setup.user_with_role(&format!("buyer{n}@example.com"), Role::User).await);
    }
    let mut phones = Vec::new();
    for n in 0..4 {
        phones.push(setup.user_with_role(&format!("phone{n}@example.com"), Role::User).await);
    }
    let mut nodes = [Node::start(&url).await, Node::start(&url).await];
    let proxy =
        Proxy { ports: [nodes[0].port, nodes[1].port], client: reqwest::Client::builder().no_proxy().build().unwrap() };

    // Phones push batches of two drafts, each batch sent again until answered.
    let stop = Arc::new(AtomicBool::new(false));
    let mut pushing = Vec::new();
    for (p, token) in phones.iter().enumerate() {
        let (proxy, token, stop) = (proxy.clone(), token.clone(), Arc::clone(&stop));
        pushing.push(tokio::spawn(async move {
            let client_id = format!("ffffffff-0000-4000-8000-{p:012}");
            let mut batch = 0u32;
            while !stop.load(Ordering::Relaxed) || batch < 3 {
                let n = p as u32 * 1000 + batch;
                let body = json!({"protocol": 1, "client_id": client_id, "mutations": [
                    mutation(u64::from(2 * batch + 1), "survey.create", survey(2 * n), None),
                    mutation(u64::from(2 * batch + 2), "survey.create", survey(2 * n + 1), None)]});
                let (status, answer) = proxy
                    .send(batch as usize, |c, api| c.post(format!("{api}/sync/push")).bearer_auth(&token).json(&body))
                    .await;
                assert_eq!(status, StatusCode::OK, "{answer}");
                batch += 1;
                tokio::time::sleep(Duration::from_millis(40)).await;
            }
            batch
        }));
    }
    // Thirty buyers race for the five bags, spread over the restarts; a resent order keeps its uid.
    let mut ordering = Vec::new();
    for (b, token) in buyers.iter().enumerate() {
        let (proxy, token) = (proxy.clone(), token.clone());
        ordering.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100 * b as u64)).await;
            let body = order(9000 + b as u32, json!([line(beans, 1, 200)]));
            proxy.send(b, |c, api| c.post(format!("{api}/orders")).bearer_auth(&token).json(&body)).await.0
        }));
    }

    // A phone listening on the node about to stop.
    let url = format!("ws://127.0.0.1:{}/api/v1/sync/listen?cursor=0", nodes[0].port);
    let mut listening = tokio_tungstenite::connect_async(url).await.expect("a WebSocket").0;
    tokio::time::sleep(Duration::from_millis(700)).await;
    nodes[0].restart().await;
    // Its socket ended with the node; it listens on the other and is told at once.
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        use futures_util::StreamExt;
        while let Some(Ok(_)) = listening.next().await {}
    })
    .await;
    assert!(ended.is_ok(), "the stopped node's socket ended");
    let url = format!("ws://127.0.0.1:{}/api/v1/sync/listen?cursor=0", nodes[1].port);
    let mut again = tokio_tungstenite::connect_async(url).await.expect("the other node listens").0;
    assert!(crate::sync::told(&mut again, Duration::from_secs(2)).await.is_some_and(|v| v > 0));
    tokio::time::sleep(Duration::from_millis(700)).await;
    nodes[1].restart().await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    stop.store(true, Ordering::Relaxed);

    let mut pushed = 0;
    for phone in pushing {
        pushed += 2 * phone.await.unwrap();
    }
    let mut placed = 0;
    for buyer in ordering {
        match buyer.await.unwrap() {
            StatusCode::CREATED => placed += 1,
            StatusCode::CONFLICT => {}
            other => panic!("an order answered {other}"),
        }
    }
    assert_eq!(placed, 5, "exactly the five bags were sold");
    let conn = setup.database();
    let sold: i64 = conn
        .query_row(&format!("SELECT COALESCE(SUM(quantity), 0) FROM order_lines WHERE product_id = {beans}"), [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(sold, 5);
    let uids: Vec<String> = {
        let mut statement = conn.prepare("SELECT uid FROM surveys WHERE uid LIKE '00000000-0000-4000-a000-%'").unwrap();
        statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
    };
    assert_eq!(uids.len() as u32, pushed, "every accepted draft once");
    assert_eq!(uids.iter().collect::<BTreeSet<_>>().len(), uids.len());
}
