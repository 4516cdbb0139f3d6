//! The one error type of the API and its JSON shape
//! (`{"success": false, "code", "message", "errors", "error_codes"}`).

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::ser::SerializeMap;
use utoipa::ToSchema;

pub type ApiResult<T> = Result<T, AppError>;

/// Validation failures, in the order the rules were checked (docs/product.md, Validation),
/// grouped by field. Serialised as JSON objects that keep that order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FieldErrors(Vec<(String, Vec<FieldError>)>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub code: &'static str,
    pub message: String,
}

impl FieldErrors {
    pub fn add(&mut self, field: &str, code: &'static str, message: impl Into<String>) {
        let error = FieldError { code, message: message.into() };
        match self.0.iter_mut().find(|(name, _)| name == field) {
            Some((_, list)) => list.push(error),
            None => self.0.push((field.to_owned(), vec![error])),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|(name, _)| name == field)
    }

    /// The first failure, the one a form shows on top.
    pub fn first(&self) -> Option<&FieldError> {
        self.0.first().and_then(|(_, list)| list.first())
    }

    /// field → codes, in order, as the `error_codes` of an error answer.
    pub fn code_map(&self) -> serde_json::Value {
        serde_json::to_value(FieldMap(self, code_of)).unwrap_or_default()
    }

    /// Each failure as `field: code`, in order (an import's refused rows).
    pub fn fields_and_codes(&self) -> Vec<String> {
        self.0.iter().flat_map(|(field, list)| list.iter().map(move |e| format!("{field}: {}", e.code))).collect()
    }

    pub fn codes(&self) -> Vec<&'static str> {
        self.0.iter().flat_map(|(_, list)| list.iter().map(|e| e.code)).collect()
    }

    /// `Ok(())` when nothing failed, so checks end with `errors.finish()?`.
    pub fn finish(self) -> ApiResult<()> {
        if self.is_empty() { Ok(()) } else { Err(AppError::Validation(self)) }
    }
}

/// Serialises one projection of the errors (messages or codes) as an ordered map.
struct FieldMap<'a>(&'a FieldErrors, fn(&FieldError) -> &str);

fn message_of(error: &FieldError) -> &str {
    &error.message
}

fn code_of(error: &FieldError) -> &str {
    error.code
}

impl Serialize for FieldMap<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.0.len()))?;
        for (field, list) in &self.0.0 {
            let values: Vec<&str> = list.iter().map(self.1).collect();
            map.serialize_entry(field, &values)?;
        }
        map.end()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Anything the client can act on: the status, a stable code the PWA
    /// translates, and an English sentence.
    #[error("{status} {code}: {message}")]
    Client {
        status: StatusCode,
        code: &'static str,
        message: String,
        retry_after_secs: Option<u64>,
        /// What the refusal is about, when a sentence is not enough (e.g. the
        /// lines of an order whose price changed).
        details: Option<Box<serde_json::Value>>,
    },
    #[error("validation failed")]
    Validation(FieldErrors),
    /// Our fault. Logged with its causes, never described to the client.
    #[error("internal error: {0}")]
    Internal(Cause),
}

