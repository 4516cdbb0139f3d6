//! Reading answers on lists and saying amounts, for every menu (docs/ussd.md): a
//! numbered choice, a list's pages (`98` for the next), the choices a screen showed
//! (`Ctx::choices_shown`), and quantities, units and prices in the reader's words.

use super::menu::{Ctx, MORE, SCREEN};
use crate::labels::Lang;
use crate::platform::gsm7;

/// A last screen's text, in GSM-7 and one screen.
pub fn fit(text: &str) -> String {
    gsm7::cut(&gsm7::fold(text), SCREEN)
}

/// The choice a numbered answer names (1 to `count`), or why not.
pub fn choice(ctx: &Ctx<'_>, answer: &str, count: usize) -> Result<usize, String> {
    match answer.parse::<usize>() {
        Ok(n) if (1..=count).contains(&n) => Ok(n - 1),
        _ => Err(ctx.format("choose", &[("max", &count.to_string())])),
    }
}

/// One page of a list: its items and whether a next page follows (`98`).
pub fn page_of<T>(items: &[T], page: usize, per_page: usize) -> (&[T], bool) {
    let start = (page * per_page).min(items.len());
    let end = (start + per_page).min(items.len());
    (&items[start..end], end < items.len())
}

/// What an answer on a page of a list asks for.
pub enum Picked<'a, T> {
    NextPage,
    Item(&'a T),
    Wrong(String),
}

/// What an answer on a screen whose choices come from data names, read against the
/// choices that screen showed (`Ctx::choices_shown`), never against the list as it is now.
pub enum Chosen {
    NextPage,
    /// The key of the choice as it was shown.
    Key(String),
    Wrong(String),
    /// What the screen showed is not known (it was shown before this server kept
    /// screens, or too long ago): nothing is acted on, the screen is shown again.
    Unknown,
}

pub fn chosen(ctx: &Ctx<'_>, answer: &str) -> Chosen {
    let Some((keys, more)) = ctx.shown() else { return Chosen::Unknown };
    if answer == MORE && more {
        return Chosen::NextPage;
    }
    match choice(ctx, answer, keys.len()) {
        Ok(i) => Chosen::Key(keys[i].clone()),
        Err(why) => Chosen::Wrong(why),
    }
}

/// The items of page `page` of a list screen, by `key`: those this screen first
/// showed in this session when it did (`None` for one no longer in `all`), else the
/// page as it is now, kept for the answer to come; and whether a next page follows.
pub fn listed<T: Clone>(
    ctx: &mut Ctx<'_>,
    all: &[T],
    key: impl Fn(&T) -> String,
    page: usize,
    per_page: usize,
) -> (Vec<Option<T>>, bool) {
    let (now, more) = page_of(all, page, per_page);
    let (keys, more) = ctx.choices_shown(now.iter().map(&key).collect(), more);
    (keys.iter().map(|k| all.iter().find(|item| key(item) == *k).cloned()).collect(), more)
}

/// Reads an answer on page `page` of `items`: `98` the next page when there is one, a
/// number an item of this page, anything else "choose 1 to N".
pub fn pick<'a, T>(ctx: &Ctx<'_>, answer: &str, items: &'a [T], page: usize, per_page: usize) -> Picked<'a, T> {
    let (shown, more) = page_of(items, page, per_page);
    if answer == MORE && more {
        return Picked::NextPage;
    }
    match choice(ctx, answer, shown.len()) {
        Ok(i) => Picked::Item(&shown[i]),
        Err(why) => Picked::Wrong(why),
    }
}

/// A quantity as the menus show it, in the reader's words: `20kg`, `3 pieces`.
pub fn amount(lang: Lang, quantity: i64, unit: &str) -> String {
    match unit {
        "kg" => format!("{quantity}kg"),
        unit => format!("{quantity} {}", lang.text(&format!("ussd.units.{unit}"))),
    }
}

/// What one unit is called after a price: `1.20/kg`, `0.80/piece`.
pub fn per_unit(lang: Lang, unit: &str) -> String {
    match unit {
        "kg" => "kg".to_owned(),
        _ => lang.text("ussd.units.one_piece"),
    }
}

/// Cents as a price typed into a listing (`1.25`: what the app's forms send); the menus
/// say amounts in the reader's way (`Lang::amount`: `1,25` in French).
pub fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}
