//! Applying to sell from a basic phone (docs/ussd.md): the application's questions
//! one screen each, its option questions as numbered menus, its required free-text
//! questions answered short, its optional ones skipped. Every answer is saved at once
//! to the person's draft application (the same record and rules as the app's form),
//! so a session that times out loses nothing and the next one goes on where it
//! stopped; the last screen sends it for review.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sync_protocol::SurveyAnswersInput;

use super::menu::{Ctx, Next, Screen, Show, choice};
use super::session::Memo;
use crate::db::surveys::{self as rows, SurveyRow};
use crate::domain::surveys::{self, SurveyRef};
use crate::error::{ApiResult, AppError};
use crate::model::survey::{SurveyAnswers, SurveyStatus};

/// One question of the application, in the form's order.
#[derive(Debug, Clone, Copy)]
enum Question {
    /// An option question: the options offered on a keypad (the form's, without older clients' spellings).
    Choose(&'static str, &'static [&'static str]),
    /// A required free-text question, answered in a few words.
    Short(&'static str),
    YesNo(&'static str),
    /// Asked only after a yes to `post_harvest_losses`.
    Percent(&'static str),
}

use Question::*;

const QUESTIONS: &[Question] = &[
    Choose("land_size", &["Less than 1 hectare", "1-2 hectares", "2-5 hectares", "More than 5 hectares"]),
    Choose("work_type", &["Alone", "With family", "With hired workers", "Cooperative"]),
    Choose(
        "income_sources",
        &["Farming only", "Farming and other business", "Farming and employment", "Multiple sources"],
    ),
    Choose("seed_type", &["Local/traditional", "Improved/hybrid", "Certified seeds", "Mixed"]),
    Choose("seed_source", &["Local market", "Agricultural stores", "Government programs", "NGOs", "Own saved seeds"]),
    Choose(
        "fertilizers",
        &["Compost/manure", "Chemical fertilizers", "Organic fertilizers", "No fertilizers", "Mixed"],
    ),
    Choose("field_preparation", &["Hand tools (hoe)", "Animal traction", "Tractor", "Mixed methods"]),
    Short("farming_techniques"),
    Choose("planting_season", &["Season A", "Season B", "Both seasons"]),
    Choose("higher_season", &["Season A", "Season B", "Both seasons"]),
    Short("higher_season_reason"),
    Choose("average_yield", &["Less than 1 ton", "1-2 tons", "2-5 tons", "More than 5 tons"]),
    Short("challenges"),
    YesNo("post_harvest_losses"),
    Percent("loss_percentage"),
    Choose(
        "selling_method",
        &["Sell at local market", "Direct to consumers", "Through cooperatives", "To processors", "Multiple channels"],
    ),
    YesNo("selling_challenges"),
    Short("improvements_production"),
    Short("improvements_selling"),
];

/// A short answer: 2 to 80 characters.
const SHORT_CHARS: usize = 80;

fn field(question: Question) -> &'static str {
    match question {
        Choose(name, _) | Short(name) | YesNo(name) | Percent(name) => name,
    }
}

fn text_answer(answers: &SurveyAnswers, name: &str) -> bool {
    answers.cells().iter().any(|(n, cell)| *n == name && matches!(cell, sync_protocol::Cell::Text(Some(_))))
}

/// The first question the draft has no answer to, or `None` when it is complete. A
/// yes/no or a percentage counts as answered once it says yes (or more than 0) or a
/// later question is answered: a "no" leaves no other trace.
fn next_question(answers: &SurveyAnswers) -> Option<usize> {
    let later = |i: usize| {
        QUESTIONS[i + 1..].iter().any(|q| matches!(q, Choose(..) | Short(_)) && text_answer(answers, field(*q)))
    };
    let answered = |i: usize| match QUESTIONS[i] {
        Choose(name, _) | Short(name) => text_answer(answers, name),
        YesNo("post_harvest_losses") => answers.post_harvest_losses || later(i),
        YesNo(_) => answers.selling_challenges || later(i),
        Percent(_) => !answers.post_harvest_losses || answers.loss_percentage > 0 || later(i),
    };
    (0..QUESTIONS.len()).find(|&i| !answered(i))
}

/// The person's draft application, if they have one.
fn draft(ctx: &Ctx<'_>) -> ApiResult<Option<SurveyRow>> {
    let Some(person) = &ctx.person else { return Ok(None) };
    Ok(rows::list_visible_to(ctx.conn, person.id)?
        .into_iter()
        .find(|s| s.user_id == person.id && s.status == SurveyStatus::Draft))
}

pub fn show(ctx: &mut Ctx<'_>, question: usize) -> ApiResult<Show> {
    let Some(&asked) = QUESTIONS.get(question) else {
        return Ok(Show {
            text: ctx.text("apply.confirm"),
            choices: vec![ctx.text("yes"), ctx.text("no")],
            more: false,
        });
    };
    let name = field(asked);
    let text = format!("{}/{} {}", question + 1, QUESTIONS.len(), ctx.text(&format!("apply.questions.{name}")));
    Ok(match asked {
        Choose(_, options) => {
            Show { text, choices: options.iter().map(|o| ctx.lang.option(name, o)).collect(), more: false }
        }
        YesNo(_) => Show { text, choices: vec![ctx.text("yes"), ctx.text("no")], more: false },
        Short(_) | Percent(_) => Show::ask(text),
    })
}

/// Reads the answer to question `question` and saves it; the next question is the
/// following one (the percentage of losses only after a yes to losses), whatever
/// the draft says, so that replaying the session's answers asks the same questions.
pub fn answer(ctx: &mut Ctx<'_>, question: usize, typed: &str) -> ApiResult<Next> {
    let Some(&asked) = QUESTIONS.get(question) else {
        return match choice(ctx, typed, 2) {
            Ok(0) => ctx.write_once(send, || Next::End(String::new())),
            Ok(_) => Ok(Next::End(ctx.text("apply.later"))),
            Err(why) => Ok(Next::Again(why)),
        };
    };
    let mut next = question + 1;
    let value: Value = match asked {
        Choose(_, options) => match choice(ctx, typed, options.len()) {
            Ok(k) => json!(options[k]),
            Err(why) => return Ok(Next::Again(why)),
        },
        YesNo(name) => match choice(ctx, typed, 2) {
            Ok(k) => {
                if name == "post_harvest_losses" && k == 1 {
                    next += 1;
                }
                json!(k == 0)
            }
            Err(why) => return Ok(Next::Again(why)),
        },
        Percent(_) => match typed.parse::<u8>() {
            Ok(n) if n <= 100 && typed.len() <= 3 => json!(n),
            _ => return Ok(Next::Again(ctx.format("number.whole", &[("min", "0"), ("max", "100")]))),
        },
        Short(_) => {
            let text = typed.split_whitespace().collect::<Vec<_>>().join(" ");
            if !(2..=SHORT_CHARS).contains(&text.chars().count()) {
                return Ok(Next::Again(ctx.text("apply.short_invalid")));
            }
            json!(text)
        }
    };
    ctx.write_once(
        |ctx| {
            save(ctx, field(asked), value)?;
            Ok(Next::Swap(Screen::Apply { question: next }, None))
        },
        || Next::Swap(Screen::Apply { question: next }, None),
    )
}

/// Writes one answer to the draft, making the draft with it when there is none yet.
fn save(ctx: &mut Ctx<'_>, name: &str, value: Value) -> ApiResult<()> {
    let current = draft(ctx)?;
    let person = ctx.person.clone().ok_or_else(|| AppError::forbidden("forbidden", "Join first"))?;
    let input: SurveyAnswersInput = serde_json::from_value(json!({ name: value })).map_err(AppError::internal)?;
    match &current {
        Some(survey) => {
            surveys::update(ctx.conn, &person, SurveyRef::Id(survey.id), &input, Some("draft"), None)?;
        }
        None => {
            let digest = Sha256::digest(format!("ussd-application:{}:{}:{}", ctx.phone, ctx.session, ctx.step));
            let uid = uuid::Builder::from_random_bytes(digest[..16].try_into().unwrap_or_default()).into_uuid();
            surveys::create(ctx.conn, &person, person.id, Some(uid.to_string()), &input, Some("draft"))?;
        }
    }
    Ok(())
}

fn send(ctx: &mut Ctx<'_>) -> ApiResult<Next> {
    let (Some(person), Some(survey)) = (ctx.person.clone(), draft(ctx)?) else {
        return Ok(Next::End(ctx.text("apply.waiting")));
    };
    match surveys::update(
        ctx.conn,
        &person,
        SurveyRef::Id(survey.id),
        &SurveyAnswersInput::default(),
        Some("pending"),
        None,
    ) {
        Ok(_) => Ok(Next::End(ctx.text("apply.done"))),
        Err(AppError::Client { code: "application_waiting", .. }) => Ok(Next::End(ctx.text("apply.waiting"))),
        // An answer was cleared meanwhile (in the app): the next session asks it again.
        Err(AppError::Validation(_)) => Ok(Next::End(ctx.text("apply.incomplete"))),
        Err(err) => Err(err),
    }
}

/// Where "My application" leads: the first question not answered yet while the
/// application is a draft or does not exist (kept for the session, as later answers
/// change the draft), else nowhere: its status is shown.
pub fn arrive(ctx: &mut Ctx<'_>) -> ApiResult<Option<Next>> {
    let Some(person) = ctx.person.clone() else { return Ok(None) };
    if person.role != crate::model::user::Role::User {
        return Ok(None);
    }
    if let Some(Memo::Position { question }) = ctx.memo() {
        return Ok(Some(Next::Open(Screen::Apply { question: *question })));
    }
    let own = rows::list_visible_to(ctx.conn, person.id)?.into_iter().find(|s| s.user_id == person.id);
    let question = match own {
        None => 0,
        Some(s) if s.status == SurveyStatus::Draft => next_question(&s.answers).unwrap_or(QUESTIONS.len()),
        Some(_) => return Ok(None),
    };
    ctx.remember(Memo::Position { question });
    Ok(Some(Next::Open(Screen::Apply { question })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::surveys::options;

    #[test]
    fn every_option_offered_is_one_the_application_accepts_and_every_required_question_is_asked() {
        for question in QUESTIONS {
            if let Choose(name, offered) = question {
                let allowed = options(name).unwrap();
                assert!(offered.iter().all(|o| allowed.contains(o)), "{name}: {offered:?}");
            }
        }
        for field in SurveyAnswers::FIELDS.iter().filter(|f| f.required) {
            assert!(QUESTIONS.iter().any(|q| super::field(*q) == field.name), "{} is not asked", field.name);
        }
    }

    #[test]
    fn the_next_question_follows_the_answers() {
        let mut answers = SurveyAnswers::default();
        assert_eq!(next_question(&answers), Some(0));
        answers.land_size = Some("1-2 hectares".into());
        assert_eq!(next_question(&answers), Some(1));
        answers.challenges = Some("Pests".into());
        assert_eq!(next_question(&answers), Some(1), "the first one missing");
        let losses = QUESTIONS.iter().position(|q| field(*q) == "post_harvest_losses").unwrap();
        for q in &QUESTIONS[..losses] {
            if let Choose(name, options) = q {
                answers.set(name, crate::model::survey::CellValue::Text(Some(options[0].to_string())));
            } else if let Short(name) = q {
                answers.set(name, crate::model::survey::CellValue::Text(Some("Mulch".into())));
            }
        }
        assert_eq!(next_question(&answers), Some(losses), "yes or no");
        answers.post_harvest_losses = true;
        assert_eq!(next_question(&answers), Some(losses + 1), "how much, after a yes");
        answers.post_harvest_losses = false;
        answers.selling_method = Some("To processors".into());
        assert_eq!(next_question(&answers), Some(losses + 3), "a no is answered once a later question is");
    }
}
