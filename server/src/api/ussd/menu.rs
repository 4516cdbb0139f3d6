//! The USSD menu's engine (docs/ussd.md): where a person is, rebuilt on every
//! request from the answers so far; `0` goes back, `00` to the main menu,
//! `98` to the next page. Each screen says what it shows (`Screen::show`) and
//! what an answer does (`Screen::answer`); the menus themselves are tables
//! (`screens::VISITOR`, `FARMER`, `MEMBER`).

use crate::db::Connection;

pub use super::lists::{Chosen, Picked, amount, choice, chosen, fit, listed, money, page_of, per_unit, pick};
use super::session::{Memo, Steps, answer_slot, shown_slot};
use super::{Reply, apply, coop, farmer, join, learning, pin, sales, screens};
use crate::db::throttles::Limit;
use crate::db::users::UserRow;
use crate::error::ApiResult;
use crate::labels::Lang;
use crate::platform::gsm7;

/// A USSD screen holds at most this many GSM-7 characters.
pub const SCREEN: usize = 182;
/// The answer that opens a list's next page.
pub(super) const MORE: &str = "98";

/// What running the menu over a request's answers came to.
#[derive(Debug)]
pub enum Run {
    Reply(Reply),
    /// An answer writes: run again in a write transaction.
    NeedsWrite,
    /// Answer `step` is a PIN to check against `hash` (slow: off the transaction).
    NeedsPin {
        step: usize,
        pin: String,
        hash: String,
    },
    /// Answer `step` is a new PIN to hash.
    NeedsHash {
        step: usize,
        pin: String,
    },
}

/// Everything a screen may read while the answers are replayed.
pub struct Ctx<'a> {
    pub conn: &'a Connection,
    /// In a write transaction: answers that write may write.
    pub write: bool,
    pub phone: &'a str,
    pub session: &'a str,
    pub person: Option<UserRow>,
    pub lang: Lang,
    /// What earlier requests of this session learned, by answer.
    pub steps: &'a Steps,
    /// What this run learned, kept once its transaction commits.
    pub learned: Steps,
    /// The answer being read, and its place in the session.
    pub step: usize,
    pub answer: String,
    /// The slot of the screen this answer answers (at the end, of the screen shown).
    pub screen: String,
    /// The PIN was given in this session.
    pub unlocked: bool,
    /// SMS numbers asked for this hour (`Throttles::sms_asked`), shared with SMS commands.
    pub sms_asked: Limit,
}

impl Ctx<'_> {
    pub fn text(&self, key: &str) -> String {
        self.lang.text(&format!("ussd.{key}"))
    }

    pub fn format(&self, key: &str, values: &[(&str, &str)]) -> String {
        self.lang.format(&format!("ussd.{key}"), values)
    }

    /// Counts an SMS the person asked for, unless they had their share this hour
    /// (each costs us one, and dialling is free to them): then the screen that says so.
    pub fn ask_for_sms(&self) -> crate::db::Result<Result<(), Next>> {
        Ok(self.sms_asked.reserve(self.conn, &[self.phone])?.map_err(|_| Next::End(self.text("sms_limit"))))
    }

    /// What answer `step` did in an earlier request or earlier in this run.
    pub fn memo(&self) -> Option<&Memo> {
        let slot = answer_slot(self.step, &self.answer);
        self.learned.get(&slot).or_else(|| self.steps.get(&slot))
    }

    pub fn remember(&mut self, memo: Memo) {
        self.learned.insert(answer_slot(self.step, &self.answer), memo);
    }

    /// What the choices of the screen being answered (or shown) meant when it was shown.
    pub(super) fn shown(&self) -> Option<(&[String], bool)> {
        match self.learned.get(&self.screen).or_else(|| self.steps.get(&self.screen)) {
            Some(Memo::Shown { keys, more }) => Some((keys, *more)),
            _ => None,
        }
    }

    /// The screen being answered showed no choices.
    pub fn shown_nothing(&self) -> bool {
        self.shown().is_some_and(|(keys, _)| keys.is_empty())
    }

    /// The keys of a screen's choices: as this screen first showed them in this session
    /// (a gateway's repeat shows the same), else `fresh`, kept for the answer to come.
    pub fn choices_shown(&mut self, fresh: Vec<String>, more: bool) -> (Vec<String>, bool) {
        if let Some((keys, more)) = self.shown() {
            return (keys.to_vec(), more);
        }
        self.learned.insert(self.screen.clone(), Memo::Shown { keys: fresh.clone(), more });
        (fresh, more)
    }

    /// Runs `write` once for this answer: a replay answers what it answered the
    /// first time (`replayed` when it did not end the session), and outside a
    /// write transaction the run asks for one. A refused answer (`Again`) or an
    /// error undoes whatever `write` had written.
    pub fn write_once(
        &mut self,
        write: impl FnOnce(&mut Self) -> ApiResult<Next>,
        replayed: impl FnOnce() -> Next,
    ) -> ApiResult<Next> {
        match self.memo() {
            Some(Memo::Written { reply: Some(reply) }) => return Ok(Next::End(reply.text.clone())),
            Some(Memo::Written { reply: None }) => return Ok(replayed()),
            _ if !self.write => return Ok(Next::Needs(Run::NeedsWrite)),
            _ => {}
        }
        self.conn.execute_batch("SAVEPOINT ussd_answer")?;
        let next = write(self);
        if matches!(next, Ok(Next::Again(_)) | Err(_)) {
            self.conn.execute_batch("ROLLBACK TO ussd_answer; RELEASE ussd_answer")?;
            return next;
        }
        self.conn.execute_batch("RELEASE ussd_answer")?;
        let next = next?;
        let reply = match &next {
            Next::End(text) => Some(Reply { text: fit(text), end: true }),
            _ => None,
        };
        self.remember(Memo::Written { reply });
        Ok(next)
    }
}

