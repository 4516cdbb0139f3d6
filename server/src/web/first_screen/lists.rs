//! The lists' first screens: the marketplace's first products, the first courses and
//! the latest posts, as the app's cards draw them (`features/marketplace`, `training`,
//! `news`), in the app's default order. Searches are forms and categories links, so
//! they work before the app does (the app reads the same `?q=` and `?category=`).

use crate::db::Connection;

use crate::db::blogs::{self, BlogFilter, BlogRow};
use crate::db::catalogue::{self, CatalogueFilter, Sort};
use crate::db::courses::{self, CourseFilter, CourseRow, CourseSort};
use crate::db::products::ProductRow;
use crate::labels::Lang;
use crate::model::blog::BlogCategory;
use crate::model::course::{CourseCategory, Level};
use crate::model::product::{Category, Listing, fold};
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

use super::{CART, PIN, Query, icon, minutes, t, usd};
use crate::web::page::escape;

/// Cards in a list's first screen: a phone shows one or two, a wide screen a row. Each
/// card's picture shares a slow link with the app's code (Chrome fetches lazy pictures
/// well below the fold on slow links), so no more than a first screen needs.
const FIRST_CARDS: i64 = 4;

/// The marketplace (`features/marketplace/marketplace-page.tsx`).
pub async fn marketplace(state: &AppState, query: &Query, lang: Lang) -> Option<String> {
    let filter = CatalogueFilter {
        search: query.q.clone(),
        category: query.category.as_deref().and_then(Category::parse),
        sort: Sort::Name,
        ..Default::default()
    };
    let filtered = filter.search.is_some() || filter.category.is_some();
    let everything = CatalogueFilter::default();
    let (rows, shown, total) = first_page(state, filtered, true, move |conn, all, limit| {
        catalogue::catalogue(conn, if all { &everything } else { &filter }, limit, 0)
    })
    .await?;
    let sorts = ["name", "price_asc", "price_desc", "rating"].map(|s| (s, format!("market.sorts.{s}")));
    let categories = Category::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>();
    Some(format!(
        "<section class=\"page marketplace\" aria-labelledby=\"market-title\"><h1 id=\"market-title\">{}</h1>{}{}\
         <div class=\"market-status\"><p role=\"status\">{}</p><label class=\"checkbox compact\">\
         <input type=\"checkbox\" disabled{}><span>{}</span></label></div><ul class=\"product-grid\">{}</ul></section>",
        t(lang, "market.title"),
        search_form("/marketplace", "market", query, &sorts, lang),
        chips(
            "/marketplace",
            "category",
            &categories,
            query.category.as_deref(),
            "market.category",
            "market.categories",
            lang
        ),
        showing("market.showing", shown, total, lang),
        // The app's switch, shown as it will be; it works once the app runs.
        if query.save_data { " checked" } else { "" },
        t(lang, "market.save_data"),
        rows.iter().enumerate().map(|(i, p)| product_card(p, i == 0, query.save_data, lang)).collect::<String>(),
    ))
}

/// Training (`features/training/training-page.tsx`).
pub async fn training(state: &AppState, query: &Query, lang: Lang) -> Option<String> {
    let filter = CourseFilter {
        search: query.q.as_deref().map(fold).unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
        category: query.category.as_deref().and_then(CourseCategory::parse),
        level: query.level.as_deref().and_then(Level::parse),
        sort: CourseSort::Title,
    };
    let filtered = !filter.search.is_empty() || filter.category.is_some() || filter.level.is_some();
    let everything = CourseFilter { search: Vec::new(), category: None, level: None, sort: CourseSort::Title };
    let (rows, shown, total) = first_page(state, filtered, false, move |conn, all, limit| {
        courses::catalogue(conn, if all { &everything } else { &filter }, limit, 0)
    })
    .await?;
    let sorts = ["title", "price_asc", "price_desc", "rating", "duration"].map(|s| (s, format!("training.sorts.{s}")));
    let categories = CourseCategory::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>();
    let levels = Level::ALL.iter().map(|l| l.as_str()).collect::<Vec<_>>();
    Some(format!(
        "<section class=\"page marketplace training\" aria-labelledby=\"training-title\">\
         <h1 id=\"training-title\">{}</h1><p class=\"lead\">{}</p>{}{}{}<p role=\"status\">{}</p>\
         <ul class=\"product-grid\">{}</ul></section>",
        t(lang, "training.title"),
        t(lang, "training.intro"),
        search_form("/training", "training", query, &sorts, lang),
        chips(
            "/training",
            "category",
            &categories,
            query.category.as_deref(),
            "training.category",
            "training.categories",
            lang
        ),
        chips("/training", "level", &levels, query.level.as_deref(), "training.level", "training.levels", lang),
        showing("training.showing", shown, total, lang),
        rows.iter().enumerate().map(|(i, c)| course_card(c, i == 0, query.save_data, lang)).collect::<String>(),
    ))
}

