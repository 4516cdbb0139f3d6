//! USSD for basic phones (docs/ussd.md): a gateway posts each answer of a session;
//! the menu is rebuilt from the answers so far and the next screen written back.
//! The gateway's format is an adapter (`africas_talking`); the menus
//! (`menu`, `screens`, `farmer`) know nothing of it, and the emulator
//! (`POST /ussd/try`, for the app's drawn phone) goes through the same `respond`.

mod africas_talking;
mod apply;
pub mod commands;
mod coop;
mod farmer;
mod join;
mod learning;
mod lists;
mod menu;
mod pin;
mod sales;
mod screens;
pub mod session;

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::menu::{Ctx, Run};
use self::session::{Memo, Steps};
use crate::api::extract::ApiJson;
use crate::auth::{self, AuthUser};
use crate::db::throttles::Limit;
use crate::db::users::{self, UserRow};
use crate::domain::basic_phones as rules;
use crate::domain::phone;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::Lang;
use crate::model::user::Status;
use crate::state::AppState;

/// A gateway's request is a short form; anything larger is not one.
const BODY_LIMIT: usize = 4 * 1024;
/// Answers in one session at most (a person takes ~60 s a screen; gateways end sessions after a few minutes).
const MAX_ANSWERS: usize = 60;
const MAX_ANSWER_CHARS: usize = 160;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(africas_talking::session))
        .routes(routes!(try_menu))
        .routes(routes!(commands::incoming))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
}

/// One request of a USSD session, whatever gateway sent it.
#[derive(Debug, Clone)]
pub struct Dial {
    pub session: String,
    /// E.164.
    pub phone: String,
    /// Every answer of the session so far, oldest first.
    pub answers: Vec<String>,
    /// The language to start in when the number has chosen none (the emulator's).
    pub lang: Option<Lang>,
    /// The code the person dialled (the gateway's `serviceCode`, e.g. `*384*12#`), when
    /// it sent one that reads as a USSD code.
    pub service_code: Option<String>,
}

impl Dial {
    /// A dial from a gateway's fields, or `None` when they cannot be one.
    pub fn read(session: &str, phone_number: &str, text: &str, lang: Option<Lang>) -> Option<Dial> {
        let phone = international(phone_number)?;
        let session = session.trim();
        if session.is_empty() || session.chars().count() > 100 || session.chars().any(char::is_control) {
            return None;
        }
        let answers: Vec<String> =
            if text.is_empty() { Vec::new() } else { text.split('*').map(|a| a.trim().to_owned()).collect() };
        if answers.len() > MAX_ANSWERS || answers.iter().any(|a| a.chars().count() > MAX_ANSWER_CHARS) {
            return None;
        }
        Some(Dial { session: session.to_owned(), phone, answers, lang, service_code: None })
    }

    /// The dial, with the code the gateway says was dialled (kept only when it reads as one).
    pub fn dialled(mut self, code: Option<&str>) -> Dial {
        self.service_code = code.map(str::trim).filter(|c| crate::domain::settings::is_ussd_code(c)).map(str::to_owned);
        self
    }
}

/// A number as gateways send it (`+243991234567`), in E.164, or `None`.
fn international(number: &str) -> Option<String> {
    let number = number.trim();
    let digits = number.strip_prefix('+')?;
    ((8..=15).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit())).then(|| number.to_owned())
}

/// A screen: `end` when the session is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Reply {
    pub text: String,
    pub end: bool,
}

impl Reply {
    pub(crate) fn end(lang: Lang, key: &str) -> Reply {
        Reply { text: menu::fit(&lang.text(&format!("ussd.{key}"))), end: true }
    }
}

/// Whether `token` is this server's gateway secret (compared as digests, so the
/// time taken says nothing about how much of it was right).
pub fn token_is_ours(state: &AppState, token: &str) -> bool {
    Sha256::digest(state.gateway_token.as_bytes()) == Sha256::digest(token.as_bytes())
}

/// The next screen of `dial`'s session. Never fails: a fault is a polite last screen.
pub async fn respond(state: &AppState, dial: Dial) -> Reply {
    let metrics = std::sync::Arc::clone(state.db.metrics());
    if dial.answers.is_empty() {
        metrics.ussd_sessions.inc();
    }
    let started = std::time::Instant::now();
    let reply = next_screen(state, dial).await;
    metrics.ussd_answers.inc();
    metrics.ussd_seconds.observe(started.elapsed().as_secs_f64());
    reply
}

