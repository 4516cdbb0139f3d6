//! Field agents: the people they can fill applications for. The
//! applications themselves go through sync (`survey.create` with `user_id`).

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::AgentUser;
use crate::db::users;
use crate::domain::surveys;
use crate::error::{ApiResult, ErrorBody};
use crate::model::user::{Country, Role};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(people)).routes(routes!(take_up_draft))
}

/// What an agent needs to find and recognise a person in the field.
#[derive(Serialize, ToSchema)]
pub struct PersonCard {
    id: i64,
    first_name: String,
    last_name: String,
    email: Option<String>,
    phone_number: Option<String>,
    country: Option<Country>,
    location: Option<String>,
    role: Role,
    /// The `person.register` uid, for a person a field agent registered from the phone.
    uid: Option<String>,
    /// An application of theirs waits for a decision (whoever filed it): a new one
    /// would be refused, so the agent is told before filling it.
    application_waiting: bool,
    /// They started an application themselves (in the app, or by USSD on a basic phone)
    /// and have not sent it: the agent can finish it with them
    /// (`POST /agent/people/{id}/application`).
    own_draft: bool,
}

impl From<users::Surveyable> for PersonCard {
    fn from(surveyable: users::Surveyable) -> Self {
        let users::Surveyable { user: u, registered_uid: uid, application_waiting, own_draft } = surveyable;
        PersonCard {
            id: u.id,
            uid,
            application_waiting,
            own_draft,
            first_name: u.first_name,
            last_name: u.last_name,
            email: u.email,
            phone_number: u.phone_number,
            country: u.country,
            location: u.location,
            role: u.role,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PeopleList {
    success: bool,
    data: Vec<PersonCard>,
}

/// Active buyers and farmers, by name: the people a field agent (or admin)
/// can fill an application for. The PWA keeps a copy for offline visits.
#[utoipa::path(get, path = "/agent/people", tag = "agent", security(("bearer" = [])),
    responses((status = 200, body = PeopleList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn people(State(state): State<AppState>, _agent: AgentUser) -> ApiResult<Json<PeopleList>> {
    let rows = state.db.read(|conn| Ok(users::surveyable(conn)?)).await?;
    Ok(Json(PeopleList { success: true, data: rows.into_iter().map(PersonCard::from).collect() }))
}

#[derive(Serialize, ToSchema)]
pub struct TakenUp {
    success: bool,
    /// The application's uid: the agent's phone has it at its next pull.
    uid: String,
}

/// Takes up the draft application person `id` started themselves (in the app or by
/// USSD): the agent (or admin) authors it from now on, to finish it with them.
#[utoipa::path(post, path = "/agent/people/{id}/application", tag = "agent", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = TakenUp), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, description = "no_draft", body = ErrorBody),
              (status = 422, description = "user_required: not an active buyer or farmer", body = ErrorBody)))]
async fn take_up_draft(
    State(state): State<AppState>,
    AgentUser(agent): AgentUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<TakenUp>> {
    let survey = state.db.write(move |tx| surveys::take_up_draft(tx, &agent.user, id)).await?;
    Ok(Json(TakenUp { success: true, uid: survey.uid }))
}