/// News (`features/news/news-page.tsx`): the latest published posts.
pub async fn news(state: &AppState, query: &Query, lang: Lang) -> Option<String> {
    let filter = BlogFilter {
        words: query.q.as_deref().map(fold).unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
        category: query.category.as_deref().and_then(BlogCategory::parse),
        published: Some(true),
        language: None,
        // The reader's language first, as the app lists them (lib/entities/news.ts).
        first_language: Some(lang.code().to_owned()),
    };
    let filtered = !filter.words.is_empty() || filter.category.is_some();
    let everything =
        BlogFilter { published: Some(true), first_language: Some(lang.code().to_owned()), ..Default::default() };
    let (rows, shown, total) = first_page(state, filtered, false, move |conn, all, limit| {
        blogs::list(conn, if all { &everything } else { &filter }, limit, 0)
    })
    .await?;
    let categories = BlogCategory::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>();
    Some(format!(
        "<section class=\"page marketplace news\" aria-labelledby=\"news-title\"><header class=\"news-banner\">\
         <h1 id=\"news-title\">{}</h1><p class=\"lead\">{}</p>\
         <a class=\"muted\" href=\"/api/v1/blogs/feed.xml?lang={}\">{}</a></header>{}{}<p role=\"status\">{}</p>\
         <ul class=\"product-grid\">{}</ul></section>",
        t(lang, "news.title"),
        t(lang, "news.intro"),
        lang.code(),
        t(lang, "news.rss"),
        search_form("/news", "news", query, &[], lang),
        chips("/news", "category", &categories, query.category.as_deref(), "news.category", "news.categories", lang),
        showing("news.showing", shown, total, lang),
        rows.iter().enumerate().map(|(i, b)| post_card(b, i == 0, query.save_data, lang)).collect::<String>(),
    ))
}

/// A list's first cards, how many match and how many there are in all; `None` when
/// nothing matches (the app's own words for that, and its button to clear the search).
/// `page(conn, all, limit)`: the list's page, of everything when `all`.
/// `versioned`: the catalogue's, which may be read on a replica (`Db::read_versioned`).
async fn first_page<R, P>(state: &AppState, filtered: bool, versioned: bool, page: P) -> Option<(Vec<R>, i64, i64)>
where
    R: Send + 'static,
    P: Fn(&Connection, bool, i64) -> crate::db::Result<(Vec<R>, i64)> + Send + 'static,
{
    let read = move |conn: &Connection| {
        let (rows, shown) = page(conn, false, FIRST_CARDS)?;
        let total = if filtered { page(conn, true, 0)?.1 } else { shown };
        Ok((rows, shown, total))
    };
    let read = if versioned { state.db.read_versioned(read).await } else { state.db.read(read).await };
    let (rows, shown, total) = read.ok()?;
    (!rows.is_empty()).then_some((rows, shown, total))
}

