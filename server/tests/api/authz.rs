//! The authorisation matrix (docs/security.md, Who may call what): every
//! endpoint of the OpenAPI document × every role × owner and non-owner,
//! against the rule written here. An endpoint without a rule fails the test,
//! so a new route cannot ship without deciding who may call it.

use std::collections::BTreeSet;

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    Visitor,
    Buyer,
    Farmer,
    Agent,
    Admin,
    SuperAdmin,
}

use Who::*;

const EVERYONE: &[Who] = &[Visitor, Buyer, Farmer, Agent, Admin, SuperAdmin];
const SIGNED: &[Who] = &[Buyer, Farmer, Agent, Admin, SuperAdmin];
const ADMINS: &[Who] = &[Admin, SuperAdmin];
const AGENTS: &[Who] = &[Agent, Admin, SuperAdmin];
const FARMERS: &[Who] = &[Farmer];
const UPLOADERS: &[Who] = &[Farmer, Agent, Admin, SuperAdmin];
/// The world's cooperative is managed by its farmer.
const MANAGER: &[Who] = &[Farmer];
const MANAGER_ADMINS: &[Who] = &[Farmer, Admin, SuperAdmin];

/// What an endpoint allows.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// These may call it; a visitor otherwise gets 401, anyone else 403.
    Only(&'static [Who]),
    /// The first may call it on their own record (the same role on someone
    /// else's gets 404: its existence is not revealed); the second on
    /// anyone's; anyone else gets 404 or a 403 for their role.
    Own(&'static [Who], &'static [Who]),
    /// A provider's callback (payments, SMS delivery reports): the answer does not
    /// depend on who calls.
    Provider,
    /// Prometheus, with the metrics token: no account opens it (a visitor and every
    /// role get 401; the world's server has a metrics token).
    Operator,
    /// The cooperative's managers (the world's farmer) and these others may call it;
    /// anyone else signed in, another farmer too, gets 403 `managers_only` (or one for their role).
    Managed(&'static [Who]),
}

use Rule::*;

/// Every operation of the document and its rule.
const RULES: &[(&str, &str, Rule)] = &[
    ("get", "/health", Only(EVERYONE)),
    ("get", "/metrics", Operator),
    ("post", "/users", Only(EVERYONE)),
    ("post", "/users/login", Only(EVERYONE)),
    ("post", "/password/forgot", Only(EVERYONE)),
    ("post", "/password/reset", Only(EVERYONE)),
    ("get", "/me", Only(SIGNED)),
    ("patch", "/me/update", Only(SIGNED)),
    ("post", "/auth/logout", Only(SIGNED)),
    ("delete", "/me/delete", Only(SIGNED)),
    ("post", "/contact", Only(EVERYONE)),
    ("get", "/admin/contact_messages", Only(ADMINS)),
    ("get", "/admin/users", Only(ADMINS)),
    ("get", "/admin/users/stats", Only(ADMINS)),
    ("get", "/admin/overview", Only(ADMINS)),
    ("get", "/admin/products", Only(ADMINS)),
    ("get", "/admin/products/export", Only(ADMINS)),
    ("post", "/admin/products/{id}/hide", Only(ADMINS)),
    ("post", "/admin/products/{id}/restore", Only(ADMINS)),
    ("get", "/admin/users/export", Only(ADMINS)),
    ("get", "/admin/users/{id}", Only(ADMINS)),
    ("patch", "/admin/users/{id}", Only(ADMINS)),
    ("get", "/admin/surveys", Only(ADMINS)),
    ("post", "/admin/surveys", Only(ADMINS)),
    ("post", "/admin/surveys/bulk", Only(ADMINS)),
    ("get", "/admin/surveys/export", Only(ADMINS)),
    ("patch", "/admin/surveys/{id}", Only(ADMINS)),
    ("get", "/admin/orders", Only(ADMINS)),
    ("get", "/admin/orders/export", Only(ADMINS)),
    ("get", "/admin/payments/prompts", Only(ADMINS)),
    ("post", "/admin/payments/prompts/{payment_id}", Only(ADMINS)),
    ("get", "/agent/people", Only(AGENTS)),
    ("post", "/agent/people/{id}/application", Only(AGENTS)),
    ("get", "/farmer/earnings", Only(FARMERS)),
    ("get", "/farmer/farmer_survey_forms", Only(SIGNED)),
    ("post", "/farmer/farmer_survey_forms", Only(SIGNED)),
    // The spec's trailing-slash alias of the collection: the same rules.
    ("get", "/farmer/farmer_survey_forms/", Only(SIGNED)),
    ("post", "/farmer/farmer_survey_forms/", Only(SIGNED)),
    ("patch", "/farmer/farmer_survey_forms/{id}", Own(&[Buyer], &[])),
    ("delete", "/farmer/farmer_survey_forms/{id}", Own(&[Buyer], &[])),
    ("get", "/farmer/products", Only(FARMERS)),
    ("post", "/farmer/products", Only(FARMERS)),
    ("patch", "/farmer/products/{id}", Own(FARMERS, &[])),
    ("delete", "/farmer/products/{id}", Own(FARMERS, &[])),
    ("get", "/products", Only(EVERYONE)),
    ("get", "/products/{id}", Only(EVERYONE)),
    ("get", "/products/{id}/reviews", Only(EVERYONE)),
    ("put", "/products/{id}/review", Only(SIGNED)),
    ("get", "/orders", Only(SIGNED)),
    ("post", "/orders", Only(SIGNED)),
    // The buyer, and the farmer whose part it holds; admins see every order.
    ("get", "/orders/{id}", Own(&[Buyer, Farmer], ADMINS)),
    ("patch", "/orders/{id}/parts/{part_id}", Own(&[Buyer, Farmer], ADMINS)),
    ("get", "/orders/{id}/payments", Own(&[Buyer], ADMINS)),
    ("post", "/orders/{id}/payments", Own(&[Buyer], &[])),
    ("post", "/orders/{id}/cash-on-delivery", Own(&[Buyer], &[])),
    ("post", "/payments/callbacks/{provider}", Provider),
    ("post", "/sms/delivery/{token}", Provider),
    ("post", "/sms/incoming/{token}", Provider),
    ("post", "/ussd/{token}", Provider),
    ("post", "/ussd/try", Only(SIGNED)),
    ("get", "/payments/operators", Only(EVERYONE)),
    ("get", "/exchange-rates", Only(EVERYONE)),
    ("get", "/admin/exchange-rates/{currency}", Only(ADMINS)),
    ("put", "/admin/exchange-rates/{currency}", Only(ADMINS)),
    ("get", "/settings", Only(EVERYONE)),
    ("get", "/admin/analytics/{chart}", Only(ADMINS)),
    ("get", "/admin/analytics/{chart}/export", Only(ADMINS)),
    ("get", "/admin/settings", Only(ADMINS)),
    ("patch", "/admin/settings", Only(&[SuperAdmin])),
    ("get", "/sync/pull", Only(EVERYONE)),
    ("get", "/sync/wait", Only(EVERYONE)),
    ("get", "/sync/listen", Only(EVERYONE)),
    ("post", "/sync/push", Only(SIGNED)),
    ("put", "/uploads/{sha256}", Only(UPLOADERS)),
    ("get", "/blogs", Only(EVERYONE)),
    ("get", "/blogs/{id}", Only(EVERYONE)),
    ("get", "/blogs/feed.xml", Only(EVERYONE)),
    ("get", "/blogs/{id}/comments", Only(EVERYONE)),
    ("post", "/blogs/{id}/comments", Only(SIGNED)),
    ("put", "/comments/{id}/like", Only(SIGNED)),
    ("delete", "/comments/{id}", Only(SIGNED)),
    ("get", "/admin/comments", Only(ADMINS)),
    ("put", "/admin/comments/{id}/hide", Only(ADMINS)),
    ("put", "/admin/comments/{id}/unhide", Only(ADMINS)),
    ("get", "/admin/blogs", Only(ADMINS)),
    ("post", "/admin/blogs", Only(ADMINS)),
    ("put", "/admin/blogs/{id}", Only(ADMINS)),
    ("delete", "/admin/blogs/{id}", Only(ADMINS)),
    ("put", "/admin/blogs/{id}/publish", Only(ADMINS)),
    ("put", "/admin/blogs/{id}/unpublish", Only(ADMINS)),
    ("get", "/courses", Only(EVERYONE)),
    ("get", "/courses/{id}", Only(EVERYONE)),
    ("get", "/courses/{id}/content", Only(EVERYONE)),
    ("post", "/courses/{id}/enrol", Only(SIGNED)),
    ("post", "/courses/{id}/progress", Only(SIGNED)),
    ("put", "/courses/{id}/rating", Only(SIGNED)),
    ("post", "/courses/{id}/payments", Only(SIGNED)),
    ("get", "/courses/{id}/payments", Only(SIGNED)),
    ("get", "/admin/courses/{id}/purchases", Only(ADMINS)),
    ("post", "/admin/payments/{id}/refund", Only(ADMINS)),
    ("get", "/certificates/{code}", Only(EVERYONE)),
    ("get", "/certificates/{code}/pdf", Only(EVERYONE)),
    ("get", "/admin/courses", Only(ADMINS)),
    ("post", "/admin/courses", Only(ADMINS)),
    ("get", "/admin/courses/{id}", Only(ADMINS)),
    ("patch", "/admin/courses/{id}", Only(ADMINS)),
    ("delete", "/admin/courses/{id}", Only(ADMINS)),
    ("put", "/admin/courses/{id}/order", Only(ADMINS)),
    ("post", "/admin/courses/{id}/modules", Only(ADMINS)),
    ("patch", "/admin/modules/{id}", Only(ADMINS)),
    ("delete", "/admin/modules/{id}", Only(ADMINS)),
    ("post", "/admin/modules/{id}/lessons", Only(ADMINS)),
    ("put", "/admin/lessons/{id}", Only(ADMINS)),
    ("delete", "/admin/lessons/{id}", Only(ADMINS)),
    ("head", "/uploads/{sha256}", Only(SIGNED)),
    ("get", "/prices", Only(EVERYONE)),
    ("get", "/prices/markets", Only(EVERYONE)),
    ("get", "/prices/range", Only(EVERYONE)),
    ("get", "/me/price-alerts", Only(SIGNED)),
    ("put", "/me/price-alerts", Only(SIGNED)),
    ("delete", "/me/price-alerts", Only(SIGNED)),
    ("get", "/admin/prices", Only(ADMINS)),
    ("get", "/admin/prices/export", Only(ADMINS)),
    ("post", "/admin/prices/import", Only(ADMINS)),
    ("get", "/admin/prices/{id}", Only(ADMINS)),
    ("patch", "/admin/prices/{id}", Only(ADMINS)),
    ("delete", "/admin/prices/{id}", Only(ADMINS)),
    ("post", "/admin/markets", Only(ADMINS)),
    ("get", "/cooperatives", Only(EVERYONE)),
    ("get", "/cooperatives/{id}", Only(EVERYONE)),
    ("get", "/admin/cooperatives", Only(ADMINS)),
    ("post", "/admin/cooperatives", Only(ADMINS)),
    ("patch", "/admin/cooperatives/{id}", Only(ADMINS)),
    ("post", "/cooperatives/{id}/join", Only(FARMERS)),
    ("get", "/cooperatives/{id}/members", Managed(MANAGER_ADMINS)),
    ("put", "/cooperatives/{id}/members/{user_id}", Managed(MANAGER_ADMINS)),
    ("get", "/cooperatives/{id}/deliveries", Managed(MANAGER_ADMINS)),
    ("get", "/cooperatives/{id}/deliveries/export", Managed(MANAGER_ADMINS)),
    ("post", "/cooperatives/{id}/deliveries", Managed(MANAGER)),
    ("get", "/cooperatives/{id}/stock", Managed(MANAGER_ADMINS)),
    ("get", "/cooperatives/{id}/lots", Managed(MANAGER_ADMINS)),
    ("post", "/cooperatives/{id}/lots", Managed(MANAGER)),
    ("patch", "/cooperatives/{id}/lots/{lot_id}", Managed(MANAGER)),
    ("get", "/lots/{id}/origin", Only(EVERYONE)),
    ("get", "/lots/{id}/origin.csv", Only(EVERYONE)),
    ("get", "/lots/{id}/origin.geojson", Only(EVERYONE)),
    ("put", "/me/cooperatives/{id}/origin", Only(SIGNED)),
    ("get", "/cooperatives/{id}/payouts", Managed(MANAGER_ADMINS)),
    ("post", "/cooperatives/{id}/payouts", Managed(MANAGER)),
    ("post", "/cooperatives/{id}/payouts/{payout_id}/confirm", Managed(MANAGER)),
    ("post", "/cooperatives/{id}/payouts/{payout_id}/cancel", Managed(MANAGER)),
    ("get", "/cooperatives/{id}/accounts", Managed(MANAGER_ADMINS)),
    ("get", "/cooperatives/{id}/accounts/export", Managed(MANAGER_ADMINS)),
    ("get", "/me/payouts", Only(SIGNED)),
    ("get", "/me/cooperatives", Only(SIGNED)),
    ("get", "/me/deliveries", Only(SIGNED)),
    // The member the entry is of (the world's farmer weighed in their own harvest).
    ("post", "/deliveries/{id}/dispute", Own(FARMERS, &[])),
    ("post", "/deliveries/{id}/keep", Managed(MANAGER)),
    ("patch", "/admin/markets/{id}", Only(ADMINS)),
    ("delete", "/admin/markets/{id}", Only(ADMINS)),
];

/// The codes a refusal for the caller's role carries (a 403 with any other
/// code is a business rule, e.g. "not delivered yet", and counts as allowed).
const ROLE_REFUSALS: &[&str] =
    &["forbidden", "farmers_only", "uploads_not_allowed", "super_admin_only", "managers_only"];

struct World {
    app: TestApp,
    buyer2: String,
    farmer2: String,
    survey: i64,
    product: i64,
    order: i64,
    part: i64,
    target_user: i64,
    cooperative: i64,
    delivery: i64,
    farmer_id: i64,
}

impl World {
    async fn new() -> World {
        let app = spawn_with(|config| config.metrics_token = Some(crate::metrics::TOKEN.to_owned().into())).await;
        let buyer2 = app.user_with_role("buyer2@example.com", Role::User).await;
        let farmer2 = app.user_with_role("farmer2@example.com", Role::Farmer).await;
        for (email, role) in [
            ("buyer@example.com", Role::User),
            ("farmer@example.com", Role::Farmer),
            ("agent@example.com", Role::FieldAgent),
            ("admin@example.com", Role::Admin),
            ("root@example.com", Role::SuperAdmin),
        ] {
            app.user_with_role(email, role).await;
        }
        let buyer = app.login_token("buyer@example.com", PASSWORD).await;
        let farmer = app.login_token("farmer@example.com", PASSWORD).await;
        let draft = json!({"farmer_survey_form": {"status": "draft", "land_size": "2-5 hectares"}});
        let survey: Value =
            app.call(Method::POST, "/farmer/farmer_survey_forms", &buyer, Some(draft)).await.json().await.unwrap();
        let survey = survey["data"]["id"].as_i64().unwrap_or_else(|| panic!("an application: {survey}"));
        let product = json!({"product": {"title": "Beans", "description": "Red beans", "quantity": 50, "price": 2,
            "current_price": 2, "category": "grains", "unit": "kg"}});
        let product: Value =
            app.call(Method::POST, "/farmer/products", &farmer, Some(product)).await.json().await.unwrap();
        let product = product["product"]["id"].as_i64().unwrap();
        let order = json!({"uid": crate::sync::uid(77), "delivery": "pickup", "payment_method": "cash_on_delivery",
            "lines": [{"product_id": product, "quantity": 2, "unit_price_cents": 200}],
            "shipping": {"first_name": "Neema", "last_name": "B", "email": "n@example.com", "phone": "+243990000001",
                "address": "Avenue 1", "city": "Bukavu", "postal_code": "", "country": "DRC"}});
        let order = app.call(Method::POST, "/orders", &buyer, Some(order)).await;
        assert_eq!(order.status(), StatusCode::CREATED);
        let order: Value = order.json().await.unwrap();
        let (part, order) = (order["data"]["parts"][0]["id"].as_i64().unwrap(), order["data"]["id"].as_i64().unwrap());
        let target: Value = app.get("/me", Some(&buyer2)).await.json().await.unwrap();
        // A cooperative its farmer manages, with an entry of the farmer's own harvest.
        let admin = app.login_token("admin@example.com", PASSWORD).await;
        let made = json!({"name": "Walungu Beans", "territory": "Walungu", "market_id": 1});
        let made: Value = app.call(Method::POST, "/admin/cooperatives", &admin, Some(made)).await.json().await.unwrap();
        let cooperative = made["data"]["id"].as_i64().unwrap();
        let me: Value = app.get("/me", Some(&farmer)).await.json().await.unwrap();
        let farmer_id = me["user"]["id"].as_i64().unwrap();
        let named = json!({"role": "manager", "status": "active"});
        let path = format!("/cooperatives/{cooperative}/members/{farmer_id}");
        assert_eq!(app.call(Method::PUT, &path, &admin, Some(named)).await.status(), StatusCode::OK);
        let entry = json!({"uid": crate::sync::uid(78), "member_id": farmer_id, "crop": "bean", "grade": "B",
            "quantity": "30", "unit": "kg", "delivered_on": mavuno::domain::prices::today().to_string(),
            "place": "Walungu"});
        let path = format!("/cooperatives/{cooperative}/deliveries");
        let entry: Value = app.call(Method::POST, &path, &farmer, Some(entry)).await.json().await.unwrap();
        World {
            cooperative,
            delivery: entry["data"]["id"].as_i64().unwrap_or_else(|| panic!("an entry: {entry}")),
            farmer_id,
            buyer2,
            farmer2,
            survey,
            product,
            order,
            part,
            target_user: target["user"]["id"].as_i64().unwrap(),
            app,
        }
    }

    fn email(who: Who) -> Option<&'static str> {
        match who {
            Visitor => None,
            Buyer => Some("buyer@example.com"),
            Farmer => Some("farmer@example.com"),
            Agent => Some("agent@example.com"),
            Admin => Some("admin@example.com"),
            SuperAdmin => Some("root@example.com"),
        }
    }

    /// A fresh sign-in for each call, so sign-out and erasure affect only their own call.
    async fn token(&self, who: Who) -> Option<String> {
        match Self::email(who) {
            Some(email) => Some(self.app.login_token(email, PASSWORD).await),
            None => None,
        }
    }

    fn path(&self, template: &str) -> String {
        let id = if template.starts_with("/farmer/farmer_survey_forms") || template.starts_with("/admin/surveys") {
            self.survey
        } else if ["/cooperatives", "/admin/cooperatives", "/me/cooperatives"].iter().any(|p| template.starts_with(p)) {
            self.cooperative
        } else if template.starts_with("/deliveries") {
            self.delivery
        } else if template.starts_with("/admin/users") {
            self.target_user
        } else if template.starts_with("/orders") {
            self.order
        } else {
            self.product
        };
        template
            .replace("{id}", &id.to_string())
            .replace("{part_id}", &self.part.to_string())
            .replace("{user_id}", &self.farmer_id.to_string())
            .replace("{payment_id}", "999999")
            .replace("{payout_id}", "999999")
            .replace("{lot_id}", "999999")
            .replace("{provider}", "simulator")
            .replace("{sha256}", &"a".repeat(64))
            .replace("{code}", "ABCD-EFGH-JKLM")
            .replace("{currency}", "CDF")
            .replace("{chart}", "orders")
    }

    async fn call(&self, method: &str, template: &str, token: Option<&str>) -> (StatusCode, String) {
        let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
        let mut request = self.app.client.request(method.clone(), self.app.api(&self.path(template)));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if template == "/me/delete" {
            // Erasure is tried on a throwaway account of the same role, never the world's.
        } else if template.starts_with("/uploads") {
            request = request.body(Vec::new());
        } else if ![Method::GET, Method::HEAD, Method::DELETE].contains(&method) {
            // The envelope each endpoint reads, with nothing valid in it: the
            // answer then says who may call, not how the body was wrong.
            let body = match template {
                t if t.starts_with("/farmer/farmer_survey_forms") => json!({"farmer_survey_form": {}}),
                t if t.starts_with("/farmer/products") => json!({"product": {}}),
                "/orders/{id}/parts/{part_id}" => json!({"status": "nothing"}),
                "/orders/{id}/payments" => json!({"operator": "NONE", "phone": "+243990000001"}),
                "/cooperatives/{id}/deliveries" => json!({"uid": "x", "member_id": 0, "crop": "", "grade": "",
                    "quantity": "", "unit": "", "delivered_on": "", "place": ""}),
                "/cooperatives/{id}/lots" => json!({"uid": "x", "crop": "", "grade": "", "pickup": ""}),
                "/cooperatives/{id}/payouts" => json!({"uid": "x", "member_id": 0, "method": ""}),
                "/cooperatives/{id}/payouts/{payout_id}/confirm" => json!({"code": ""}),
                "/deliveries/{id}/dispute" => json!({"reason": ""}),
                "/deliveries/{id}/keep" => json!({"note": ""}),
                _ => json!({}),
            };
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let code = response.json::<Value>().await.ok().and_then(|b| b["code"].as_str().map(str::to_owned));
        (status, code.unwrap_or_default())
    }
}

fn allowed((status, code): &(StatusCode, String)) -> bool {
    *status != StatusCode::UNAUTHORIZED
        && !(*status == StatusCode::FORBIDDEN && ROLE_REFUSALS.contains(&code.as_str()))
        && !status.is_server_error()
}

#[tokio::test]
async fn every_endpoint_answers_every_role_as_documented() {
    let world = World::new().await;
    let doc: Value = world.app.get("/openapi.json", None).await.json().await.unwrap();
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| ops.as_object().unwrap().keys().map(move |m| (m.clone(), path.clone())))
        .collect();
    let ruled: BTreeSet<(String, String)> = RULES.iter().map(|(m, p, _)| ((*m).to_owned(), (*p).to_owned())).collect();
    assert_eq!(documented, ruled, "every documented endpoint has a rule here, and every rule an endpoint");

    let mut failures = Vec::new();
    // Deletions last, so the records stay for the other calls.
    let order = RULES.iter().filter(|r| r.0 != "delete").chain(RULES.iter().filter(|r| r.0 == "delete"));
    for (method, path, rule) in order {
        let mut provider_answers = BTreeSet::new();
        for &who in EVERYONE {
            if *path == "/me/delete" && who != Visitor {
                continue; // checked below on throwaway accounts
            }
            let token = world.token(who).await;
            let answer = world.call(method, path, token.as_deref()).await;
            let refused_role = answer.0 == StatusCode::FORBIDDEN && ROLE_REFUSALS.contains(&answer.1.as_str());
            let ok = match rule {
                // Whoever calls (a visitor too), the same answer.
                Provider => {
                    provider_answers.insert(answer.clone());
                    !answer.0.is_server_error()
                }
                Operator => answer.0 == StatusCode::UNAUTHORIZED,
                Only(roles) if roles.contains(&who) => allowed(&answer),
                Own(owners, staff) if owners.contains(&who) || staff.contains(&who) => allowed(&answer),
                Managed(roles) if roles.contains(&who) => allowed(&answer),
                _ if who == Visitor => answer.0 == StatusCode::UNAUTHORIZED,
                Only(_) | Managed(_) => refused_role,
                Own(..) => refused_role || answer.0 == StatusCode::NOT_FOUND,
            };
            if !ok {
                failures.push(format!("{method} {path} as {who:?}: {} {}", answer.0, answer.1));
            }
            // Someone else's record, by the same role: not found.
            if let Own(owners, _) = rule {
                if owners.contains(&who) && *method != "delete" {
                    let other = match who {
                        Buyer => &world.buyer2,
                        _ => &world.farmer2,
                    };
                    let answer = world.call(method, path, Some(other)).await;
                    if answer.0 != StatusCode::NOT_FOUND {
                        failures.push(format!("{method} {path} as another {who:?}: {} {}", answer.0, answer.1));
                    }
                }
            }
        }
        // A farmer who does not manage the cooperative is refused like any other role.
        if let Managed(_) = rule {
            let answer = world.call(method, path, Some(&world.farmer2)).await;
            if !(answer.0 == StatusCode::FORBIDDEN && answer.1 == "managers_only") {
                failures.push(format!("{method} {path} as another farmer: {} {}", answer.0, answer.1));
            }
        }
        if matches!(rule, Provider) && provider_answers.len() != 1 {
            failures.push(format!("{method} {path} answers callers differently: {provider_answers:?}"));
        }
    }
    // Erasure: each signed-in role may erase itself.
    for (n, role) in [Role::User, Role::Farmer, Role::FieldAgent, Role::Admin, Role::SuperAdmin].into_iter().enumerate()
    {
        let token = world.app.user_with_role(&format!("gone{n}@example.com"), role).await;
        let response = world.app.client.delete(world.app.api("/me/delete")).bearer_auth(&token).send().await.unwrap();
        if response.status() != StatusCode::OK {
            failures.push(format!("delete /me/delete as {role:?}: {}", response.status()));
        }
    }
    assert!(failures.is_empty(), "{} answers differ from the rules:\n{}", failures.len(), failures.join("\n"));
}
