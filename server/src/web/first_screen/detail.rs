//! The first screens of one thing: a product (`features/marketplace/product-page.tsx`):
//! the way back, its picture, name, rating, price, description and farmer; a news post
//! (`features/news/article-page.tsx`), whole; a course (`features/training/course-page.tsx`):
//! its outline, instructor and price, and for a visitor the way to enrol. What a reader
//! does with them (favourite, add to cart, comment, enrol) comes with the app. And the
//! public check of a certificate (`features/training/certificate-page.tsx`).

use crate::db::courses::{self, CourseRow, ModuleRow};
use crate::db::{blogs, enrolments, products};
use crate::labels::Lang;
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

use super::lists::{price, product_title, stars};
use super::{Query, minutes, t, usd};
use crate::web::page::escape;

/// How wide each page draws its main picture, so the browser can choose between the
/// 720 and 1024 px files before any style is loaded: the app's words
/// (`pwa/src/lib/picture-sizes.ts`), so it chooses the same file again when the app takes over.
const PRODUCT_PICTURE: &str = "(min-width: 1120px) 532px, (min-width: 700px) 50vw, calc(100vw - 32px)";
const COURSE_PICTURE: &str = "(min-width: 1120px) 312px, (min-width: 900px) 27vw, calc(100vw - 74px)";
const ARTICLE_PICTURE: &str = "(min-width: 560px) 528px, calc(100vw - 32px)";

/// A page's main picture (the app's `ProductImage` with `sizes`): 720 px on a phone, 1024 px
/// wider; `first` at the page's top (`priority`), else in a side column a phone shows far
/// below (fetched when near); its place kept empty when the browser asks to save data (the
/// app then offers to show it).
fn main_picture(hash: Option<&str>, alt: &str, save_data: bool, sizes: &str, first: bool) -> String {
    match hash.filter(|_| !save_data) {
        Some(hash) => {
            let (medium, display) = (MediaStore::url(hash, media::MEDIUM), MediaStore::url(hash, media::DISPLAY));
            let loading = super::loading(first);
            format!(
                "<img class=\"product-image\" sizes=\"{sizes}\" srcset=\"{medium} 720w, {display} 1024w\" \
                 src=\"{display}\" alt=\"{alt}\" width=\"1024\" height=\"768\" {loading} decoding=\"async\">"
            )
        }
        None => "<div class=\"product-image placeholder\" aria-hidden=\"true\"></div>".to_owned(),
    }
}