/// The search field (and sort, if the list has one) as a form that loads the page with `?q=`.
fn search_form(action: &str, section: &str, query: &Query, sorts: &[(&str, String)], lang: Lang) -> String {
    let sort = if sorts.is_empty() {
        String::new()
    } else {
        let options = sorts
            .iter()
            .map(|(value, key)| format!("<option value=\"{value}\">{}</option>", t(lang, key)))
            .collect::<String>();
        format!(
            "<div class=\"field\"><label for=\"first-sort\">{}</label><select id=\"first-sort\" name=\"sort\">{options}</select></div>",
            t(lang, &format!("{section}.sort"))
        )
    };
    // Until the app runs, a word typed here is searched a moment after the last key, as in
    // the app (which, once it takes over, carries the word over), by the first screen's
    // script (lib/first-screen.ts): the list's status line says it is searching
    // (`data-searching`) and, with no answer, that the keyboard's search key searches
    // (`data-enter`: this form's plain send).
    format!(
        "<form class=\"market-tools\" action=\"{action}\" role=\"search\"><div class=\"field\">\
         <label for=\"first-q\">{}</label><input id=\"first-q\" name=\"q\" type=\"search\" maxlength=\"100\" \
         enterkeyhint=\"search\" placeholder=\"{}\" value=\"{}\" data-searching=\"{}\" data-enter=\"{}\"></div>{sort}</form>",
        t(lang, &format!("{section}.search")),
        t(lang, &format!("{section}.search_placeholder")),
        escape(query.q.as_deref().unwrap_or("")),
        t(lang, "common.search_typed"),
        t(lang, "common.search_enter"),
    )
}

/// A row of chips ("all" first) as links setting `?{param}=`; the current one marked.
/// `labels`: the catalogue's keys for the values (`{labels}.{value}`); `group`: the row's name.
fn chips(
    path: &str,
    param: &str,
    values: &[&str],
    current: Option<&str>,
    labels: &str,
    group: &str,
    lang: Lang,
) -> String {
    let links = std::iter::once(None)
        .chain(values.iter().copied().map(Some))
        .map(|value| {
            let marked = if value == current { " aria-current=\"page\"" } else { "" };
            let href = value.map_or(path.to_owned(), |v| format!("{path}?{param}={}", escape(v)));
            format!(
                "<a class=\"chip\" href=\"{href}\"{marked}>{}</a>",
                t(lang, &format!("{labels}.{}", value.unwrap_or("all")))
            )
        })
        .collect::<String>();
    format!("<div class=\"chips\" role=\"group\" aria-label=\"{}\">{links}</div>", t(lang, group))
}

fn showing(key: &str, shown: i64, total: i64, lang: Lang) -> String {
    escape(&lang.plural(key, shown, &[("total", &total.to_string())]))
}

/// A card's picture at 320 px, the first one fetched at once (the page's largest content);
/// none when the browser asks to save data (the app then offers to show it).
fn picture(hash: Option<&str>, alt: &str, first: bool, save_data: bool) -> String {
    match hash.filter(|_| !save_data) {
        Some(hash) => format!(
            "<img class=\"product-image\" src=\"{}\" alt=\"{alt}\" width=\"320\" height=\"240\" {} decoding=\"async\">",
            MediaStore::url(hash, media::THUMBNAIL),
            super::loading(first),
        ),
        None => "<div class=\"product-image placeholder\" aria-hidden=\"true\"></div>".to_owned(),
    }
}

/// The app's `Stars`: five stars, the rating and the number of reviews.
pub(super) fn stars(rating: f64, reviews: i64, lang: Lang) -> String {
    if reviews == 0 {
        return format!("<span class=\"stars none\">{}</span>", t(lang, "market.no_reviews"));
    }
    let shown = format!("{rating:.1}");
    let full = (rating.round().clamp(0.0, 5.0)) as usize;
    format!(
        "<span class=\"stars\" role=\"img\" aria-label=\"{}\"><span aria-hidden=\"true\">{}{}</span>\
         <span class=\"muted\" aria-hidden=\"true\"> {shown} ({reviews})</span></span>",
        escape(&lang.plural("market.rating", reviews, &[("rating", &shown)])),
        "★".repeat(full),
        "☆".repeat(5 - full),
    )
}

