//! Comments under news posts (docs/news.md): signed-in people comment,
//! reply and like once; plain text stays text; a rate limit; authors and
//! admins delete; a hidden comment disappears for readers; a comment sent
//! twice from a phone (sync) is one.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::blogs::form;
use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation};

struct Board {
    app: TestApp,
    admin: String,
    buyer: String,
    post: i64,
    post_uid: String,
}

async fn board() -> Board {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let fields = [
        ("title", "Bean prices"),
        ("description", "Short"),
        ("full_content", "<p>Text</p>"),
        ("author", "Neema"),
        ("published", "true"),
    ];
    let created = app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
    let post = created.json::<Value>().await.unwrap()["data"].clone();
    Board { app, admin, buyer, post: post["id"].as_i64().unwrap(), post_uid: post["uid"].as_str().unwrap().to_owned() }
}

impl Board {
    async fn comment(&self, token: &str, body: Value) -> reqwest::Response {
        self.app.call(Method::POST, &format!("/blogs/{}/comments", self.post), token, Some(body)).await
    }

    async fn thread(&self, token: Option<&str>) -> Value {
        self.app.get(&format!("/blogs/{}/comments", self.post), token).await.json().await.unwrap()
    }
}

#[tokio::test]
async fn people_comment_reply_and_like_once() {
    let b = board().await;
    let visitor = b.app.client.post(b.app.api(&format!("/blogs/{}/comments", b.post))).json(&json!({"body": "Hi"}));
    assert_eq!(visitor.send().await.unwrap().status(), StatusCode::UNAUTHORIZED);

    let written = b.comment(&b.buyer, json!({"body": "  <b>Good</b> prices in Kabare  "})).await;
    assert_eq!(written.status(), StatusCode::CREATED);
    let comment = written.json::<Value>().await.unwrap()["data"].clone();
    assert_eq!(comment["body"], "<b>Good</b> prices in Kabare", "plain text, kept as written (trimmed)");
    let id = comment["id"].as_i64().unwrap();

    let farmer = b.app.user_with_role("farmer@example.com", Role::Farmer).await;
    let reply = b.comment(&farmer, json!({"body": "Same in Walungu", "parent_id": id})).await;
    let reply_id = reply.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap();
    // An answer to a reply joins the same thread.
    let deeper = b.comment(&b.buyer, json!({"body": "Thanks", "parent_id": reply_id})).await;
    assert_eq!(deeper.json::<Value>().await.unwrap()["data"]["parent_id"], id);
    // Each is told of the other's answer; nobody of their own.
    assert_eq!(crate::notifications::kinds_of(&b.app, "buyer@example.com"), ["comment_reply"]);
    assert_eq!(crate::notifications::kinds_of(&b.app, "farmer@example.com"), ["comment_reply"]);

    for _ in 0..2 {
        let liked =
            b.app.call(Method::PUT, &format!("/comments/{id}/like"), &farmer, Some(json!({"liked": true}))).await;
        assert_eq!(liked.json::<Value>().await.unwrap()["data"]["likes"], 1, "one like per person");
    }
    b.app.call(Method::PUT, &format!("/comments/{id}/like"), &b.buyer, Some(json!({"liked": true}))).await;
    let thread = b.thread(Some(&farmer)).await;
    assert_eq!(thread["total"], 1);
    let first = &thread["data"][0];
    assert_eq!(
        (first["likes"].as_i64(), first["liked"].as_bool(), first["mine"].as_bool()),
        (Some(2), Some(true), Some(false))
    );
    let replies: Vec<&str> = first["replies"].as_array().unwrap().iter().map(|r| r["body"].as_str().unwrap()).collect();
    assert_eq!(replies, ["Same in Walungu", "Thanks"]);
    let unliked =
        b.app.call(Method::PUT, &format!("/comments/{id}/like"), &farmer, Some(json!({"liked": false}))).await;
    assert_eq!(unliked.json::<Value>().await.unwrap()["data"]["likes"], 1);

    // Checked: empty, too long, hidden characters.
    for (body, code) in
        [("   ", "required"), (&"x".repeat(2001)[..], "too_long"), ("evil\u{202E}txt", "invalid_characters")]
    {
        let refused = b.comment(&b.buyer, json!({ "body": body })).await;
        assert_eq!(error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["body"][0], code);
    }
    // Only the author or an admin deletes.
    let not_mine = b.app.call(Method::DELETE, &format!("/comments/{reply_id}"), &b.buyer, None).await;
    assert_eq!(error_of(not_mine, StatusCode::FORBIDDEN).await["code"], "not_your_comment");
    assert_eq!(
        b.app.call(Method::DELETE, &format!("/comments/{reply_id}"), &farmer, None).await.status(),
        StatusCode::OK
    );
    let replies = b.thread(None).await["data"][0]["replies"].as_array().unwrap().len();
    assert_eq!(replies, 1);
    // A draft's comments are not there to read or write.
    b.app.call(Method::PUT, &format!("/admin/blogs/{}/unpublish", b.post), &b.admin, None).await;
    assert_eq!(b.app.get(&format!("/blogs/{}/comments", b.post), None).await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_hidden_comment_disappears_for_readers_and_admins_see_it() {
    let b = board().await;
    let id = b.comment(&b.buyer, json!({"body": "Buy my miracle seeds!!!"})).await.json::<Value>().await.unwrap()["data"]["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        b.app.call(Method::PUT, &format!("/admin/comments/{id}/hide"), &b.buyer, None).await.status(),
        StatusCode::FORBIDDEN
    );
    let hidden = b.app.call(Method::PUT, &format!("/admin/comments/{id}/hide"), &b.admin, None).await;
    assert_eq!(hidden.json::<Value>().await.unwrap()["data"]["hidden"], true);
    assert_eq!(b.thread(None).await["total"], 0);
    let listed = b.app.ok(Method::GET, "/admin/comments?status=hidden", &b.admin, None).await;
    assert_eq!((listed["total"].as_i64(), listed["data"][0]["post_title"].as_str()), (Some(1), Some("Bean prices")));
    let like = b.app.call(Method::PUT, &format!("/comments/{id}/like"), &b.buyer, Some(json!({"liked": true}))).await;
    assert_eq!(like.status(), StatusCode::NOT_FOUND, "a hidden comment takes no likes");
    b.app.call(Method::PUT, &format!("/admin/comments/{id}/unhide"), &b.admin, None).await;
    assert_eq!(b.thread(None).await["total"], 1);
}

#[tokio::test]
async fn comments_are_rate_limited_and_a_resent_one_is_kept_once() {
    let b = board().await;
    let offline = json!({"uid": "c-offline-1", "post_uid": b.post_uid, "body": "Written in the field"});
    for id in 1..=2 {
        // Sent again under a new sequence number (a restored phone, say): still one comment.
        let results =
            b.app.push_ok(&b.buyer, CLIENT_A, vec![mutation(id, "comment.create", offline.clone(), None)]).await;
        assert_eq!(results["results"][0]["status"], "applied", "{results}");
    }
    let again = b.comment(&b.buyer, json!({"uid": "c-offline-1", "body": "Written in the field"})).await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(b.thread(None).await["total"], 1);
    let like = json!({"uid": "c-offline-1", "on": true});
    let farmer = b.app.user_with_role("farmer@example.com", Role::Farmer).await;
    b.app.push_ok(&farmer, CLIENT_B, vec![mutation(1, "comment.like", like, None)]).await;
    assert_eq!(b.thread(None).await["data"][0]["likes"], 1);

    for n in 1..10 {
        assert_eq!(b.comment(&b.buyer, json!({"body": format!("Comment {n}")})).await.status(), StatusCode::CREATED);
    }
    let eleventh = b.comment(&b.buyer, json!({"body": "One too many"})).await;
    assert_eq!(error_of(eleventh, StatusCode::TOO_MANY_REQUESTS).await["code"], "too_many_comments");
    assert_eq!(b.comment(&farmer, json!({"body": "Someone else may"})).await.status(), StatusCode::CREATED);
}
