//! The PIN that guards a farmer's sales on a basic phone (docs/ussd.md): chosen on
//! first use and typed twice, checked (off the transaction, through the session's
//! memory), and reset with the SMS code.

use super::menu::{Ctx, Next, Run, Screen, Show};
use super::screens::{Go, arrive};
use super::session::Memo;
use crate::db::password_resets;
use crate::domain::basic_phones::{self as rules, PinState};
use crate::domain::password_reset;
use crate::error::ApiResult;
use crate::platform::clock;

/// Where the PIN screen is.
#[derive(Debug, Clone)]
pub enum PinStage {
    Enter,
    New,
    /// The new PIN typed once, to type again.
    Again(String),
    /// The code texted to reset the PIN.
    Code,
}

pub fn pin_show(ctx: &Ctx<'_>, stage: &PinStage) -> Show {
    Show::ask(ctx.text(match stage {
        PinStage::Enter => "pin.enter",
        PinStage::New => "pin.new",
        PinStage::Again(_) => "pin.again",
        PinStage::Code => "pin.reset_sent",
    }))
}

pub fn pin_answer(ctx: &mut Ctx<'_>, stage: &PinStage, then: Go, answer: &str) -> ApiResult<Next> {
    let opened = |ctx: &mut Ctx<'_>| -> ApiResult<Next> {
        ctx.unlocked = true;
        if then == Go::PinReset {
            return Ok(Next::End(ctx.text("pin.reset_done")));
        }
        Ok(match arrive(ctx, then)? {
            Next::Open(screen) => Next::Swap(screen, None),
            other => other,
        })
    };
    match stage {
        PinStage::Enter => {
            if rules::pin_problem(answer) == Some("invalid") {
                return Ok(Next::Again(ctx.text("pin.invalid")));
            }
            match ctx.memo() {
                Some(Memo::PinRight) => opened(ctx),
                Some(Memo::PinWrong { left: 0 }) => Ok(Next::End(ctx.text("pin.locked"))),
                Some(Memo::PinWrong { left }) => Ok(Next::Again(ctx.lang.plural("ussd.pin.wrong", *left, &[]))),
                _ => Ok(match rules::pin_state(ctx.conn, ctx.phone)? {
                    PinState::Set { hash, .. } => {
                        Next::Needs(Run::NeedsPin { step: ctx.step, pin: answer.to_owned(), hash })
                    }
                    PinState::Locked => Next::End(ctx.text("pin.locked")),
                    PinState::None => Next::Swap(Screen::Pin { stage: PinStage::New, then }, None),
                }),
            }
        }
        PinStage::New => match rules::pin_problem(answer) {
            Some(problem) => Ok(Next::Again(ctx.text(&format!("pin.{problem}")))),
            None => Ok(Next::Swap(Screen::Pin { stage: PinStage::Again(answer.to_owned()), then }, None)),
        },
        PinStage::Again(first) if answer != first => {
            Ok(Next::Swap(Screen::Pin { stage: PinStage::New, then }, Some(ctx.text("pin.mismatch"))))
        }
        PinStage::Again(_) => match ctx.memo().cloned() {
            Some(Memo::Written { .. }) => opened(ctx),
            Some(Memo::Hashed { .. }) if !ctx.write => Ok(Next::Needs(Run::NeedsWrite)),
            Some(Memo::Hashed { hash }) => {
                rules::set_pin(ctx.conn, ctx.phone, &hash)?;
                if let Some(person) = &ctx.person {
                    password_resets::use_all(ctx.conn, person.id, &clock::now())?;
                }
                ctx.remember(Memo::Written { reply: None });
                opened(ctx)
            }
            _ => Ok(Next::Needs(Run::NeedsHash { step: ctx.step, pin: answer.to_owned() })),
        },
        PinStage::Code => match ctx.memo() {
            Some(Memo::PinRight) => Ok(Next::Swap(Screen::Pin { stage: PinStage::New, then }, None)),
            Some(Memo::PinWrong { .. }) => Ok(Next::Again(ctx.text("pin.reset_wrong"))),
            _ if !ctx.write => Ok(Next::Needs(Run::NeedsWrite)),
            _ => {
                // A wrong code counts against the codes sent (and commits).
                let right = password_reset::check_code(ctx.conn, ctx.phone, answer)?.is_ok();
                ctx.remember(if right { Memo::PinRight } else { Memo::PinWrong { left: 1 } });
                pin_answer(ctx, stage, then, answer)
            }
        },
    }
}