async fn next_screen(state: &AppState, dial: Dial) -> Reply {
    let lang = dial.lang.unwrap_or_else(|| Lang::for_country(rules::country_of(&dial.phone)));
    match state.throttles.ussd.reserve(&[&dial.phone]).await {
        Ok(Ok(())) => {}
        Ok(Err(_)) => {
            state
                .db
                .metrics()
                .throttled
                .get_or_create(&crate::platform::metrics::Why { reason: "ussd_slow_down" })
                .inc();
            return Reply::end(lang, "slow_down");
        }
        Err(err) => {
            tracing::warn!(%err, "USSD request failed");
            return Reply::end(lang, "busy");
        }
    }
    if let Some(code) = dial.service_code.clone() {
        remember_code(state, code).await;
    }
    match settle(state, &dial).await {
        Ok(reply) => reply,
        Err(err) => {
            tracing::warn!(%err, "USSD request failed");
            Reply::end(lang, "busy")
        }
    }
}

/// Keeps the code people dial, as the gateway says it, for the SMS that name it when no
/// super admin has set one (`domain::sms::dial_code`): written once, read each time.
async fn remember_code(state: &AppState, code: String) {
    let seen = code.clone();
    let kept = match state.db.read(move |conn| crate::domain::sms::dialled_is_new(conn, &seen)).await {
        Ok(false) => Ok(()),
        Ok(true) => state.db.write(move |tx| crate::domain::sms::note_dialled(tx, &code)).await,
        Err(err) => Err(err),
    };
    if let Err(err) = kept {
        tracing::warn!(%err, "could not keep the USSD code dialled");
    }
}

/// Runs the menu until it has a screen: first over a read, again in a write
/// transaction when an answer writes (what it learned kept in that transaction),
/// checking or hashing a PIN off the async threads when one is typed.
async fn settle(state: &AppState, dial: &Dial) -> ApiResult<Reply> {
    let ended = session::ended_slot(&dial.answers.join("*"));
    for _ in 0..4 {
        let (d, t, e) = (dial.clone(), state.throttles.sms_asked.limit(), ended.clone());
        let (run, learned) = state
            .db
            .read(move |conn| {
                let steps = session::load(conn, &d.phone, &d.session)?;
                // A gateway's repeat of the request that ended the session in a write.
                if let Some(Memo::Ended { reply }) = steps.get(&e) {
                    return Ok((Run::Reply(reply.clone()), Steps::new()));
                }
                once(conn, false, &d, &steps, t)
            })
            .await?;
        if !learned.is_empty() {
            let d = dial.clone();
            state.db.write(move |tx| session::keep(tx, &d.phone, &d.session, &learned)).await?;
        }
        let run = match run {
            Run::NeedsWrite => {
                let (d, t, e) = (dial.clone(), state.throttles.sms_asked.limit(), ended.clone());
                state
                    .db
                    .write(move |tx| {
                        let steps = session::load(tx, &d.phone, &d.session)?;
                        let (run, mut learned) = once(tx, true, &d, &steps, t)?;
                        if let Run::Reply(reply) = &run {
                            if reply.end {
                                learned.insert(e, Memo::Ended { reply: reply.clone() });
                            }
                        }
                        session::keep(tx, &d.phone, &d.session, &learned)?;
                        Ok(run)
                    })
                    .await?
            }
            other => other,
        };
        match run {
            Run::Reply(reply) => return Ok(reply),
            Run::NeedsWrite => return Err(AppError::internal("a USSD write asked for another write")),
            Run::NeedsPin { step, pin, hash } => check_pin(state, dial, step, pin, hash).await?,
            Run::NeedsHash { step, pin } => {
                let slot = session::answer_slot(step, &pin);
                let hash = auth::hash_password_async(rules::pin_secret(&pin)).await?;
                let (d, memo) = (dial.clone(), Memo::Hashed { hash });
                state.db.write(move |tx| session::keep_verdict(tx, &d.phone, &d.session, &slot, &memo)).await?;
            }
        }
    }
    Err(AppError::internal("the USSD menu did not settle"))
}

/// Checks the PIN typed at answer `step`: the try is taken (and counted as wrong)
/// before argon2 runs, so guesses sent at once get only the tries left; a right PIN
/// gives its try back. The verdict is kept for the session's later requests.
async fn check_pin(state: &AppState, dial: &Dial, step: usize, pin: String, hash: String) -> ApiResult<()> {
    let slot = session::answer_slot(step, &pin);
    let phone = dial.phone.clone();
    let taken = state.db.write(move |tx| rules::take_pin_try(tx, &phone)).await?;
    let memo = match taken {
        None => Memo::PinWrong { left: 0 },
        Some(left) => {
            if auth::verify_password_async(Some(hash), rules::pin_secret(&pin)).await? {
                let phone = dial.phone.clone();
                state.db.write(move |tx| rules::right_pin(tx, &phone)).await?;
                Memo::PinRight
            } else {
                Memo::PinWrong { left }
            }
        }
    };
    let d = dial.clone();
    state
        .db
        .write(move |tx| match taken {
            // A verdict of this try's own: over what an overlapping repeat kept.
            Some(_) => session::keep_verdict(tx, &d.phone, &d.session, &slot, &memo),
            // Locked by another try (perhaps this request's own first sending): never
            // over that try's verdict.
            None => session::keep(tx, &d.phone, &d.session, &Steps::from([(slot, memo)])),
        })
        .await
}

