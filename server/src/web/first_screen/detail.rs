//! A product's first screen (`features/marketplace/product-page.tsx`): the way back, its
//! picture, name, rating, price, description and farmer. What a buyer does with it
//! (favourite, quantity, add to cart) comes with the app.

use crate::AppState;
use crate::db::products;
use crate::labels::Lang;
use crate::media::{self, MediaStore};

use super::lists::{price, product_title, stars};
use super::t;
use crate::web::page::escape;

pub async fn product(state: &AppState, id: i64, lang: Lang) -> Option<String> {
    let p = state.db.read(move |conn| Ok(products::find_listed(conn, id)?)).await.ok()??;
    let l = &p.listing;
    let title = escape(product_title(l, lang));
    let picture = match l.images.first() {
        Some(hash) => format!(
            "<img class=\"product-image\" src=\"{}\" alt=\"{title}\" width=\"1024\" height=\"768\" loading=\"eager\" \
             fetchpriority=\"high\" decoding=\"async\">",
            MediaStore::url(hash, media::PHOTO_SIZES[1])
        ),
        None => "<div class=\"product-image placeholder\" aria-hidden=\"true\"></div>".to_owned(),
    };
    let verified = if p.farmer.verified {
        format!("<span class=\"badge green\">{}</span>", t(lang, "market.verified"))
    } else {
        String::new()
    };
    let place = [
        p.farmer.location.clone().filter(|l| !l.is_empty()),
        (p.farmer.rating > 0.0).then(|| format!("★ {:.1}", p.farmer.rating)),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    Some(format!(
        "<article class=\"page product-page\"><nav class=\"breadcrumb\" aria-label=\"{}\"><a href=\"/marketplace\">{}</a> › \
         <span>{}</span> › <span aria-current=\"page\">{title}</span></nav><div class=\"product-layout\">\
         <div class=\"gallery\">{picture}</div><div class=\"product-info\"><div class=\"product-title\"><h1>{title}</h1></div>\
         {}<p class=\"big-price\">{}</p>\
         <p>{}</p><section class=\"card farmer-card\" aria-label=\"{}\"><span class=\"initial\" aria-hidden=\"true\">{}</span>\
         <div><strong>{}</strong>{verified}<p class=\"muted\">{}</p></div></section></div></div></article>",
        t(lang, "market.breadcrumb"),
        t(lang, "market.title"),
        t(lang, &format!("market.category.{}", l.category.as_str())),
        stars(p.rating, p.review_count, lang),
        price(l, lang),
        escape(&l.description),
        t(lang, "market.farmer"),
        escape(&p.farmer.name.chars().take(1).collect::<String>()),
        escape(&p.farmer.name),
        escape(&place),
    ))
}