/// Where an answer leads.
pub enum Next {
    /// A screen above this one (`0` comes back here).
    Open(Screen),
    /// The screen below this one, as `0` does.
    Back,
    /// Another screen in this one's place, with a note above it.
    Swap(Screen, Option<String>),
    /// This screen again, with why the answer was not taken.
    Again(String),
    /// The last screen.
    End(String),
    Needs(Run),
}

/// Where a person can be.
#[derive(Debug, Clone)]
pub enum Screen {
    Main,
    Language,
    /// A farmer's settings: language, their number shown to buyers, a forgotten PIN.
    Settings,
    Crops {
        purpose: screens::Purpose,
        page: usize,
    },
    Join(join::JoinDraft),
    Pin {
        stage: pin::PinStage,
        then: screens::Go,
    },
    Listings {
        page: usize,
    },
    Listing {
        id: i64,
    },
    AskStock {
        id: i64,
    },
    /// A stock of nothing typed: confirmed before it is set (`0` is "back" on every screen).
    ConfirmZero {
        id: i64,
    },
    AskPrice {
        id: i64,
    },
    Sell(farmer::SellDraft),
    Orders {
        page: usize,
    },
    Courses {
        page: usize,
    },
    Course {
        id: i64,
    },
    /// Question `question` of the application (past the last: send it?).
    Apply {
        question: usize,
    },
    Order {
        order_id: i64,
        part_id: i64,
    },
    CancelReason {
        order_id: i64,
        part_id: i64,
    },
    /// A farmer's cooperatives: their deliveries, or joining one.
    Coop,
    Cooperatives {
        page: usize,
    },
}

/// What a screen shows: its words, then its numbered choices.
pub struct Show {
    pub text: String,
    pub choices: Vec<String>,
    /// A next page follows (`98`).
    pub more: bool,
}

impl Show {
    pub fn ask(text: String) -> Show {
        Show { text, choices: Vec::new(), more: false }
    }
}

impl Screen {
    fn show(&self, ctx: &mut Ctx<'_>) -> ApiResult<Show> {
        match self {
            Screen::Main => screens::main_show(ctx),
            Screen::Language => Ok(screens::language_show(ctx)),
            Screen::Settings => screens::settings_show(ctx),
            Screen::Crops { purpose, page } => Ok(screens::crops_show(ctx, *purpose, *page)),
            Screen::Join(draft) => Ok(join::join_show(ctx, draft)),
            Screen::Pin { stage, .. } => Ok(pin::pin_show(ctx, stage)),
            Screen::Listings { page } => farmer::listings_show(ctx, *page),
            Screen::Listing { id } => farmer::listing_show(ctx, *id),
            Screen::AskStock { id } => farmer::ask_stock_show(ctx, *id),
            Screen::ConfirmZero { id } => farmer::zero_show(ctx, *id),
            Screen::AskPrice { id } => farmer::ask_price_show(ctx, *id),
            Screen::Sell(draft) => farmer::sell_show(ctx, draft),
            Screen::Orders { page } => sales::orders_show(ctx, *page),
            Screen::Apply { question } => apply::show(ctx, *question),
            Screen::Courses { page } => learning::courses_show(ctx, *page),
            Screen::Course { id } => learning::course_show(ctx, *id),
            Screen::Order { order_id, part_id } => sales::order_show(ctx, *order_id, *part_id),
            Screen::CancelReason { .. } => Ok(sales::reasons_show(ctx)),
            Screen::Coop => Ok(coop::coop_show(ctx)),
            Screen::Cooperatives { page } => coop::cooperatives_show(ctx, *page),
        }
    }