/// A product's card; its quick add is a link to the product (the cart is the app's).
fn product_card(p: &ProductRow, first: bool, save_data: bool, lang: Lang) -> String {
    let l = &p.listing;
    let title = escape(product_title(l, lang));
    let href = format!("/product/{}", p.id);
    let organic = if l.certifications.iter().any(|c| c == "organic") {
        format!("<span class=\"badge green organic\">{}</span>", t(lang, "market.certifications.organic"))
    } else {
        String::new()
    };
    let location = p.farmer.location.as_deref().filter(|l| !l.is_empty()).map_or(String::new(), |place| {
        format!("<p class=\"muted location\">{} {}</p>", icon(PIN), escape(&lang.place(place)))
    });
    let (lot_badge, lot_line) = p.lot.as_ref().map_or((String::new(), String::new()), |lot| {
        (super::lot_badge(lang), format!("<p class=\"muted lot-line\">{}</p>", escape(&super::lot_line(lot, lang))))
    });
    let unit = l.unit.as_str();
    let (least, most) = order_range(l.min_order, l.max_order, l.quantity);
    let stock = if l.quantity <= 0 || least > most {
        t(lang, "market.sold_out")
    } else {
        let counted = lang.plural(&format!("market.units_counted.{unit}"), l.quantity, &[]);
        escape(&lang.plural("market.in_stock", l.quantity, &[("unit", &counted)]))
    };
    format!(
        "<li class=\"card product-card\"><div class=\"product-media\">{}{organic}{lot_badge}</div><div class=\"product-body\">\
         <h2><a href=\"{href}\">{title}</a></h2>{}{lot_line}{location}<p class=\"description\">{}</p>{}\
         <p class=\"muted\">{} · {stock}</p><div class=\"actions\"><a class=\"button small\" href=\"{href}\">{} {}</a>\
         <a class=\"button secondary small\" href=\"{href}\">{}</a></div></div></li>",
        match l.images.first() {
            Some(hash) => picture(Some(hash), &title, first, save_data),
            None => drawn(l.category),
        },
        stars(p.rating, p.review_count, lang),
        escape(l.description_in(lang.code())),
        price(l, lang),
        escape(&lang.format("market.by", &[("name", &p.farmer.name)])),
        icon(CART),
        t(lang, "market.add_to_cart"),
        t(lang, "market.view_details"),
    )
}

/// The app's `Price`: "$1.20 / kg", the original price struck through only when it was higher.
pub(super) fn price(l: &Listing, lang: Lang) -> String {
    let was = if l.current_price < l.price {
        let price = usd(lang, l.price);
        let label = escape(&lang.format("market.was", &[("price", &price)]));
        format!("<del class=\"muted was-price\" aria-label=\"{label}\">{price}</del>")
    } else {
        String::new()
    };
    format!(
        "<span class=\"price\"><strong>{}</strong><span class=\"muted\"> / {}</span>{was}</span>",
        usd(lang, l.current_price),
        t(lang, &format!("market.units.{}", l.unit.as_str()))
    )
}

/// What a product with no photo yet shows (one put on sale from a basic phone): a
/// drawing of its category, in the stylesheet.
pub(super) fn drawn(category: crate::model::product::Category) -> String {
    format!(
        "<div class=\"product-image placeholder\" data-category=\"{}\" aria-hidden=\"true\"></div>",
        category.as_str()
    )
}

/// A product's name in the reader's language, if its farmer gave one (`productTitle`).
pub(super) fn product_title(l: &Listing, lang: Lang) -> &str {
    l.title_in(lang.code())
}

/// The quantities a buyer may order, as the app's `orderRange` (lib/entities/catalogue.ts).
fn order_range(min_order: f64, max_order: Option<f64>, quantity: i64) -> (i64, i64) {
    let least = (min_order.ceil() as i64).max(1);
    let most = max_order.map_or(quantity, |max| quantity.min(max.floor() as i64));
    (least, most)
}

/// A course's card (`CourseCard`, `course-parts.tsx`).
fn course_card(c: &CourseRow, first: bool, save_data: bool, lang: Lang) -> String {
    let f = &c.fields;
    let href = format!("/course/{}", c.id);
    let certificate = if f.certificate {
        format!(" <span class=\"badge green\">{}</span>", t(lang, "training.certificate_badge"))
    } else {
        String::new()
    };
    let price = if f.price == 0 { t(lang, "training.free") } else { usd(lang, f.price) };
    format!(
        "<li class=\"card product-card\"><div class=\"product-media\">{}</div><div class=\"product-body\">\
         <p class=\"badges\"><span class=\"badge blue\">{}</span> <span class=\"badge grey\">{}</span>{certificate}</p>\
         <h2><a href=\"{href}\">{}</a></h2>{}<p class=\"muted\">{}</p><p class=\"description\">{}</p>\
         <p class=\"muted course-facts\">{} · {} · {}</p><p><span class=\"price\">{price}</span></p>\
         <div class=\"actions\"><a class=\"button small\" href=\"{href}\">{}</a></div></div></li>",
        picture(f.cover_image.as_deref(), "", first, save_data),
        t(lang, &format!("training.level.{}", f.level.as_str())),
        t(lang, &format!("training.languages.{}", f.language.as_str())),
        escape(&f.title),
        stars(c.rating, c.rating_count, lang),
        escape(&lang.format("training.by", &[("name", &f.instructor_name)])),
        escape(&f.description),
        minutes(lang, c.minutes),
        escape(&lang.plural("training.lesson_count", c.lesson_count, &[])),
        escape(&lang.plural("training.enrolled_count", c.enrolled, &[])),
        t(lang, "training.view_course"),
    )
}

