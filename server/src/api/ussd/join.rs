//! Joining MAVUNO from a basic phone (docs/ussd.md): name, country when the number's
//! calling code is not one we serve, province and territory from a list (or the town,
//! typed), then the same account an agent's registration makes.

use super::menu::{Ctx, Next, Screen, Show, choice};
use crate::db::phone_settings;
use crate::domain::accounts::AccountForm;
use crate::domain::registrations;
use crate::error::{ApiResult, AppError};
use crate::labels::Lang;
use crate::model::user::Country;
use crate::platform::clock;
use crate::platform::gsm7;

/// A new account's answers so far.
#[derive(Debug, Clone, Default)]
pub struct JoinDraft {
    first_name: Option<String>,
    last_name: Option<String>,
    country: Option<Country>,
    /// An index of `PROVINCES`; its length for another province.
    province: Option<usize>,
    /// The territory chosen from the province's list, or the town typed.
    place: Option<String>,
}

/// The provinces whose territories the menu lists (the rest type their town).
const PROVINCES: &[(&str, &[&str])] = &[
    ("south_kivu", &["Bukavu", "Kabare", "Walungu", "Kalehe", "Idjwi", "Mwenga", "Shabunda", "Uvira", "Fizi"]),
    ("north_kivu", &["Goma", "Nyiragongo", "Masisi", "Rutshuru", "Walikale", "Lubero", "Beni"]),
];
const COUNTRIES: [Country; 6] = [Country::Drc, Country::Bdi, Country::Rwa, Country::Uga, Country::Tza, Country::Ken];

/// What joining asks next.
enum Ask {
    FirstName,
    LastName,
    Country,
    Province,
    Territory(usize),
    Town,
    Confirm,
}

impl JoinDraft {
    /// A draft for `phone`: its country is known when its calling code is one we serve.
    pub fn for_number(phone: &str) -> JoinDraft {
        JoinDraft { country: crate::domain::basic_phones::country_of(phone), ..JoinDraft::default() }
    }

    fn ask(&self) -> Ask {
        match self {
            JoinDraft { first_name: None, .. } => Ask::FirstName,
            JoinDraft { last_name: None, .. } => Ask::LastName,
            JoinDraft { country: None, .. } => Ask::Country,
            JoinDraft { country: Some(Country::Drc), province: None, .. } => Ask::Province,
            JoinDraft { province: Some(i), place: None, .. } if *i < PROVINCES.len() => Ask::Territory(*i),
            JoinDraft { place: None, .. } => Ask::Town,
            _ => Ask::Confirm,
        }
    }

    /// Where the person lives, with the province's name in `lang` (the account keeps it
    /// in English, as the app's location field and an agent's registration do).
    fn place_in(&self, lang: Lang) -> Option<String> {
        let place = self.place.clone()?;
        Some(match self.province.and_then(|p| PROVINCES.get(p)) {
            Some((key, _)) => format!("{place}, {}", lang.text(&format!("ussd.provinces.{key}"))),
            None => place,
        })
    }
}

pub fn join_show(ctx: &Ctx<'_>, draft: &JoinDraft) -> Show {
    match draft.ask() {
        Ask::FirstName => Show::ask(ctx.text("join.first_name")),
        Ask::LastName => Show::ask(ctx.text("join.last_name")),
        Ask::Town => Show::ask(ctx.text("join.town")),
        Ask::Country => Show {
            text: ctx.text("join.country"),
            choices: COUNTRIES.iter().map(|c| ctx.lang.text(&format!("countries.{}", c.as_str()))).collect(),
            more: false,
        },
        Ask::Province => Show {
            text: ctx.text("join.province"),
            choices: PROVINCES
                .iter()
                .map(|(key, _)| ctx.text(&format!("provinces.{key}")))
                .chain([ctx.text("join.other")])
                .collect(),
            more: false,
        },
        Ask::Territory(i) => Show {
            text: ctx.text("join.territory"),
            choices: PROVINCES[i].1.iter().map(|t| (*t).to_owned()).collect(),
            more: false,
        },
        Ask::Confirm => Show {
            text: ctx.format(
                "join.confirm",
                &[
                    (
                        "name",
                        &format!(
                            "{} {}",
                            draft.first_name.as_deref().unwrap_or(""),
                            draft.last_name.as_deref().unwrap_or("")
                        ),
                    ),
                    ("place", &draft.place_in(ctx.lang).unwrap_or_default()),
                ],
            ),
            choices: vec![ctx.text("yes"), ctx.text("no")],
            more: false,
        },
    }
}

/// A name or place typed on a keypad: 2 to 40 characters, letters first.
fn short_text(answer: &str) -> Option<String> {
    let text = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    let fine = (2..=40).contains(&text.chars().count())
        && text.chars().next().is_some_and(char::is_alphabetic)
        && text.chars().all(|c| c.is_alphanumeric() || " -'.".contains(c));
    fine.then_some(text)
}

pub fn join_answer(ctx: &mut Ctx<'_>, draft: &JoinDraft, answer: &str) -> ApiResult<Next> {
    let mut next = draft.clone();
    match draft.ask() {
        Ask::FirstName | Ask::LastName | Ask::Town => {
            let Some(text) = short_text(answer) else { return Ok(Next::Again(ctx.text("join.name_invalid"))) };
            match draft.ask() {
                Ask::FirstName => next.first_name = Some(text),
                Ask::LastName => next.last_name = Some(text),
                _ => next.place = Some(text),
            }
        }
        Ask::Country => match choice(ctx, answer, COUNTRIES.len()) {
            Ok(i) => next.country = Some(COUNTRIES[i]),
            Err(why) => return Ok(Next::Again(why)),
        },
        Ask::Province => match choice(ctx, answer, PROVINCES.len() + 1) {
            Ok(i) => next.province = Some(i),
            Err(why) => return Ok(Next::Again(why)),
        },
        Ask::Territory(p) => match choice(ctx, answer, PROVINCES[p].1.len()) {
            Ok(i) => next.place = Some(PROVINCES[p].1[i].to_owned()),
            Err(why) => return Ok(Next::Again(why)),
        },
        Ask::Confirm => {
            return match choice(ctx, answer, 2) {
                Ok(0) => ctx.write_once(|ctx| join(ctx, draft), || Next::End(String::new())),
                Ok(_) => Ok(Next::End(ctx.text("join.cancelled"))),
                Err(why) => Ok(Next::Again(why)),
            };
        }
    }
    Ok(Next::Open(Screen::Join(next)))
}

fn join(ctx: &mut Ctx<'_>, draft: &JoinDraft) -> ApiResult<Next> {
    let form = AccountForm {
        first_name: draft.first_name.clone(),
        last_name: draft.last_name.clone(),
        phone_number: Some(ctx.phone.to_owned()),
        country: draft.country.map(|c| c.as_str().to_owned()),
        location: draft.place_in(Lang::EN),
        ..AccountForm::default()
    };
    // The language the person joined in is the number's from now on (menus and SMS),
    // whatever its calling code suggests; the welcome names the code they dialled (kept
    // before the menu ran: `remember_code`).
    phone_settings::set_language(ctx.conn, ctx.phone, ctx.lang.code(), &clock::now())?;
    match registrations::join_by_phone(ctx.conn, &form) {
        Ok(person) => {
            let text = ctx.format("join.done", &[("name", &gsm7::cut(&person.first_name, 20))]);
            ctx.person = Some(person);
            Ok(Next::End(text))
        }
        Err(AppError::Validation(_)) => Ok(Next::End(ctx.text("join.exists"))),
        Err(err) => Err(err),
    }
}
