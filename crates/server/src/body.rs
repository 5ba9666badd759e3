//! A request's body as a handler argument: [`Json`], a JSON body said to be one (`Content-Type:
//! application/json`, else 415), read within the body's time and size (`limits`), and read as the handler's
//! type, else a 400 saying what was expected. Every JSON body the server takes arrives so, with one error
//! shape.

use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::{read_json_up_to, Limits, SMALL_BODY};
use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use std::future::Future;
use std::pin::Pin;

/// The request's media type, without parameters (`None`: none given).
pub fn media_type(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(header::CONTENT_TYPE)?.to_str().unwrap_or("?");
    Some(value.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
}

/// Refuses a body of another type than `allowed` (415); `missing_ok` lets a body without a type through.
pub fn require_type(req: &HttpRequest, allowed: &[&str], missing_ok: bool) -> Result<(), ApiError> {
    match media_type(req) {
        None if missing_ok => Ok(()),
        Some(t) if allowed.contains(&t.as_str()) => Ok(()),
        other => Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "Content-Type {} is not accepted here; send {}",
                other.map_or("(none)".to_string(), |t| format!("`{t}`")),
                allowed.join(", ")
            ),
        )),
    }
}

/// What a JSON body is, in words: the error a body of another shape gets says it.
pub trait Expected {
    /// The body's shape, e.g. `{"published": true or false}`.
    const EXPECTED: &'static str;

    /// The largest body of this kind, in bytes.
    fn largest(_limits: &Limits) -> usize {
        SMALL_BODY
    }
}

/// A JSON body of the handler's type `T`, read as the module says.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + Expected + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Json<T>, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let checked = require_type(req, &["application/json"], false);
        let limits = req.app_data::<web::Data<AppState>>().expect("the app state is registered").limits.clone();
        let body = web::Payload::from_request(req, payload);
        Box::pin(async move {
            checked?;
            let body = body.await.map_err(|e| ApiError::bad_request(format!("the body: {e}")))?;
            read_json_up_to(body, T::largest(&limits), &limits, T::EXPECTED).await.map(Json)
        })
    }
}