    fn answer(&self, ctx: &mut Ctx<'_>, answer: &str) -> ApiResult<Next> {
        match self {
            Screen::Main => screens::main_answer(ctx, answer),
            Screen::Language => screens::language_answer(ctx, answer),
            Screen::Settings => screens::settings_answer(ctx, answer),
            Screen::Crops { purpose, page } => screens::crops_answer(ctx, *purpose, *page, answer),
            Screen::Join(draft) => join::join_answer(ctx, draft, answer),
            Screen::Pin { stage, then } => pin::pin_answer(ctx, stage, *then, answer),
            Screen::Listings { page } => farmer::listings_answer(ctx, *page, answer),
            Screen::Listing { id } => farmer::listing_answer(ctx, *id, answer),
            Screen::AskStock { id } => farmer::stock_answer(ctx, *id, answer),
            Screen::ConfirmZero { id } => farmer::zero_answer(ctx, *id, answer),
            Screen::AskPrice { id } => farmer::price_answer(ctx, *id, answer),
            Screen::Sell(draft) => farmer::sell_answer(ctx, draft, answer),
            Screen::Orders { page } => sales::orders_answer(ctx, *page, answer),
            Screen::Apply { question } => apply::answer(ctx, *question, answer),
            Screen::Courses { page } => learning::courses_answer(ctx, *page, answer),
            Screen::Course { id } => learning::course_answer(ctx, *id, answer),
            Screen::Order { order_id, part_id } => sales::order_answer(ctx, *order_id, *part_id, answer),
            Screen::CancelReason { order_id, part_id } => sales::reason_answer(ctx, *order_id, *part_id, answer),
            Screen::Coop => coop::coop_answer(ctx, answer),
            Screen::Cooperatives { page } => coop::cooperatives_answer(ctx, *page, answer),
        }
    }

    /// `0` is read by the screen here: a stock of nothing, which it asks to confirm
    /// (a farmer pressing `0` for "back", as on every screen, is asked before anything changes).
    fn takes_zero(&self) -> bool {
        matches!(self, Screen::AskStock { .. })
    }
}

/// Replays `answers` from the main menu and shows where they lead.
pub fn run(ctx: &mut Ctx<'_>, answers: &[String]) -> ApiResult<Run> {
    let mut stack = vec![Screen::Main];
    let mut note = None;
    for (step, answer) in answers.iter().enumerate() {
        let answer = answer.trim();
        ctx.step = step;
        ctx.answer = answer.to_owned();
        ctx.screen = shown_slot(&answers[..step]);
        note = None;
        let top = stack.last().cloned().unwrap_or(Screen::Main);
        if answer == "00" {
            stack.truncate(1);
            continue;
        }
        if answer == "0" && !top.takes_zero() {
            if stack.len() > 1 {
                stack.pop();
            }
            continue;
        }
        match top.answer(ctx, answer)? {
            Next::Open(screen) => stack.push(screen),
            Next::Back => {
                if stack.len() > 1 {
                    stack.pop();
                }
            }
            Next::Swap(Screen::Main, why) => {
                stack.truncate(1);
                note = why;
            }
            Next::Swap(screen, why) => {
                stack.pop();
                stack.push(screen);
                note = why;
            }
            Next::Again(why) => note = Some(why),
            Next::End(text) => return Ok(Run::Reply(Reply { text: fit(&text), end: true })),
            Next::Needs(run) => return Ok(run),
        }
    }
    let top = stack.last().cloned().unwrap_or(Screen::Main);
    ctx.screen = shown_slot(answers);
    let shown = top.show(ctx)?;
    Ok(Run::Reply(Reply { text: render(ctx, shown, note, stack.len() > 1), end: false }))
}

