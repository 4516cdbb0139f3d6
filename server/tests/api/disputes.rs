//! A member's dispute reaches the cooperative's managers, who correct the entry or keep
//! it with a reason; the member hears the answer by SMS and in the app (docs/cooperatives.md).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::cooperatives::Coop;
use crate::helpers::*;
use crate::notifications::kinds_of;
use crate::sync::mutation;

const PHONE: &str = "cccccccc-0000-4000-8000-0000000000d1";

async fn disputed(c: &Coop, token: &str) -> reqwest::Response {
    c.app.get(&format!("/cooperatives/{}/deliveries?disputed=true", c.id), Some(token)).await
}

async fn open_in_admin_list(c: &Coop) -> Value {
    let listed: Value = c.app.get("/admin/cooperatives", Some(&c.admin)).await.json().await.unwrap();
    listed["data"].as_array().unwrap().iter().find(|x| x["id"] == c.id).unwrap()["open_disputes"].clone()
}

#[tokio::test]
async fn managers_see_open_disputes_and_answer_each_by_keeping_or_correcting_and_the_member_hears() {
    let c = Coop::new().await;
    let app = &c.app;
    let mut graded_b = c.delivery(2, "30");
    graded_b["grade"] = json!("B");
    let weighed = app
        .push_ok(
            &c.manager,
            PHONE,
            vec![
                mutation(1, "delivery.record", c.delivery(1, "48.5"), None),
                mutation(2, "delivery.record", graded_b, None),
            ],
        )
        .await;
    assert_eq!(weighed["results"][1]["status"], "applied", "{weighed}");
    let book: Value =
        app.get(&format!("/cooperatives/{}/deliveries", c.id), Some(&c.manager)).await.json().await.unwrap();
    let (second, first) = (book["data"][0]["id"].as_i64().unwrap(), book["data"][1]["id"].as_i64().unwrap());
    assert_eq!(open_in_admin_list(&c).await, 0);

    // The member disputes both; each reaches the managers, oldest first, with the member's words.
    for (id, reason) in [(first, "It was 50 kg, not 48.5"), (second, "Grade A, not B")] {
        let sent = app
            .call(Method::POST, &format!("/deliveries/{id}/dispute"), &c.member, Some(json!({"reason": reason})))
            .await;
        assert_eq!(sent.status(), StatusCode::OK);
    }
    assert_eq!(kinds_of(app, "agent@example.com").iter().filter(|k| *k == "dispute_opened").count(), 2);
    let open: Value = disputed(&c, &c.manager).await.json().await.unwrap();
    let open = open["data"].as_array().unwrap();
    assert_eq!(open.len(), 2, "{open:?}");
    assert_eq!((open[0]["id"].as_i64(), open[0]["member_name"].as_str()), (Some(first), Some("Neema farmer")));
    assert_eq!(open[0]["dispute"]["reason"], "It was 50 kg, not 48.5");
    assert_eq!(open[0]["kilograms"], "48.5");
    assert_eq!(open_in_admin_list(&c).await, 2);
    // Only managers (and admins) read them.
    assert_eq!(error_of(disputed(&c, &c.member).await, StatusCode::FORBIDDEN).await["code"], "managers_only");

    // Kept: a reason is required; the member is told why, by SMS in French and in the app.
    let keep_path = format!("/deliveries/{first}/keep");
    let keep = |note: &str| app.call(Method::POST, &keep_path, &c.manager, Some(json!({ "note": note })));
    let unexplained = keep("  ").await;
    assert_eq!(
        error_of(unexplained, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["note"],
        json!(["required"])
    );
    let sms_before = app.sms_bodies().len();
    let kept = keep("Weighed twice in front of you: 48.5 kg both times").await;
    assert_eq!(kept.status(), StatusCode::OK);
    let kept: Value = kept.json().await.unwrap();
    assert_eq!(kept["data"]["dispute"]["answer"], "kept");
    let sms = app.sms_bodies();
    assert_eq!(sms.len(), sms_before + 1);
    let (to, body) = sms.last().unwrap();
    assert_eq!(to, "+243990000101");
    let reference = format!("D{first}");
    assert!(
        body.contains(&format!("votre litige sur {reference} a une réponse")) && body.contains("Weighed twice"),
        "{body}"
    );
    assert!(mavuno::platform::gsm7::units(body).is_some_and(|n| n <= 160));
    assert_eq!(error_of(keep("Again").await, StatusCode::CONFLICT).await["code"], "not_disputed");

    // Corrected: the correction answers the dispute; the member is told in the app too.
    let mut correction = c.delivery(3, "30");
    correction["grade"] = json!("A");
    correction["replaces"] = json!(crate::sync::uid(2));
    correction["note"] = json!("Grade A after all");
    let corrected = app.push_ok(&c.manager, PHONE, vec![mutation(3, "delivery.record", correction, None)]).await;
    assert_eq!(corrected["results"][0]["status"], "applied", "{corrected}");
    let member = kinds_of(app, "neema@example.com");
    assert_eq!(
        member.iter().filter(|k| k.starts_with("dispute_")).collect::<Vec<_>>(),
        ["dispute_kept", "dispute_corrected"]
    );
    let open: Value = disputed(&c, &c.manager).await.json().await.unwrap();
    assert_eq!(open["data"], json!([]));
    assert_eq!(open_in_admin_list(&c).await, 0);
    let mine: Value = app.get("/me/deliveries", Some(&c.member)).await.json().await.unwrap();
    let answers: Vec<&Value> = mine["data"].as_array().unwrap().iter().map(|d| &d["dispute"]["answer"]).collect();
    assert!(answers.contains(&&json!("kept")) && answers.contains(&&json!("corrected")), "{answers:?}");
}