/// What went wrong on our side, with the error it came from and that error's own
/// causes (`source()`), all written when it is logged.
#[derive(Debug)]
pub struct Cause(Box<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

/// An error with a word on where it happened, keeping it as its source.
#[derive(Debug, thiserror::Error)]
#[error("{context}")]
struct Context {
    context: &'static str,
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl AppError {
    pub fn client(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        AppError::Client { status, code, message: message.into(), retry_after_secs: None, details: None }
    }
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::UNAUTHORIZED, code, message)
    }
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::FORBIDDEN, code, message)
    }
    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::NOT_FOUND, code, message)
    }
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::CONFLICT, code, message)
    }
    /// A 409 whose `details` say exactly what conflicts.
    pub fn conflict_with(code: &'static str, message: impl Into<String>, details: serde_json::Value) -> Self {
        AppError::Client {
            status: StatusCode::CONFLICT,
            code,
            message: message.into(),
            retry_after_secs: None,
            details: Some(Box::new(details)),
        }
    }
    /// No text the API reads holds a NUL character: it could not be stored, and is nobody's word.
    pub fn invalid_text() -> Self {
        Self::bad_request("invalid_text", "A text holds a NUL character, which cannot be stored")
    }
    pub fn too_large(code: &'static str, message: impl Into<String>) -> Self {
        Self::client(StatusCode::PAYLOAD_TOO_LARGE, code, message)
    }
    pub fn unsupported_media_type(message: impl Into<String>) -> Self {
        Self::client(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", message)
    }
    pub fn too_many_requests(code: &'static str, message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self::retry_later(StatusCode::TOO_MANY_REQUESTS, code, message, retry_after_secs)
    }
    /// 503: the server is busy, not the client's fault; `Retry-After` says when to come back.
    pub fn unavailable(code: &'static str, message: impl Into<String>, retry_after_secs: u64) -> Self {
        Self::retry_later(StatusCode::SERVICE_UNAVAILABLE, code, message, retry_after_secs)
    }
    fn retry_later(status: StatusCode, code: &'static str, message: impl Into<String>, retry_after_secs: u64) -> Self {
        AppError::Client {
            status,
            code,
            message: message.into(),
            retry_after_secs: Some(retry_after_secs),
            details: None,
        }
    }

    /// A single-field validation failure.
    pub fn invalid(field: &str, code: &'static str, message: impl Into<String>) -> Self {
        let mut errors = FieldErrors::default();
        errors.add(field, code, message);
        AppError::Validation(errors)
    }
    /// Our fault: an error (kept with its causes) or a sentence saying what cannot be.
    pub fn internal(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        AppError::Internal(Cause(cause.into()))
    }

    /// Our fault, `while` doing something: the error stays the source.
    pub fn internal_while(context: &'static str, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        AppError::Internal(Cause(Box::new(Context { context, source: source.into() })))
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Client { status, .. } => *status,
            AppError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The sentence a client would see for this error.
    pub fn message(&self) -> String {
        match self {
            AppError::Client { message, .. } => message.clone(),
            AppError::Validation(fields) => fields.first().map(|e| e.message.clone()).unwrap_or_default(),
            AppError::Internal(_) => "Something went wrong on our side. Please try again.".to_owned(),
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::Client { code, .. } => code,
            AppError::Validation(_) => "validation_failed",
            AppError::Internal(_) => "internal_error",
        }
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(err: tokio::task::JoinError) -> Self {
        AppError::internal_while("blocking task", err)
    }
}

impl From<std::io::Error> for AppError {
    fn from(err: std::io::Error) -> Self {
        AppError::internal_while("io", err)
    }
}

/// The JSON body of every error answer.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always false.
    pub success: bool,
    /// Stable snake_case code; the PWA translates it.
    pub code: String,
    /// English sentence (the spec's wording where it gives one).
    pub message: String,
    /// Validation only: field → messages, in the order the rules were checked.
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<serde_json::Value>,
    /// Validation only: field → codes, parallel to `errors`.
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_codes: Option<serde_json::Value>,
    /// Some refusals only: what exactly conflicts (e.g. an order's changed lines).
    #[schema(value_type = Option<Object>)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let code = self.code();
        let details = match &self {
            AppError::Client { details, .. } => details.as_deref().cloned(),
            _ => None,
        };
        let (message, errors, error_codes, retry_after) = match &self {
            AppError::Client { message, retry_after_secs, .. } => (message.clone(), None, None, *retry_after_secs),
            AppError::Validation(fields) => {
                let message = fields.first().map(|e| e.message.clone()).unwrap_or_default();
                let errors = serde_json::to_value(FieldMap(fields, message_of)).ok();
                let codes = serde_json::to_value(FieldMap(fields, code_of)).ok();
                (message, errors, codes, None)
            }
            AppError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                ("Something went wrong on our side. Please try again.".to_owned(), None, None, None)
            }
        };
        let body = ErrorBody { success: false, code: code.to_owned(), message, errors, error_codes, details };
        let mut response = (status, Json(body)).into_response();
        if let Some(secs) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response.extensions_mut().insert(crate::platform::middleware::ErrorCode(code));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_keep_the_order_they_were_found_in() {
        let mut errors = FieldErrors::default();
        errors.add("password", "passwords_do_not_match", "Passwords do not match");
        errors.add("first_name", "first_name_required", "First name is required");
        errors.add("password", "password_too_short", "Password must be at least 6 characters long");
        let json = serde_json::to_string(&FieldMap(&errors, message_of)).unwrap();
        assert_eq!(
            json,
            r#"{"password":["Passwords do not match","Password must be at least 6 characters long"],"first_name":["First name is required"]}"#
        );
        assert_eq!(errors.first().unwrap().code, "passwords_do_not_match");
    }

    #[test]
    fn an_internal_error_is_logged_with_its_causes_and_told_to_nobody() {
        let full = AppError::internal_while("saving a photo", std::io::Error::other("disk full"));
        assert_eq!(full.to_string(), "internal error: saving a photo: disk full");
        assert_eq!(
            (full.code(), full.message().as_str()),
            ("internal_error", "Something went wrong on our side. Please try again.")
        );
    }
}