/// A screen's text: the note, the words, the numbered choices, then the ways out,
/// in at most `SCREEN` GSM-7 characters (long choices are cut first).
fn render(ctx: &Ctx<'_>, shown: Show, note: Option<String>, inner: bool) -> String {
    let mut ways = Vec::new();
    if shown.more {
        ways.push(ctx.text("nav.more"));
    }
    if inner {
        ways.push(ctx.text("nav.back"));
    }
    if inner {
        ways.push(ctx.text("nav.home"));
    }
    // A note that asks the screen's question itself (it ends with ':', "Too easy to guess.
    // Choose another PIN:") stands in place of the screen's words.
    let asks = note.as_deref().is_some_and(|n| n.trim_end().ends_with(':'));
    let compose = |label_chars: usize| {
        let mut lines: Vec<String> = note.iter().cloned().collect();
        if !asks {
            lines.push(shown.text.clone());
        }
        for (i, choice) in shown.choices.iter().enumerate() {
            lines.push(format!("{} {}", i + 1, gsm7::cut(&gsm7::fold(choice), label_chars)));
        }
        if !ways.is_empty() {
            lines.push(ways.join(" "));
        }
        gsm7::fold(&lines.join("\n"))
    };
    let mut label_chars = 40;
    let mut text = compose(label_chars);
    while gsm7::units(&text).unwrap_or(usize::MAX) > SCREEN && label_chars > 8 {
        label_chars -= 2;
        text = compose(label_chars);
    }
    gsm7::cut(&text, SCREEN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labels::LANGUAGES;

    /// The longest value each placeholder takes on a screen; lists (lines, sales,
    /// courses, sellers) are cut to what is left of the screen and not checked here.
    fn longest(name: &str) -> Option<usize> {
        Some(match name {
            "name" => 41,
            "title" | "place" => 40,
            "crop" => 15,
            "comment" => 90,
            "stock" | "quantity" | "max" | "min" | "number" | "count" => 7,
            "unit" | "one" => 7,
            "francs" => 18,
            "dial" => 20,
            "amount" => 10,
            "price" | "low" | "high" | "median" | "total" => 11,
            "status" | "state" => 20,
            "month" | "pending" => 14,
            "done" => 3,
            "lesson" => 40,
            _ => return None,
        })
    }

    fn walk(node: &serde_json::Value, path: String, out: &mut Vec<(String, String)>) {
        match node {
            serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| walk(v, format!("{path}.{k}"), out)),
            serde_json::Value::String(text) => out.push((path, text.clone())),
            _ => {}
        }
    }

    #[test]
    fn quantities_and_units_are_said_in_the_reader_s_words() {
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!(amount(fr, 20, "kg"), "20kg");
        assert_eq!(amount(fr, 3, "piece"), "3 pièces");
        assert_eq!(per_unit(sw, "piece"), "kipande");
        assert_eq!(per_unit(sw, "kg"), "kg");
    }

    #[test]
    fn every_ussd_text_fits_a_screen_and_every_sms_answer_a_segment_in_gsm7() {
        let catalogue: serde_json::Value =
            serde_json::from_str(include_str!("../../../../pwa/src/locales/en.json")).unwrap();
        let mut texts = Vec::new();
        walk(&catalogue["ussd"], "ussd".into(), &mut texts);
        assert!(texts.len() > 100);
        for code in LANGUAGES {
            let lang = Lang::parse(Some(code));
            for (key, _) in &texts {
                let text = lang.text(key);
                let mut filled = text.clone();
                let mut listed = false;
                while let Some(start) = filled.find("{{") {
                    let end = filled[start..].find("}}").map(|e| start + e + 2).unwrap();
                    let name = filled[start + 2..end - 2].to_owned();
                    let value = match longest(&name) {
                        Some(n) => "W".repeat(n),
                        None => {
                            listed = true;
                            String::new()
                        }
                    };
                    filled.replace_range(start..end, &value);
                }
                let folded = gsm7::fold(&filled);
                assert!(
                    !folded.contains('?') || text.contains('?'),
                    "{code} {key}: a character GSM-7 cannot fold: {text}"
                );
                let units = gsm7::units(&folded).unwrap();
                let sms =
                    key.starts_with("ussd.commands.") || key.starts_with("ussd.prices.") || key == "ussd.sellers.sms";
                let limit = if sms { gsm7::SEGMENT } else { SCREEN - 24 };
                assert!(listed || units <= limit, "{code} {key}: {units} characters, over {limit}: {folded}");
            }
        }
    }
}
