//! The public catalogue: what buyers filter, sort and search listings by, and its pages
//! (`GET /products`, the marketplace's first screen).

use crate::db::{Connection, Engine, Value, params_from_iter};
use crate::model::produce_words;
use crate::model::product::{Category, fold};

use super::products::{COLUMNS, LISTED, ProductRow, from_row, select_with};

/// The price buckets of docs/product.md, Constants, on the marketplace price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceBucket {
    Under10,
    From10To50,
    Over50,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Newest first: the order when nothing is chosen.
    #[default]
    Newest,
    Name,
    PriceUp,
    PriceDown,
    Rating,
}

#[derive(Debug, Clone, Default)]
pub struct CatalogueFilter {
    pub search: Option<String>,
    pub category: Option<Category>,
    pub price: Option<PriceBucket>,
    pub sort: Sort,
}

impl CatalogueFilter {
    /// The filter over `products p` alone (no join: counts stay on an index). Words of
    /// three letters or more are looked up in the trigram index; shorter ones are
    /// matched in the text of what that leaves (or of every product, if nothing does).
    fn sql(&self, engine: Engine) -> (String, Vec<Value>) {
        let mut sql = String::from(LISTED);
        let mut values: Vec<Value> = Vec::new();
        if let Some(search) = self.search.as_deref().map(fold) {
            // Each word with its names in the other languages (model/produce_words.rs).
            let (indexed, short): (Vec<Vec<String>>, Vec<Vec<String>>) = produce_words::search_words(&search)
                .into_iter()
                .partition(|names| names.iter().all(|name| name.chars().count() >= 3));
            let short: Vec<&str> = short.iter().flatten().map(String::as_str).collect();
            if !indexed.is_empty() && engine == Engine::Postgres {
                // Trigrams index LIKE (pg_trgm): each name anywhere in the folded text.
                let like = |values: &mut Vec<Value>, name: &str| {
                    values.push(Value::Text(crate::db::like_pattern(name)));
                    format!("p.search_text LIKE ?{} ESCAPE '\\'", values.len())
                };
                let asked = |other: &&str| indexed.iter().flatten().any(|name| name == other);
                for names in &indexed {
                    let mut any = Vec::new();
                    for name in names {
                        let others: Vec<&str> =
                            produce_words::inside_other_names(name).into_iter().filter(|o| !asked(o)).collect();
                        let mut one = like(&mut values, name);
                        for other in others {
                            one = format!("{one} AND NOT {}", like(&mut values, other));
                        }
                        any.push(format!("({one})"));
                    }
                    sql.push_str(&format!(" AND ({})", any.join(" OR ")));
                }
            } else if !indexed.is_empty() {
                // Each name a quoted phrase: the text's own quotes doubled, nothing read as syntax;
                // not where it is part of another produce's name ("bean" in "coffee beans").
                // Another produce the search asks for too ("arabica coffee beans") stays findable.
                let quote = |name: &str| format!("\"{}\"", name.replace('"', "\"\""));
                let asked = |other: &&str| indexed.iter().flatten().any(|name| name == other);
                let name = |name: &String| {
                    let others: Vec<String> =
                        produce_words::inside_other_names(name).into_iter().filter(|o| !asked(o)).map(quote).collect();
                    match others.as_slice() {
                        [] => quote(name),
                        _ => format!("({} NOT ({}))", quote(name), others.join(" OR ")),
                    }
                };
                let words: Vec<String> = indexed
                    .iter()
                    .map(|names| format!("({})", names.iter().map(name).collect::<Vec<_>>().join(" OR ")))
                    .collect();
                values.push(Value::Text(words.join(" AND ")));
                // The table-valued form, not `MATCH ?`: FTS5 looks at a MATCH's bound
                // text when planning, so each new search re-planned the whole statement
                // (a quarter of a distinct search's time).
                sql.push_str(&format!(" AND p.id IN (SELECT rowid FROM products_search(?{}))", values.len()));
            }
            // `instr`, not LIKE: a LIKE's bound pattern is also re-planned when it changes
            // (and both texts are folded, so the comparison is the same).
            for word in short {
                values.push(Value::Text(word.to_owned()));
                let param = format!("?{}", values.len());
                sql.push_str(&format!(" AND {}", crate::db::dialect::contains(engine, "p.search_text", &param)));
            }
        }
        if let Some(category) = self.category {
            values.push(Value::Text(category.as_str().to_owned()));
            sql.push_str(&format!(" AND p.category = ?{}", values.len()));
        }
        sql.push_str(match self.price {
            None => "",
            Some(PriceBucket::Under10) => " AND p.current_price_cents < 1000",
            Some(PriceBucket::From10To50) => " AND p.current_price_cents BETWEEN 1000 AND 5000",
            Some(PriceBucket::Over50) => " AND p.current_price_cents > 5000",
        });
        (sql, values)
    }

