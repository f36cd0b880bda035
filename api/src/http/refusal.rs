//! Refusals over HTTP in one JSON shape, `{"error": {"code", "message", "field"}}`, with the codes GraphQL uses,
//! in the reader's language (`Accept-Language`, Portuguese by default): what every handler answers when it says no.

use crate::graphql::error::ApiError;
use axum::{
    Json,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use jobs::report::messages::{Lang, Message, code};
use serde_json::json;
use service::ServiceError;

/// The one shape of REST errors, with the codes GraphQL uses: `{"error": {"code", "message", "field"}}`.
pub fn rest_error(status: StatusCode, code: &str, field: Option<&str>, message: String) -> Response {
    (
        status,
        Json(json!({ "error": { "code": code, "message": message, "field": field } })),
    )
        .into_response()
}

/// The code of a REST error by its status.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "NOT_FOUND",
        StatusCode::UNAUTHORIZED => "UNAUTHENTICATED",
        StatusCode::FORBIDDEN => "FORBIDDEN",
        StatusCode::PAYLOAD_TOO_LARGE => "PAYLOAD_TOO_LARGE",
        s if s.is_server_error() => "INTERNAL",
        _ => "BAD_USER_INPUT",
    }
}

/// A refusal for a bank, in its language.
pub(crate) fn refuse(status: StatusCode, field: Option<&str>, message: Message, lang: Lang) -> Response {
    let mut resp = rest_error(status, code_of(status), field, message.render(lang));
    resp.headers_mut()
        .insert(header::CONTENT_LANGUAGE, header::HeaderValue::from_static(lang.tag()));
    resp
}

/// The status a service error answers with.
pub(crate) fn status_of(e: &ServiceError) -> StatusCode {
    match e.code() {
        "NOT_FOUND" => StatusCode::NOT_FOUND,
        "UNAUTHENTICATED" => StatusCode::UNAUTHORIZED,
        "FORBIDDEN" => StatusCode::FORBIDDEN,
        "INTERNAL" => StatusCode::INTERNAL_SERVER_ERROR,
        "UNAVAILABLE" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// A service error for a bank, in its language.
pub(crate) fn refuse_service(e: ServiceError, lang: Lang) -> Response {
    let status = status_of(&e);
    let mut resp = rest_error(status, e.code(), e.field(), e.render(lang));
    if status == StatusCode::SERVICE_UNAVAILABLE {
        resp.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("60"));
    }
    resp.headers_mut()
        .insert(header::CONTENT_LANGUAGE, header::HeaderValue::from_static(lang.tag()));
    resp
}

/// The language of an HTTP request's answers for banks (`Accept-Language`; Portuguese by default).
pub fn lang_of(headers: &axum::http::HeaderMap) -> Lang {
    Lang::from_accept_language(headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
}

/// An internal failure answered to a bank (logged with its detail).
pub(crate) fn internal(detail: String, lang: Lang) -> Response {
    tracing::error!(%detail, "internal error in a bank-report handler");
    refuse(
        StatusCode::INTERNAL_SERVER_ERROR,
        None,
        Message::new(code::INTERNAL),
        lang,
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match &self {
            ApiError::BadUserInput(_) | ApiError::RuleViolation { .. } => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Unavailable(_) | ApiError::DatabaseUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error in an HTTP handler");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        rest_error(status, self.code(), None, self.to_string())
    }
}
