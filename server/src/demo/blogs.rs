//! The demo news (`demo/blogs.json`), loaded by `--demo` through the admin's
//! domain functions, once (also into a demo database made before news existed):
//! six published articles in the three languages and one draft, with drawn
//! pictures, and a few comments and replies from demo accounts.

use crate::db::{meta, uploads, users};
use crate::demo::pictures;
use crate::domain::blogs::{self, BlogInput};
use crate::error::{ApiResult, AppError};
use crate::outbound::media;
use crate::state::AppState;

const BLOGS_SEEDED_KEY: &str = "demo_blogs_seeded";

pub async fn seed(state: &AppState) -> ApiResult<bool> {
    if state.db.read(|conn| Ok(meta::get(conn, BLOGS_SEEDED_KEY)?)).await?.is_some() {
        return Ok(false);
    }
    let posts: Vec<serde_json::Value> =
        serde_json::from_str(include_str!("../../demo/blogs.json")).map_err(AppError::internal)?;
    let mut pictures = std::collections::HashMap::new();
    for post in &posts {
        let name = post["picture"].as_str().unwrap_or("field");
        if pictures.contains_key(name) {
            continue;
        }
        let scene = pictures::Scene::parse(name).ok_or_else(|| AppError::internal("unknown scene"))?;
        let bytes = pictures::scene(scene);
        let size = bytes.len() as i64;
        pictures.insert(name.to_owned(), (state.media.store_image(bytes, media::PHOTO_SIZES).await?, size));
    }
    state
        .db
        .write(move |tx| {
            if meta::get(tx, BLOGS_SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            let Some(admin) = users::find_by_email(tx, "admin@mavuno.demo")? else { return Ok(false) };
            let now = crate::platform::clock::now();
            for (hash, size) in pictures.values() {
                uploads::insert(tx, hash, admin.id, *size, &now)?;
            }
            // Oldest first, so the newest post is also the latest written.
            let mut ordered: Vec<&serde_json::Value> = posts.iter().collect();
            ordered.sort_by_key(|p| std::cmp::Reverse(p["days_ago"].as_i64().unwrap_or(0)));
            for post in ordered {
                let text = |key: &str| post[key].as_str().map(str::to_owned);
                let input = BlogInput {
                    title: text("title"),
                    description: text("description"),
                    full_content: text("full_content"),
                    author: text("author"),
                    category: text("category"),
                    read_time: text("read_time"),
                    language: text("language"),
                    published: Some(sync_protocol::Loose::Bool(!post["draft"].as_bool().unwrap_or(false))),
                    remove_image: None,
                };
                let image = post["picture"].as_str().and_then(|name| pictures.get(name)).map(|(hash, _)| hash.clone());
                let created = blogs::create(tx, &admin, &input, image)?;
                seed_comments(tx, created.id, &post["comments"], None)?;
                let ago = std::time::Duration::from_secs(post["days_ago"].as_u64().unwrap_or(0) * 86_400);
                crate::db::blogs::backdate(tx, created.id, &crate::platform::clock::before_now(ago))?;
            }
            meta::set(tx, BLOGS_SEEDED_KEY, &now)?;
            Ok(true)
        })
        .await
}

/// A post's demo comments (and their replies), written by demo accounts.
fn seed_comments(
    tx: &crate::db::Connection,
    post_id: i64,
    comments: &serde_json::Value,
    parent: Option<i64>,
) -> ApiResult<()> {
    use crate::domain::comments::{self, Key};
    for comment in comments.as_array().into_iter().flatten() {
        let Some(author) = users::find_by_email(tx, comment["by"].as_str().unwrap_or_default())? else { continue };
        let body = comment["body"].as_str().unwrap_or_default();
        let (row, _) = comments::create(tx, &author, Key::Id(post_id), None, parent.map(Key::Id), body)?;
        seed_comments(tx, post_id, &comment["replies"], Some(row.id))?;
    }
    Ok(())
}