    fn order(&self, engine: Engine) -> &'static str {
        match self.sort {
            Sort::Newest => "p.id DESC",
            Sort::Name => match engine {
                Engine::Sqlite => "p.title COLLATE NOCASE, p.id",
                Engine::Postgres => "lower(p.title), p.id",
            },
            Sort::PriceUp => "p.current_price_cents, p.id",
            Sort::PriceDown => "p.current_price_cents DESC, p.id",
            Sort::Rating => "p.rating DESC, p.review_count DESC, p.id",
        }
    }
}

/// One page of the catalogue and how many products match in all.
pub fn catalogue(
    conn: &Connection,
    filter: &CatalogueFilter,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<ProductRow>, i64)> {
    let (sql, mut values) = filter.sql(conn.engine());
    let page = |values: &mut Vec<Value>, more: &str| {
        values.extend([Value::Integer(limit), Value::Integer(offset)]);
        format!(
            "{} ORDER BY {} LIMIT ?{} OFFSET ?{}",
            select_with(more, &sql),
            filter.order(conn.engine()),
            values.len() - 1,
            values.len()
        )
    };
    if conn.engine() == Engine::Postgres && filter.search.is_some() {
        // A search: the page and its count in one statement, planned once per connection
        // (PostgreSQL planned a search for each one's words; that was most of its time).
        // An empty first page matches nothing; a page past the end (or of no rows) has
        // no row to carry the count: counted on its own then.
        let mut counted = values.clone();
        let statement = page(&mut counted, ", COUNT(*) OVER ()");
        let searching = conn.begin_read_planned_once()?;
        let mut total = None;
        let rows = searching
            .prepare_cached(&statement)?
            .query_map(params_from_iter(counted), |row| {
                total = Some(row.get(COLUMNS)?);
                from_row(row)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        match total {
            Some(total) => return Ok((rows, total)),
            None if offset == 0 && limit > 0 => return Ok((rows, 0)),
            None => {}
        }
    }
    let total: i64 = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM products p WHERE {sql}"))?
        .query_row(params_from_iter(values.clone()), |r| r.get(0))?;
    if offset >= total {
        // Nothing matches (a search for a word nobody sells), or the page is past the end.
        return Ok((Vec::new(), total));
    }
    let page = page(&mut values, "");
    let rows = conn.prepare_cached(&page)?.query_map(params_from_iter(values), from_row)?.collect::<Result<_, _>>()?;
    Ok((rows, total))
}

/// Searches as buyers type them (a produce; a produce and a place; a produce, a word and a
/// number), run once on each new PostgreSQL reader: its first searches loaded the
/// trigram index's and operators' catalog entries and planned each shape, which made the
/// first seconds of a server's searches several times slower than the rest.
const WARM_UP: &[&str] = &["maize", "beans kabare", "fresh tomatoes 20", "honey 5"];

/// Runs `WARM_UP` and the first page on `conn`; what fails is left to the real searches.
pub fn warm(conn: &Connection) {
    for search in WARM_UP {
        let filter = CatalogueFilter { search: Some((*search).to_owned()), ..CatalogueFilter::default() };
        drop(catalogue(conn, &filter, 20, 0));
    }
    drop(catalogue(conn, &CatalogueFilter::default(), 20, 0));
}
