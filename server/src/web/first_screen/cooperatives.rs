//! The first screens of the cooperatives (`features/cooperatives/cooperative-pages.tsx`):
//! the list of active ones (territory, members, crops), and one cooperative's page with
//! its lots on sale. Joining comes with the app (a farmer signed in).

use crate::db::cooperatives::{self, CooperativeRow};
use crate::db::products::ProductRow;
use crate::labels::Lang;
use crate::state::AppState;

use super::lists::{price, product_title};
use super::{lot_line, t};
use crate::web::page::escape;

/// "Kabare · 3 members · Coffee, Beans": where it is, how many, what they bring.
fn summary(c: &CooperativeRow, lang: Lang) -> String {
    let crops = c.crops.iter().map(|crop| lang.text(&format!("crops.{crop}"))).collect::<Vec<_>>().join(", ");
    [c.territory.clone(), lang.plural("cooperative.members", c.members, &[]), crops]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
}

pub async fn list(state: &AppState, lang: Lang) -> Option<String> {
    let all = state.db.read(|conn| Ok(cooperatives::list(conn, false)?)).await.ok()?;
    let rows = if all.is_empty() {
        format!("<p>{}</p>", t(lang, "cooperative.public.none"))
    } else {
        let items = all
            .iter()
            .map(|c| {
                format!(
                    "<li class=\"list-row column\"><h2><a href=\"/cooperatives/{}\">{}</a></h2>\
                     <p class=\"muted\">{}</p><p>{}</p></li>",
                    c.id,
                    escape(&c.name),
                    escape(&summary(c, lang)),
                    escape(&c.description),
                )
            })
            .collect::<String>();
        format!("<ul class=\"list\">{items}</ul>")
    };
    Some(format!(
        "<section class=\"page narrow cooperatives-page\" aria-labelledby=\"coops-title\">\
         <h1 id=\"coops-title\">{}</h1><p class=\"lead\">{}</p>{rows}</section>",
        t(lang, "cooperative.public.title"),
        t(lang, "cooperative.public.intro"),
    ))
}

/// A lot on sale, as the app lists it on the cooperative's page.
fn lot_row(p: &ProductRow, lang: Lang) -> String {
    let line = p.lot.as_ref().map(|lot| lot_line(lot, lang)).unwrap_or_default();
    let counted = lang.plural("market.units_counted.kg", p.listing.quantity, &[]);
    let stock = lang.plural("market.in_stock", p.listing.quantity, &[("unit", &counted)]);
    format!(
        "<li class=\"list-row\"><div><a href=\"/product/{}\"><strong>{}</strong></a><p class=\"muted\">{}</p>\
         <p class=\"muted\">{}</p></div>{}</li>",
        p.id,
        escape(product_title(&p.listing, lang)),
        escape(&line),
        escape(&stock),
        price(&p.listing, lang),
    )
}

pub async fn one(state: &AppState, id: i64, lang: Lang) -> Option<String> {
    let (c, lots) = state
        .db
        .read(move |conn| {
            let Some(c) =
                cooperatives::find(conn, id)?.filter(|c| c.status == crate::model::cooperative::Status::Active)
            else {
                return Ok(None);
            };
            Ok(Some((c, crate::db::lots::on_sale(conn, id)?)))
        })
        .await
        .ok()??;
    let on_sale = if lots.is_empty() {
        format!("<p class=\"muted\">{}</p>", t(lang, "cooperative.public.nothing_on_sale"))
    } else {
        format!("<ul class=\"list\">{}</ul>", lots.iter().map(|p| lot_row(p, lang)).collect::<String>())
    };
    Some(format!(
        "<article class=\"page narrow cooperative-page\" aria-labelledby=\"coop-title\"><a href=\"/cooperatives\">← {}</a>\
         <h1 id=\"coop-title\">{}</h1><p class=\"muted\">{}</p><p class=\"muted\">{}</p><p>{}</p>\
         <h2>{}</h2>{on_sale}<p class=\"muted\">{}</p></article>",
        t(lang, "cooperative.public.all"),
        escape(&c.name),
        escape(&summary(&c, lang)),
        escape(&lang.format("cooperative.public.market", &[("market", &c.market_name)])),
        escape(&c.description),
        t(lang, "cooperative.public.on_sale"),
        t(lang, "cooperative.public.join_hint"),
    ))
}
