//! Request extractors that answer bad input with the API's JSON errors
//! instead of axum's plain-text rejections.

use std::net::{IpAddr, SocketAddr};

use axum::Json;
use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Multipart, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::domain::accounts::AccountForm;
use crate::error::AppError;
use crate::outbound::media;
use crate::platform::strict_json;
use crate::state::AppState;

/// Text fields of a form are short; this bounds what one may hold.
pub(crate) const MAX_TEXT_FIELD_BYTES: usize = 16 * 1024;

/// The address a request comes from, proxies considered (`middleware::client_ip`).
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|info| info.0.ip())
            .ok_or_else(|| AppError::internal("no peer address"))?;
        Ok(ClientIp(crate::platform::middleware::client_ip(&state.config, peer, &parts.headers)))
    }
}

/// `Json<T>` with JSON error answers, and an object wherever `T` expects a record
/// (`platform::strict_json`: serde alone would take `[null, null]` for one).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let Json(body) = Json::<serde_json::Value>::from_request(req, state).await.map_err(json_rejection)?;
        strict_json::from_value(&body).map(ApiJson).map_err(|unreadable| match unreadable {
            strict_json::Unreadable::Nul => AppError::invalid_text(),
            strict_json::Unreadable::Shape(err) => {
                AppError::bad_request("invalid_body", format!("The request body has the wrong shape: {err}"))
            }
        })
    }
}

fn json_rejection(rejection: JsonRejection) -> AppError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            AppError::unsupported_media_type("Expected a JSON body (Content-Type: application/json)")
        }
        JsonRejection::JsonSyntaxError(_) => {
            AppError::bad_request("malformed_json", "The request body is not valid JSON")
        }
        JsonRejection::JsonDataError(err) => {
            AppError::bad_request("invalid_body", format!("The request body has the wrong shape: {}", err.body_text()))
        }
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => request_too_large(),
        _ => AppError::bad_request("unreadable_body", "The request body could not be read"),
    }
}

pub fn request_too_large() -> AppError {
    AppError::too_large("request_too_large", "The request is too large")
}

pub(crate) fn multipart_error(err: MultipartError) -> AppError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        request_too_large()
    } else {
        AppError::bad_request("malformed_multipart", "The form data could not be read")
    }
}

pub(crate) fn multipart_rejection(rejection: MultipartRejection) -> AppError {
    tracing::debug!(%rejection, "multipart rejected");
    AppError::bad_request("malformed_multipart", "The form data could not be read")
}

/// Reads a field to its end, refusing more than `limit` bytes as soon as they arrive.
pub(crate) async fn read_field(
    field: &mut Field<'_>,
    limit: usize,
    too_big: fn() -> AppError,
) -> Result<Vec<u8>, AppError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        if bytes.len() + chunk.len() > limit {
            return Err(too_big());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// A form field's text: UTF-8, with no NUL character (`invalid_text`, as in JSON).
pub(crate) fn field_text(bytes: Vec<u8>) -> Result<String, AppError> {
    let text = String::from_utf8(bytes)
        .map_err(|_| AppError::bad_request("malformed_multipart", "Form fields must be UTF-8 text"))?;
    if text.contains('\0') {
        return Err(AppError::invalid_text());
    }
    Ok(text)
}

pub(crate) fn field_too_long() -> AppError {
    AppError::too_large("field_too_large", "A form field is too long")
}

/// The fields of a `user[...]` form, sent as multipart (the spec's client)
/// or as `{"user": {...}}` JSON.
pub struct UserForm(pub AccountForm);

impl FromRequest<AppState> for UserForm {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::from_request(req, state).await.map_err(multipart_rejection)?;
            return read_user_multipart(multipart).await.map(UserForm);
        }
        #[derive(Deserialize)]
        struct Envelope {
            user: AccountForm,
        }
        if content_type.starts_with("application/json") {
            let ApiJson(Envelope { user }) = ApiJson::from_request(req, state).await?;
            return Ok(UserForm(user));
        }
        Err(AppError::unsupported_media_type("Send the form as multipart/form-data or as JSON"))
    }
}