/// A post's card (`PostCard`, `news-page.tsx`), in the post's own language.
fn post_card(b: &BlogRow, first: bool, save_data: bool, lang: Lang) -> String {
    let f = &b.fields;
    let href = format!("/news/{}", b.id);
    let title = escape(&f.title);
    format!(
        "<li class=\"card product-card post-card\" lang=\"{}\"><div class=\"product-media\">{}</div>\
         <div class=\"product-body\"><p class=\"badges\"><span class=\"badge blue\">{}</span> \
         <span class=\"badge grey\">{}</span>{}</p><p class=\"muted\">{} · {}</p><h2><a href=\"{href}\">{title}</a></h2>\
         <p class=\"description\">{}</p><div class=\"actions\">\
         <a class=\"button small\" href=\"{href}\" aria-label=\"{}\">{}</a></div></div></li>",
        f.language.as_str(),
        picture(f.image.as_deref(), "", first, save_data),
        super::read_time(f, lang),
        t(lang, &format!("news.category.{}", f.category.as_str())),
        // A post in another language than the reader's says which.
        if f.language.as_str() == lang.code() {
            String::new()
        } else {
            format!(
                " <span class=\"badge yellow\">{}</span>",
                t(lang, &format!("training.languages.{}", f.language.as_str()))
            )
        },
        lang.long_date(b.published_at.as_deref().unwrap_or(&b.created_at)),
        escape(&f.author),
        escape(&f.description),
        escape(&lang.format("news.read_more_about", &[("title", &f.title)])),
        t(lang, "news.read_more"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_range_is_the_apps() {
        assert_eq!(order_range(5.0, None, 200), (5, 200));
        assert_eq!(order_range(0.5, Some(100.0), 200), (1, 100));
        assert_eq!(order_range(10.0, Some(50.0), 4), (10, 4));
    }

    #[test]
    fn chips_link_to_their_filter_and_mark_the_current_one() {
        let fr = Lang::parse(Some("fr"));
        let levels = ["beginner", "advanced"];
        let row = chips("/training", "level", &levels, Some("advanced"), "training.level", "training.levels", fr);
        assert!(row.contains(&format!("aria-label=\"{}\"", t(fr, "training.levels"))));
        assert!(row.contains("<a class=\"chip\" href=\"/training\">"));
        assert!(row.contains("<a class=\"chip\" href=\"/training?level=advanced\" aria-current=\"page\">"));
        assert_eq!(row.matches("aria-current").count(), 1);
    }

    #[test]
    fn stars_round_the_rating_and_say_it() {
        let html = stars(4.46, 12, Lang::EN);
        assert!(html.contains("★★★★☆"));
        assert!(html.contains(" 4.5 (12)"));
        assert!(stars(9.0, 3, Lang::EN).contains("★★★★★<"));
        let none = stars(0.0, 0, Lang::parse(Some("fr")));
        assert!(none.contains("Pas encore d&#39;avis") && !none.contains('☆'), "not five empty stars: {none}");
    }

    #[test]
    fn the_provinces_we_write_read_in_the_reader_s_language() {
        assert_eq!(Lang::parse(Some("fr")).place("Kabare, South Kivu"), "Kabare, Sud-Kivu");
        assert_eq!(Lang::parse(Some("sw")).place("Goma, North Kivu"), "Goma, Kivu Kaskazini");
        assert_eq!(Lang::parse(Some("fr")).place("Rusizi"), "Rusizi");
    }
}