pub async fn product(state: &AppState, id: i64, query: &Query, lang: Lang) -> Option<String> {
    let p = state.db.read_versioned(move |conn| Ok(products::find_listed(conn, id)?)).await.ok()??;
    let l = &p.listing;
    let title = escape(product_title(l, lang));
    let picture = match l.images.first() {
        Some(hash) => main_picture(Some(hash), &title, query.save_data, PRODUCT_PICTURE, true),
        None => super::lists::drawn(l.category),
    };
    let verified = if p.farmer.verified {
        format!("<span class=\"badge green\">{}</span>", t(lang, "market.verified"))
    } else {
        String::new()
    };
    let place = [
        p.farmer.location.as_deref().filter(|l| !l.is_empty()).map(|l| lang.place(l)),
        (p.farmer.rating > 0.0).then(|| format!("★ {:.1}", p.farmer.rating)),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let lot = p.lot.as_ref().map_or(String::new(), |lot| lot_details(lot, lang));
    Some(format!(
        "<article class=\"page product-page\"><nav class=\"breadcrumb\" aria-label=\"{}\"><a href=\"/marketplace\">{}</a> › \
         <span>{}</span> › <span aria-current=\"page\">{title}</span></nav><div class=\"product-layout\">\
         <div class=\"gallery\">{picture}</div><div class=\"product-info\"><div class=\"product-title\"><h1>{title}</h1></div>\
         {}<p class=\"big-price\">{}</p>\
         <p>{}</p>{lot}<section class=\"card farmer-card\" aria-label=\"{}\"><span class=\"initial\" aria-hidden=\"true\">{}</span>\
         <div><strong>{}</strong>{verified}<p class=\"muted\">{}</p></div></section></div></div></article>",
        t(lang, "market.breadcrumb"),
        t(lang, "market.title"),
        t(lang, &format!("market.category.{}", l.category.as_str())),
        stars(p.rating, p.review_count, lang),
        price(l, lang),
        escape(l.description_in(lang.code())),
        t(lang, "market.farmer"),
        escape(&p.farmer.name.chars().take(1).collect::<String>()),
        escape(&p.farmer.name),
        escape(&place),
    ))
}

/// The app's `LotDetails`: whose lot, where to collect it, its cooperative's page and
/// its origin to download (public files, plain links).
fn lot_details(lot: &crate::model::cooperative::LotCard, lang: Lang) -> String {
    let download = |path: String, key: &str| {
        format!(
            "<a class=\"button secondary small\" href=\"/api/v1/lots/{}/{path}\" download>{} {}</a>",
            lot.id,
            super::icon(super::DOWNLOAD),
            t(lang, key)
        )
    };
    format!(
        "<section class=\"card lot-details\" aria-label=\"{badge_label}\">{}<p>{}</p><p>{}</p>\
         <p><a href=\"/cooperatives/{}\">{}</a></p><p class=\"muted\">{}</p><div class=\"actions\">{}{}</div></section>",
        super::lot_badge(lang),
        escape(&super::lot_line(lot, lang)),
        escape(
            &lang.format(
                "cooperative.lot_pickup",
                &[("place", &lot.pickup), ("days", &lang.week_days(&lot.pickup_days))]
            )
        ),
        lot.cooperative_id,
        escape(&lang.format("cooperative.public.about", &[("coop", &lot.cooperative_name)])),
        t(lang, "cooperative.origin_hint"),
        download(format!("origin.csv?lang={}", lang.code()), "cooperative.origin_csv"),
        download("origin.geojson".to_owned(), "cooperative.origin_geojson"),
        badge_label = t(lang, "cooperative.lot_badge"),
    )
}

/// A published news post, whole: its words are HTML the server sanitised before storing
/// them (and the page's content security policy stops scripts besides).
pub async fn article(state: &AppState, id: i64, query: &Query, lang: Lang) -> Option<String> {
    let b = state.db.read(move |conn| Ok(blogs::find(conn, id)?)).await.ok()??;
    let f = &b.fields;
    if !f.published || b.deleted_at.is_some() {
        return None;
    }
    Some(format!(
        "<article class=\"page narrow article\" lang=\"{}\" aria-labelledby=\"article-title\"><a href=\"/news\">← {}</a>\
         <p class=\"badges\"><span class=\"badge grey\">{}</span></p><h1 id=\"article-title\">{}</h1>\
         <p class=\"muted\">{} · {} · {}</p>{}<div class=\"article-content\">{}</div></article>",
        f.language.as_str(),
        t(lang, "news.back"),
        t(lang, &format!("news.category.{}", f.category.as_str())),
        escape(&f.title),
        lang.long_date(b.published_at.as_deref().unwrap_or(&b.created_at)),
        escape(&f.author),
        super::read_time(f, lang),
        f.image.as_deref().map_or(String::new(), |hash| main_picture(
            Some(hash),
            "",
            query.save_data,
            ARTICLE_PICTURE,
            true
        )),
        f.full_content,
    ))
}

/// A listed course, as the app draws it for a visitor.
pub async fn course(state: &AppState, id: i64, query: &Query, lang: Lang) -> Option<String> {
    let (c, modules) = state
        .db
        .read(move |conn| {
            let Some(course) = courses::find(conn, id)?.filter(CourseRow::is_listed) else { return Ok(None) };
            Ok(Some((course, courses::modules(conn, id, false)?)))
        })
        .await
        .ok()??;
    let f = &c.fields;
    let title = escape(&f.title);
    let certificate = if f.certificate {
        format!("<span class=\"badge green\">{}</span>", t(lang, "training.certificate_badge"))
    } else {
        String::new()
    };
    let instructor_photo = match &f.instructor_photo {
        Some(hash) => format!(
            "<img class=\"avatar\" src=\"{}\" alt=\"\" width=\"56\" height=\"56\">",
            MediaStore::url(hash, media::THUMBNAIL)
        ),
        None => super::pages::avatar(56),
    };
    let bio = if f.instructor_bio.is_empty() { String::new() } else { format!("<p>{}</p>", escape(&f.instructor_bio)) };
    let stat = |label: &str, value: &str| format!("<div><dt>{}</dt><dd>{value}</dd></div>", t(lang, label));
    let language = t(lang, &format!("training.languages.{}", f.language.as_str()));
    let price = if f.price == 0 { t(lang, "training.free") } else { usd(lang, f.price) };
    let money_back =
        if f.price > 0 { format!("<p class=\"muted\">{}</p>", t(lang, "training.money_back")) } else { String::new() };
    Some(format!(
        "<article class=\"page product-page course-page\"><nav class=\"breadcrumb\" aria-label=\"{}\">\
         <a href=\"/\">{}</a> › <a href=\"/training\">{}</a> › <span aria-current=\"page\">{title}</span></nav>\
         <div class=\"product-layout\"><div class=\"course-main\"><h1>{title}</h1>{}\
         <p class=\"badges\"><span class=\"badge blue\">{}</span> <span class=\"badge grey\">{language}</span> {certificate}</p>\
         <p>{}</p><section class=\"card instructor\" aria-labelledby=\"instructor-title\">\
         <h2 id=\"instructor-title\">{}</h2><div class=\"instructor-row\">{instructor_photo}<div><p><strong>{}</strong></p>\
         <p class=\"muted\">{}</p></div></div>{bio}</section><dl class=\"course-stats\">{}{}{}{}</dl>\
         <section aria-labelledby=\"modules-title\"><h2 id=\"modules-title\">{}</h2><ol class=\"module-list\">{}</ol></section>\
         {}{}<div class=\"enrol-bar mobile-only\"><span class=\"price\">{price}</span>\
         <a class=\"button small\" href=\"#enrolment\">{}</a></div></div>\
         <aside id=\"enrolment\" class=\"card course-sidebar\" aria-label=\"{}\">{}<p><span class=\"price\">{price}</span></p>\
         {money_back}<div class=\"actions column\"><a class=\"button\" href=\"/login?next=/course/{id}\">{}</a>\
         <a class=\"button secondary\" href=\"/register\">{}</a></div></aside></div></article>",
        t(lang, "market.breadcrumb"),
        t(lang, "training.home"),
        t(lang, "training.title"),
        stars((c.rating * 10.0).round() / 10.0, c.rating_count, lang),
        t(lang, &format!("training.level.{}", f.level.as_str())),
        escape(&f.description),
        t(lang, "training.instructor"),
        escape(&f.instructor_name),
        escape(&f.instructor_title),
        stat("training.stats.duration", &minutes(lang, c.minutes)),
        stat("training.stats.lessons", &c.lesson_count.to_string()),
        stat("training.stats.enrolled", &c.enrolled.to_string()),
        stat("training.stats.language", &language),
        t(lang, "training.modules"),
        modules.iter().map(|m| module(m, lang)).collect::<String>(),
        list("outcomes", "training.outcomes", " class=\"checks\"", &f.outcomes, lang),
        list("requirements", "training.requirements", "", &f.requirements, lang),
        t(lang, "training.enrol"),
        t(lang, "training.enrolment"),
        main_picture(f.cover_image.as_deref(), "", query.save_data, COURSE_PICTURE, false),
        t(lang, "training.login_to_enrol"),
        t(lang, "training.create_account"),
    ))
}

/// A module of the outline: its title, lessons and time.
fn module(m: &ModuleRow, lang: Lang) -> String {
    let count = i64::try_from(m.lessons.len()).unwrap_or(i64::MAX);
    format!(
        "<li><strong>{}</strong> <span class=\"muted\">{} · {}</span></li>",
        escape(&m.title),
        escape(&lang.plural("training.lesson_count", count, &[])),
        minutes(lang, m.lessons.iter().map(|l| l.minutes).sum()),
    )
}

/// The outcomes or requirements, when the course has any.
fn list(id: &str, heading: &str, class: &str, items: &[String], lang: Lang) -> String {
    if items.is_empty() {
        return String::new();
    }
    let items = items.iter().map(|item| format!("<li>{}</li>", escape(item))).collect::<String>();
    format!(
        "<section aria-labelledby=\"{id}-title\"><h2 id=\"{id}-title\">{}</h2><ul{class}>{items}</ul></section>",
        t(lang, heading)
    )
}

/// The check of the certificate at `/certificates/{typed}`: genuine, with its learner,
/// course and day, or unknown. A code with anything but letters, digits and dashes
/// keeps the shell (the app says it as it was typed).
pub async fn certificate(state: &AppState, typed: &str, lang: Lang) -> Option<String> {
    if typed.is_empty() || typed.len() > 40 || !typed.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    let code = crate::model::course::certificate_code(typed);
    let found = state
        .db
        .read(move |conn| {
            let Some((found, _, course_id)) = enrolments::certificate(conn, &code)? else { return Ok(None) };
            let listed = courses::find(conn, course_id)?.is_some_and(|c| c.is_listed());
            Ok(Some((found, listed.then_some(course_id))))
        })
        .await
        .ok()?;
    let check = match found {
        None => format!(
            "<p role=\"alert\" class=\"card notice\">{}</p>",
            escape(&lang.format("training.check_unknown", &[("code", typed)]))
        ),
        Some((found, course_id)) => {
            let course = escape(&found.course_title);
            let course = course_id.map_or(course.clone(), |id| format!("<a href=\"/course/{id}\">{course}</a>"));
            let row = |label: &str, value: &str| format!("<dt>{}</dt><dd>{value}</dd>", t(lang, label));
            format!(
                "<div class=\"card\"><p class=\"badge green\">{}</p><dl>{}{}{}{}</dl></div>",
                t(lang, "training.check_valid"),
                row("training.check_learner", &escape(&found.learner_name)),
                row("training.check_course", &course),
                row("training.check_issued", &lang.long_date(&found.issued_at)),
                row("training.check_code", &format!("<code>{}</code>", escape(&found.code))),
            )
        }
    };
    Some(format!(
        "<section class=\"page narrow certificate-check\" aria-labelledby=\"check-title\">\
         <h1 id=\"check-title\">{}</h1>{check}</section>",
        t(lang, "training.check_title")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_pictures_are_sized_in_the_words_of_the_app() {
        let app = include_str!("../../../../pwa/src/lib/picture-sizes.ts");
        for sizes in [PRODUCT_PICTURE, COURSE_PICTURE, ARTICLE_PICTURE] {
            assert!(app.contains(&format!("'{sizes}'")), "the app draws {sizes:?} otherwise");
        }
        let hash = "ab".repeat(32);
        let picture = main_picture(Some(&hash), "Maize", false, PRODUCT_PICTURE, true);
        assert!(picture.contains(&format!("srcset=\"/media/{hash}-720.jpg 720w, /media/{hash}-1024.jpg 1024w\"")));
        assert!(picture.contains("fetchpriority=\"high\"") && !picture.contains("lazy"));
        let aside = main_picture(Some(&hash), "", false, COURSE_PICTURE, false);
        assert!(aside.contains("loading=\"lazy\"") && !aside.contains("fetchpriority"), "{aside}");
        assert!(!main_picture(Some(&hash), "Maize", true, PRODUCT_PICTURE, true).contains("<img"), "save data");
    }
}
