//! A farmer's cooperatives on a basic phone (docs/cooperatives.md): their latest
//! deliveries, asking to join one (a manager answers; the welcome comes by SMS), and
//! what each owes and paid them.

use super::menu::{Chosen, Ctx, Next, Screen, Show, choice, chosen, listed};
use crate::db::cooperatives::{self as rows, CooperativeRow};
use crate::domain::cooperatives::{self, deliveries, payouts};
use crate::error::ApiResult;
use crate::model::cooperative::MemberStatus;
use crate::platform::gsm7;

const PER_PAGE: usize = 4;

pub fn coop_show(ctx: &mut Ctx<'_>) -> Show {
    Show {
        text: ctx.text("coop.title"),
        choices: vec![ctx.text("coop.deliveries"), ctx.text("coop.join"), ctx.text("coop.money")],
        more: false,
    }
}

pub fn coop_answer(ctx: &mut Ctx<'_>, answer: &str) -> ApiResult<Next> {
    let Some(person) = ctx.person.clone() else { return Ok(Next::End(ctx.text("commands.deliveries_none"))) };
    Ok(match choice(ctx, answer, 3) {
        Ok(0) => Next::End(deliveries::latest(ctx.conn, &person, ctx.lang, super::menu::SCREEN)?),
        Ok(2) => Next::End(payouts::statement(ctx.conn, &person, ctx.lang)?),
        Ok(_) if open(ctx)?.is_empty() => Next::End(ctx.text("coop.none_to_join")),
        Ok(_) => Next::Open(Screen::Cooperatives { page: 0 }),
        Err(why) => Next::Again(why),
    })
}

/// The active cooperatives the person is not in (nor waiting for).
fn open(ctx: &Ctx<'_>) -> ApiResult<Vec<CooperativeRow>> {
    let Some(person) = &ctx.person else { return Ok(Vec::new()) };
    let mine = rows::of_person(ctx.conn, person.id)?;
    Ok(rows::list(ctx.conn, false)?
        .into_iter()
        .filter(|c| !mine.iter().any(|m| m.cooperative_id == c.id && m.status != MemberStatus::Removed))
        .collect())
}

pub fn cooperatives_show(ctx: &mut Ctx<'_>, page: usize) -> ApiResult<Show> {
    let all = open(ctx)?;
    let (shown, more) = listed(ctx, &all, |c| c.id.to_string(), page, PER_PAGE);
    Ok(Show {
        text: ctx.text("coop.choose"),
        choices: shown
            .iter()
            .map(|c| match c {
                Some(c) => format!("{} ({})", gsm7::shorten(&c.name, 26), gsm7::shorten(&c.territory, 12)),
                None => ctx.text("gone"),
            })
            .collect(),
        more,
    })
}

pub fn cooperatives_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match chosen(ctx, answer) {
        Chosen::NextPage => Next::Open(Screen::Cooperatives { page: page + 1 }),
        Chosen::Key(key) => {
            let Ok(id) = key.parse::<i64>() else { return Ok(Next::Again(ctx.text("list_changed"))) };
            ctx.write_once(
                |ctx| {
                    let Some(person) = ctx.person.clone() else { return Ok(Next::End(String::new())) };
                    Ok(match cooperatives::ask_to_join(ctx.conn, &person, id) {
                        Ok(_) => {
                            let name = rows::find(ctx.conn, id)?.map(|c| c.name).unwrap_or_default();
                            Next::End(ctx.format("coop.asked", &[("coop", &gsm7::shorten(&name, 40))]))
                        }
                        Err(refusal) if refusal.code() == "cooperative_suspended" => Next::End(ctx.text("coop.closed")),
                        Err(refusal) => return Err(refusal),
                    })
                },
                || Next::End(String::new()),
            )?
        }
        Chosen::Wrong(why) => Next::Again(why),
        Chosen::Unknown => Next::Again(ctx.text("list_changed")),
    })
}