async fn read_user_multipart(mut multipart: Multipart) -> Result<AccountForm, AppError> {
    let mut form = AccountForm::default();
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        let key = name.strip_prefix("user[").and_then(|n| n.strip_suffix(']')).unwrap_or(&name);
        if key == "avatar" {
            let bytes = read_field(&mut field, media::MAX_IMAGE_BYTES, media::too_large).await?;
            // Browsers send an empty part when no file was chosen.
            form.avatar = Some(bytes).filter(|b| !b.is_empty());
            continue;
        }
        let bytes = read_field(&mut field, MAX_TEXT_FIELD_BYTES, field_too_long).await?;
        // Every field's text is read, also one left out: none may hold NUL (as in JSON).
        let text = field_text(bytes)?;
        let slot = match key {
            "first_name" => &mut form.first_name,
            "last_name" => &mut form.last_name,
            "email" => &mut form.email,
            "phone_number" => &mut form.phone_number,
            "country" => &mut form.country,
            "password" => &mut form.password,
            "password_confirmation" => &mut form.password_confirmation,
            "username" => &mut form.username,
            "location" => &mut form.location,
            "business_name" => &mut form.business_name,
            "current_password" => &mut form.current_password,
            "sms_updates" => &mut form.sms_updates,
            _ => continue,
        };
        *slot = Some(text);
    }
    Ok(form)
}

/// A `product[...]` form (docs/api.md): multipart with repeated
/// `product[images][]` files, or `{"product": {...}}` JSON whose `images`
/// name photos already sent to `/uploads`.
pub struct ProductForm {
    pub uid: Option<String>,
    pub input: sync_protocol::ListingInput,
    /// Photo files sent with a multipart form, not yet checked.
    pub files: Vec<Vec<u8>>,
}

impl FromRequest<AppState> for ProductForm {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::from_request(req, state).await.map_err(multipart_rejection)?;
            return read_product_multipart(multipart).await;
        }
        #[derive(Deserialize)]
        struct Body {
            #[serde(default)]
            uid: Option<String>,
            #[serde(flatten)]
            input: sync_protocol::ListingInput,
        }
        #[derive(Deserialize)]
        struct Envelope {
            product: Body,
        }
        if content_type.starts_with("application/json") {
            let ApiJson(Envelope { product }) = ApiJson::from_request(req, state).await?;
            return Ok(ProductForm { uid: product.uid, input: product.input, files: Vec::new() });
        }
        Err(AppError::unsupported_media_type("Send the form as multipart/form-data or as JSON"))
    }
}

/// A listing's fields that hold a list: certifications, tags, photos by hash.
const LIST_FIELDS: [&str; 3] = ["certifications", "tags", "images"];

async fn read_product_multipart(mut multipart: Multipart) -> Result<ProductForm, AppError> {
    use serde_json::{Map, Value};
    let mut fields = Map::new();
    let mut uid = None;
    let mut files = Vec::new();
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        // product[title] → title; product[images][] → images[]
        let inner = name.strip_prefix("product[").unwrap_or(&name);
        let key = match inner.strip_suffix("][]") {
            Some(list) => format!("{list}[]"),
            None => inner.strip_suffix(']').unwrap_or(inner).to_owned(),
        };
        let is_file = field.file_name().is_some() || field.content_type().is_some_and(|t| t.starts_with("image/"));
        if (key == "images[]" || key == "images") && is_file {
            let bytes = read_field(&mut field, media::MAX_IMAGE_BYTES, media::too_large).await?;
            if !bytes.is_empty() {
                if files.len() == crate::domain::products::MAX_IMAGES {
                    return Err(AppError::invalid("images", "too_many_images", "At most 6 photos"));
                }
                files.push(bytes);
            }
            continue;
        }
        let bytes = read_field(&mut field, MAX_TEXT_FIELD_BYTES, field_too_long).await?;
        let text = field_text(bytes)?;
        // Repeated fields make a list, with `[]` or without (as a form sends an array).
        let list = key.strip_suffix("[]").or_else(|| LIST_FIELDS.contains(&key.as_str()).then_some(key.as_str()));
        match list {
            Some(list) => {
                let entry = fields.entry(list.to_owned()).or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(items) = entry {
                    items.push(Value::String(text));
                }
            }
            None if key == "uid" => uid = Some(text),
            None => {
                fields.insert(key, Value::String(text));
            }
        }
    }
    let input = serde_json::from_value(Value::Object(fields))
        .map_err(|err| AppError::bad_request("invalid_body", format!("The form has the wrong shape: {err}")))?;
    Ok(ProductForm { uid, input, files })
}
