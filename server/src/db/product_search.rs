//! What the catalogue's search looks in (`products.search_text`, indexed by
//! `products_search`): each listing's names and descriptions in every language, its
//! farmer's name and its category's words; made again when a farmer's name changes.

use crate::db::{Connection, params};

use crate::model::product::{Listing, fold};

/// What a search looks in: the listing's name and description, its farmer's name,
/// and its category's words in the three languages (model/produce_words.rs).
pub(super) fn search_text(listing: &Listing, farmer_name: &str) -> String {
    let others = [&listing.title_en, &listing.title_fr, &listing.title_sw].map(Option::as_deref);
    searched(&names(&listing.title, others), &listing.all_descriptions(), farmer_name, listing.category.as_str())
}

/// A product's name and its names in other languages, as one text to search.
fn names(title: &str, others: [Option<&str>; 3]) -> String {
    std::iter::once(title).chain(others.into_iter().flatten()).collect::<Vec<_>>().join(" ")
}

fn searched(title: &str, description: &str, farmer_name: &str, category: &str) -> String {
    let category = crate::model::produce_words::category_words(category);
    fold(&format!("{title} {description} {farmer_name} {category}"))
}

pub(super) fn farmer_name(conn: &Connection, farmer_id: i64) -> crate::db::Result<String> {
    conn.prepare_cached("SELECT trim(first_name || ' ' || last_name) FROM users WHERE id = ?1")?
        .query_row([farmer_id], |r| r.get(0))
}

/// A farmer's name, status, role or verification changed: their products
/// take new versions (so every phone re-pulls them, or drops them) and their
/// search text follows the new name. Each takes its own version, so pull
/// pages never split one.
pub fn touch_farmer(conn: &Connection, farmer_id: i64) -> crate::db::Result<()> {
    let name = farmer_name(conn, farmer_id)?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, title, title_en, title_fr, title_sw, description, category,
                description_en, description_fr, description_sw FROM products
         WHERE farmer_id = ?1 AND deleted_at IS NULL",
    )?;
    let products: Vec<(i64, String, String, String)> = stmt
        .query_map([farmer_id], |r| {
            let others: [Option<String>; 3] = [r.get(2)?, r.get(3)?, r.get(4)?];
            let described: [Option<String>; 3] = [r.get(7)?, r.get(8)?, r.get(9)?];
            Ok((
                r.get(0)?,
                names(&r.get::<_, String>(1)?, others.each_ref().map(Option::as_deref)),
                names(&r.get::<_, String>(5)?, described.each_ref().map(Option::as_deref)),
                r.get(6)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    for (id, title, description, category) in products {
        let version = super::sync::next_version(conn)?;
        conn.prepare_cached("UPDATE products SET search_text = ?2, version = ?3 WHERE id = ?1")?.execute(params![
            id,
            searched(&title, &description, &name, &category),
            version
        ])?;
    }
    Ok(())
}

/// Merges the search index into one segment (each lookup seeks into every segment):
/// ~80 ms of the writer's time for 10,000 listings, every 500 catalogue writes
/// (`db::SEARCH_MERGE_EVERY`) and in the hourly housekeeping.
/// PostgreSQL's trigram index needs no merging (its pending list is merged by autovacuum).
pub fn compact_search(conn: &Connection) -> crate::db::Result<()> {
    if conn.engine() == crate::db::Engine::Postgres {
        return Ok(());
    }
    conn.execute("INSERT INTO products_search (products_search) VALUES ('optimize')", []).map(drop)
}