/// The language to answer `number` in: its chosen one, else its account's country's,
/// else its calling code's; English for what is not a number.
async fn language_of(state: &AppState, number: &str) -> Lang {
    let Some(phone) = international(number) else { return Lang::EN };
    let read = state.db.read(move |conn| {
        let person = account_of(conn, &phone)?;
        rules::language(conn, &phone, person.and_then(|p| p.country))
    });
    read.await.unwrap_or(Lang::EN)
}

/// The number's account, if it has one (an erased or duplicated number has none).
fn account_of(conn: &crate::db::Connection, phone: &str) -> ApiResult<Option<UserRow>> {
    let found = users::find_by_phones(conn, &[phone.to_owned()])?;
    Ok(match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    })
}

fn once(
    conn: &crate::db::Connection,
    write: bool,
    dial: &Dial,
    steps: &Steps,
    sms_asked: Limit,
) -> ApiResult<(Run, Steps)> {
    let person = account_of(conn, &dial.phone)?;
    let lang = match (&person, dial.lang) {
        (None, Some(lang)) if crate::db::phone_settings::language(conn, &dial.phone)?.is_none() => lang,
        _ => rules::language(conn, &dial.phone, person.as_ref().and_then(|p| p.country))?,
    };
    if person.as_ref().is_some_and(|p| p.status != Status::Active) {
        return Ok((Run::Reply(Reply::end(lang, "inactive")), Steps::new()));
    }
    let mut ctx = Ctx {
        conn,
        write,
        phone: &dial.phone,
        session: &dial.session,
        person,
        lang,
        steps,
        learned: Steps::new(),
        step: 0,
        answer: String::new(),
        screen: String::new(),
        unlocked: false,
        sms_asked,
    };
    let run = menu::run(&mut ctx, &dial.answers)?;
    Ok((run, ctx.learned))
}

/// A request of the emulator (the app's drawn phone).
#[derive(Deserialize, ToSchema)]
pub struct TryRequest {
    /// Any id the emulator keeps for one session (at most 100 characters on one line).
    #[schema(
        max_length = 100,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u001F\\u007F-\\u009F][^\\u0000-\\u001F\\u007F-\\u009F]*$"
    )]
    session_id: String,
    /// Every answer so far joined by `*`, as a gateway sends them.
    #[serde(default)]
    text: String,
    /// The number to dial as: admins only; others dial as their own number.
    phone: Option<String>,
    /// The language to start in when the number has chosen none: `en`, `fr`, `sw`.
    lang: Option<String>,
}

/// The USSD menu through the app: the same screens as a gateway's session, as
/// the signed-in person's own number (an admin may name any number).
#[utoipa::path(post, path = "/ussd/try", tag = "ussd", request_body = TryRequest,
    responses((status = 200, body = Reply), (status = 401, body = ErrorBody),
              (status = 422, description = "no_phone_number, invalid_phone, invalid_session", body = ErrorBody)),
    security(("bearer" = [])))]
async fn try_menu(
    State(state): State<AppState>,
    AuthUser { user, .. }: AuthUser,
    ApiJson(request): ApiJson<TryRequest>,
) -> ApiResult<Json<Reply>> {
    let number = match (&request.phone, user.role.is_admin()) {
        (Some(typed), true) => {
            let country = user.country.unwrap_or(crate::model::user::Country::Drc);
            phone::to_e164(typed, country)
                .ok_or_else(|| AppError::invalid("phone", "invalid_phone", "This is not a phone number"))?
        }
        _ => user.phone_number.clone().ok_or_else(|| {
            AppError::invalid("phone", "no_phone_number", "Add a phone number to your profile to try the USSD menu")
        })?,
    };
    let lang = request.lang.as_deref().map(|code| Lang::parse(Some(code)));
    let dial = Dial::read(&request.session_id, &number, &request.text, lang)
        .ok_or_else(|| AppError::invalid("session_id", "invalid_session", "This is not a USSD session"))?;
    Ok(Json(respond(&state, dial).await))
}
