//! Every error of the API as JSON: `{"error": "...", "line": N}` (line when the problem is on a line of a
//! log), with the status that says what kind of problem it is.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use almanac_service::ServiceError;
use almanac_store::StoreError;
use serde_json::json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub line: Option<usize>,
    /// Seconds after which a retry may succeed (a 429 or 503).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), line: None, retry_after: None }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message.to_string())
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }
    fn error_response(&self) -> HttpResponse {
        let mut body = json!({"error": self.message});
        if let Some(line) = self.line {
            body["line"] = json!(line);
        }
        let mut response = HttpResponse::build(self.status);
        if let Some(seconds) = self.retry_after {
            response.insert_header(("Retry-After", seconds.to_string()));
        }
        response.json(body)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> ApiError {
        let status = match &e {
            ServiceError::Import(i) if i.is_too_large() => StatusCode::PAYLOAD_TOO_LARGE,
            ServiceError::Rejected(l) if l.is_too_large() => StatusCode::PAYLOAD_TOO_LARGE,
            ServiceError::Import(i) if i.is_malformed() => StatusCode::BAD_REQUEST,
            ServiceError::Import(_) | ServiceError::Rejected(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ServiceError::Store(StoreError::NotFound(_) | StoreError::NoPlayer(_))
            | ServiceError::NoSuchChart { .. } => StatusCode::NOT_FOUND,
            ServiceError::Store(StoreError::Conflict { .. } | StoreError::TakenElsewhere(_)) => StatusCode::CONFLICT,
            ServiceError::Store(StoreError::NotYours(_) | StoreError::PlayerNotYours(_)) => StatusCode::FORBIDDEN,
            ServiceError::Store(StoreError::Invalid(_)) => StatusCode::BAD_REQUEST,
            ServiceError::Question(_) | ServiceError::Start(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        match e {
            // The database is away (a restart, a failover): nothing was done, and a retry may succeed.
            ServiceError::Store(StoreError::Unavailable(_)) => ApiError {
                retry_after: Some(UNAVAILABLE_RETRY_AFTER),
                ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string())
            },
            ServiceError::Import(i) => ApiError { line: Some(i.line()), ..ApiError::new(status, i.reason()) },
            ServiceError::Rejected(l) => ApiError { line: Some(l.line()), ..ApiError::new(status, l.reason()) },
            other => ApiError::new(status, other.to_string()),
        }
    }
}

/// Seconds a client is asked to wait when the database is not answering.
pub const UNAVAILABLE_RETRY_AFTER: u64 = 2;

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ServiceError::from(e).into()
    }
}

/// Query-string errors as JSON, like every other error.
pub fn query_error(err: actix_web::error::QueryPayloadError, _: &actix_web::HttpRequest) -> actix_web::Error {
    ApiError::bad_request(format!("query: {err}")).into()
}

/// A status as a page's title puts it: in a reader's words, not HTTP's ("Unauthorized").
pub fn in_words(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Not understood",
        401 => "Sign in first",
        403 => "Not yours to change",
        404 => "Not found",
        409 => "Changed meanwhile",
        413 => "Too large",
        429 => "Too many at once",
        503 => "Busy: try again shortly",
        s if s >= 500 => "Something went wrong here",
        _ => "Not done",
    }
}
