//! The log as a log shipper reads it (`--log-format json`, docs/operations.md, Logs),
//! through the real binary: every line is a JSON object; a request's lines, and the SMS
//! it caused when the sender sends it, carry its id, which the answer gives back (a
//! trusted proxy's own id kept); and no line holds a secret the run used: passwords,
//! tokens, the gateway's and the metrics' secrets, a reset link's token, full phone numbers.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const GATEWAY: &str = "logs-test-gateway-secret-0123456789abcdef";
const METRICS: &str = "logs-test-metrics-token-0123456789abcdef0";
const WRONG_PASSWORD: &str = "Not-The-Password-4417";

fn request_id(response: &reqwest::Response) -> String {
    response.headers()["x-request-id"].to_str().unwrap().to_owned()
}

/// The log's lines, each parsed (a line that is not JSON fails the test).
fn lines(server: &ServerProcess) -> Vec<Value> {
    let log = server.log_tail();
    log.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not a JSON line: {line}")))
        .collect()
}

/// The id of the request a line was written for.
fn id_of(line: &Value) -> Option<&str> {
    line["spans"].as_array()?.iter().find(|s| s["name"] == "request")?["id"].as_str()
}

#[tokio::test]
async fn a_request_s_lines_carry_its_id_and_none_holds_a_secret() {
    let args = ["--log-format", "json", "--gateway-token", GATEWAY, "--metrics-token", METRICS, "--demo"];
    let mut server =
        ServerProcess::start_keeping(&[], &[&args[..], &["--trusted-proxies", "127.0.0.1"]].concat(), None, 100_000)
            .await;
    let client = server.client.clone();
    let email = "amani.logs@example.com";

    // An account: registered, signed in, a wrong password, a reset asked for.
    let registered = client.post(server.api("/users")).multipart(user_form(&registration(email))).send().await.unwrap();
    assert_eq!(registered.status(), StatusCode::CREATED);
    let first_token = registered.json::<Value>().await.unwrap()["data"]["token"].as_str().unwrap().to_owned();
    let login = |password: &str| {
        client.post(server.api("/users/login")).json(&json!({"user": {"email": email, "password": password}})).send()
    };
    let signed_in: Value = login(PASSWORD).await.unwrap().json().await.unwrap();
    let token = signed_in["user"]["token"].as_str().unwrap().to_owned();
    assert_eq!(login(WRONG_PASSWORD).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let me = client.get(server.api("/me")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(me.status(), StatusCode::OK);
    let forgot = client.post(server.api("/password/forgot")).json(&json!({"email": email})).send().await.unwrap();
    assert_eq!(forgot.status(), StatusCode::ACCEPTED);

    // A demo product bought and paid by mobile money (the simulator calls back).
    let product: Value = client.get(server.api("/products?per_page=1")).send().await.unwrap().json().await.unwrap();
    let product = &product["data"][0];
    let cents = (product["current_price"].as_f64().unwrap() * 100.0).round() as i64;
    let quantity = product["min_order"].as_f64().unwrap_or(1.0).ceil().max(1.0) as i64;
    let order = json!({"uid": "0b7c9d2e-1f3a-4b5c-8d6e-7f8091a2b3c4", "delivery": "pickup", "payment_method": "mobile_money",
        "lines": [{"product_id": product["id"], "quantity": quantity, "unit_price_cents": cents}],
        "shipping": {"first_name": "Amani", "last_name": "Bahati", "email": email, "phone": e164_of(email),
            "address": "Avenue Lumumba 12", "city": "Bukavu", "country": "DRC"}});
    let placed = client.post(server.api("/orders")).bearer_auth(&token).json(&order).send().await.unwrap();
    let (status, placed) = (placed.status(), placed.json::<Value>().await.unwrap());
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    let order_id = placed["data"]["id"].as_i64().unwrap();
    let payer = "+243970000789";
    let pay = json!({"operator": "AIRTEL_COD", "phone": payer});
    let paid = client.post(server.api(&format!("/orders/{order_id}/payments"))).bearer_auth(&token).json(&pay);
    assert!(paid.send().await.unwrap().status().is_success());

    // A basic phone: a USSD screen, and an SMS command whose answer goes out by SMS.
    let ussd_phone = "+243971000123";
    let fields =
        [("sessionId", "ATUid_logs"), ("serviceCode", "*384*1234#"), ("phoneNumber", ussd_phone), ("text", "")];
    let ussd = client.post(server.api(&format!("/ussd/{GATEWAY}"))).form(&fields).send().await.unwrap();
    assert_eq!(ussd.status(), StatusCode::OK);
    let sms_phone = "+243971000456";
    let fields =
        [("from", sms_phone), ("text", "HELP"), ("id", "logs-1"), ("to", "21525"), ("date", "2026-12-07 10:00:00")];
    let incoming = client.post(server.api(&format!("/sms/incoming/{GATEWAY}"))).form(&fields).send().await.unwrap();
    assert_eq!(incoming.status(), StatusCode::OK);
    let incoming_id = request_id(&incoming);
    // Prometheus, and a request through a trusted proxy that named it.
    let scraped = client.get(server.api("/metrics")).bearer_auth(METRICS).send().await.unwrap();
    assert_eq!(scraped.status(), StatusCode::OK);
    let scraped = crate::metrics::samples(&scraped.text().await.unwrap());
    let moved = crate::metrics::value(&scraped, "mavuno_payments_moved_total", &[("provider", "simulator")]);
    assert!(moved >= 1.0, "the payment reached a state: {moved}");
    let proxied = client.get(server.api("/health")).header("x-request-id", "proxy-7f3a-42").send().await.unwrap();
    assert_eq!(request_id(&proxied), "proxy-7f3a-42", "a trusted proxy's id is kept");

    // The SMS answer is sent (to the log: no provider) with the id of the request that wrote it.
    let sent = |l: &Value| {
        l["fields"]["message"].as_str().is_some_and(|m| m.starts_with("SMS kept in the outbox"))
            && id_of(l) == Some(incoming_id.as_str())
    };
    let mut told = false;
    for _ in 0..100 {
        told = lines(&server).iter().any(sent);
        if told {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(told, "the SMS sender's line names the request that wrote the SMS");
    assert!(server.stopped().is_none());

    let log = lines(&server);
    let requests: Vec<&Value> = log.iter().filter(|l| l["fields"]["message"] == "request").collect();
    assert!(requests.len() >= 12, "{} request lines", requests.len());
    for line in &requests {
        let id = id_of(line).unwrap_or_else(|| panic!("a request's line without its id: {line}"));
        assert!(!id.is_empty() && id != "-", "{line}");
    }
    assert!(requests.iter().any(|l| id_of(l) == Some("proxy-7f3a-42")), "the proxy's id on its line");
    assert!(requests.iter().any(|l| id_of(l) == Some(incoming_id.as_str())));

    // No secret the run used, anywhere in the log.
    let db = mavuno::db::Connection::open(&server.data_dir().join(mavuno::db::DB_FILE)).unwrap();
    let reset: String = db
        .query_row("SELECT body FROM email_outbox WHERE body LIKE '%token=%' ORDER BY id DESC LIMIT 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    let reset_token = reset.split("token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let registered_phone = e164_of(email);
    let secrets = [
        PASSWORD,
        WRONG_PASSWORD,
        &first_token,
        &token,
        GATEWAY,
        METRICS,
        &reset_token,
        &registered_phone,
        &registered_phone[1..],
        ussd_phone,
        &ussd_phone[1..],
        sms_phone,
        &sms_phone[1..],
        payer,
        &payer[1..],
    ];
    let text = server.log_tail();
    for secret in secrets {
        assert!(secret.len() >= 9, "a secret long enough not to be found by chance: {secret}");
        assert!(!text.contains(secret), "a secret in the log: {secret}");
    }
}
