//! Photo uploads (docs/sync.md): a phone resizes a photo,
//! names it by its SHA-256 and PUTs it before pushing the change that uses
//! it. Idempotent: the same bytes again answer 200 with the same result, and
//! HEAD tells a phone whether it still needs to send them after a dropped
//! connection. Photos are small by then (~200 KB), so a retry is cheap.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::AuthUser;
use crate::db::uploads;
use crate::domain::uploads as rules;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::outbound::media::{self, MediaStore, PHOTO_SIZES};
use crate::platform::clock;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(put_upload, head_upload))
        .layer(DefaultBodyLimit::max(media::MAX_IMAGE_BYTES))
        .layer(axum::middleware::from_fn(|request, next| media::reserve_body(media::MAX_IMAGE_BYTES, request, next)))
}

#[derive(Serialize, ToSchema)]
pub struct Upload {
    sha256: String,
    bytes: i64,
    /// ~320 px, for lists and cards.
    thumbnail_url: String,
    /// ~1024 px, for a detail view (the same name ending `-720.jpg` is a phone's size).
    display_url: String,
    created_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct UploadResponse {
    success: bool,
    upload: Upload,
}

fn check_hash(sha256: &str) -> ApiResult<()> {
    if media::is_hash(sha256) {
        Ok(())
    } else {
        Err(AppError::bad_request("invalid_hash", "The address must be a lower-case hex SHA-256"))
    }
}

fn response(row: uploads::UploadRow) -> UploadResponse {
    UploadResponse {
        success: true,
        upload: Upload {
            thumbnail_url: MediaStore::url(&row.sha256, media::THUMBNAIL),
            display_url: MediaStore::url(&row.sha256, media::DISPLAY),
            sha256: row.sha256,
            bytes: row.bytes,
            created_at: row.created_at,
        },
    }
}

/// Upload a photo under the SHA-256 of its bytes. 201 the first time, 200 after.
#[utoipa::path(put, path = "/uploads/{sha256}", tag = "uploads", security(("bearer" = [])),
    params(("sha256" = String, Path, description = "Lower-case hex SHA-256 of the body", pattern = "^[0-9a-f]{64}$")),
    request_body(content = Vec<u8>, content_type = "image/jpeg", description = "JPEG, PNG, GIF or WebP, at most 5 MB"),
    responses(
        (status = 201, body = UploadResponse), (status = 200, description = "Already uploaded", body = UploadResponse),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 403, description = "uploads_not_allowed (buyers)", body = ErrorBody),
        (status = 409, description = "upload_quota_full", body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, description = "The body does not match the hash", body = ErrorBody),
        (status = 429, description = "too_many_uploads this hour", body = ErrorBody),
        (status = 503, description = "Busy with other pictures; try again after Retry-After", body = ErrorBody),
    ))]
async fn put_upload(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(sha256): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<UploadResponse>)> {
    check_hash(&sha256)?;
    rules::may_upload(&auth.user)?;
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            media::too_large()
        } else {
            AppError::bad_request("unreadable_body", "The request body could not be read")
        }
    })?;
    if hex::encode(Sha256::digest(&body)) != sha256 {
        return Err(AppError::invalid("sha256", "hash_mismatch", "The photo arrived damaged; please send it again"));
    }
    let lookup = sha256.clone();
    if let Some(existing) = state.db.read(move |conn| Ok(uploads::find(conn, &lookup)?)).await? {
        return Ok((StatusCode::OK, Json(response(existing))));
    }
    let bytes = body.len() as i64;
    let user = auth.user.clone();
    state.db.read(move |conn| rules::check_quota(conn, &user, bytes)).await?;
    state.media.store_image(body.to_vec(), PHOTO_SIZES).await?;
    let user = auth.user;
    let (created, row) = state
        .db
        .write(move |tx| {
            // Checked again where it counts: parallel uploads cannot all pass the first check.
            if uploads::find(tx, &sha256)?.is_none() {
                rules::check_quota(tx, &user, bytes)?;
            }
            let created = uploads::insert(tx, &sha256, user.id, bytes, &clock::now())?;
            let row = uploads::find(tx, &sha256)?.ok_or_else(|| AppError::internal("upload vanished"))?;
            Ok((created, row))
        })
        .await?;
    Ok((if created { StatusCode::CREATED } else { StatusCode::OK }, Json(response(row))))
}

/// Has this photo arrived? 200 if so, 404 if it still needs to be sent.
#[utoipa::path(head, path = "/uploads/{sha256}", tag = "uploads", security(("bearer" = [])),
    params(("sha256" = String, Path, description = "Lower-case hex SHA-256", pattern = "^[0-9a-f]{64}$")),
    responses((status = 200, description = "Already uploaded"), (status = 404, description = "Not yet uploaded")))]
async fn head_upload(
    State(state): State<AppState>,
    _auth: AuthUser,
    Path(sha256): Path<String>,
) -> ApiResult<StatusCode> {
    check_hash(&sha256)?;
    let found = state.db.read(move |conn| Ok(uploads::find(conn, &sha256)?)).await?;
    Ok(if found.is_some() { StatusCode::OK } else { StatusCode::NOT_FOUND })
}
