//! Who is asking, and may they change anything: a club's token (an `Authorization: Bearer` header, or the
//! dashboard's sign-in cookie) makes a request its club's; without one it is the public's. Writes need a
//! token, come from this site (the `Origin` check) and are rate-limited per token and per address.

use crate::app::{blocking, AppState};
use crate::error::ApiError;
use actix_web::dev::Payload;
use actix_web::http::{header, Method, StatusCode};
use actix_web::{web, FromRequest, HttpRequest};
use almanac_service::{Club, Viewer};
use std::future::Future;
use std::pin::Pin;

/// The dashboard's sign-in cookie: the club token itself, `HttpOnly` and `SameSite=Strict`.
pub const SESSION_COOKIE: &str = "almanac_token";

/// How a request says whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// `Authorization: Bearer <token>`: a program.
    Bearer(String),
    /// The sign-in cookie: a browser.
    Cookie(String),
    None,
}

impl Credential {
    pub fn of(req: &HttpRequest) -> Credential {
        // The scheme is read in any case (RFC 9110); another scheme (a proxy's `Basic`) is no token of ours,
        // so the request reads as the cookie or the public says.
        if let Some(auth) = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
            if let Some((scheme, token)) = auth.trim().split_once(' ') {
                if scheme.eq_ignore_ascii_case("bearer") {
                    return Credential::Bearer(token.trim().to_string());
                }
            }
        }
        match cookie(req, SESSION_COOKIE) {
            Some(token) if !token.is_empty() => Credential::Cookie(token),
            _ => Credential::None,
        }
    }

    pub fn token(&self) -> Option<&str> {
        match self {
            Credential::Bearer(t) | Credential::Cookie(t) => Some(t),
            Credential::None => None,
        }
    }
}

/// A cookie's value from the `Cookie` header.
pub fn cookie(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers().get_all(header::COOKIE).filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|pair| {
        let (k, v) = pair.trim().split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

/// The club of a token, through a short-lived cache (a revoked token stops working within
/// `TOKEN_CACHE_SECONDS`); read wherever reads go (a replica, when there are some).
pub async fn club_of(app: &web::Data<AppState>, token: &str) -> Result<Option<Club>, ApiError> {
    club_of_on(app, token, false).await
}

/// The club of a token that is to write: read from the primary, so that no write depends on a replica.
pub async fn writing_club_of(app: &web::Data<AppState>, token: &str) -> Result<Option<Club>, ApiError> {
    club_of_on(app, token, true).await
}

async fn club_of_on(app: &web::Data<AppState>, token: &str, primary: bool) -> Result<Option<Club>, ApiError> {
    let hash = almanac_service::token_hash(token);
    if let Some(club) = app.tokens.get(&hash) {
        return Ok(club);
    }
    let app2 = app.clone();
    let token = token.to_string();
    let club = blocking(move || {
        let read = |s: &almanac_store::Store| almanac_service::club_of_token(s, &token);
        Ok(if primary { app2.pool.read_primary(read)?? } else { app2.pool.read(read)?? })
    })
    .await?;
    app.tokens.put(hash, club.clone());
    Ok(club)
}

/// Who a request reads as: a handler argument. A bearer token that is not live is refused (a program
/// should hear that its token is wrong); a stale cookie reads as the public.
pub struct Reader {
    pub viewer: Viewer,
    pub club: Option<Club>,
}

impl FromRequest for Reader {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Reader, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<AppState>>().cloned().expect("the app state is registered");
        let credential = Credential::of(req);
        Box::pin(async move {
            let Some(token) = credential.token() else {
                return Ok(Reader { viewer: Viewer::Public, club: None });
            };
            match club_of(&app, token).await? {
                Some(club) => Ok(Reader { viewer: Viewer::Club(club.id), club: Some(club) }),
                None if matches!(credential, Credential::Bearer(_)) => Err(unknown_token()),
                None => Ok(Reader { viewer: Viewer::Public, club: None }),
            }
        })
    }
}

/// A request that may change something: from this site, with a live token of a club, within the rate
/// limits. A handler argument.
pub struct Writer {
    pub club: Club,
}

impl FromRequest for Writer {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Writer, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<AppState>>().cloned().expect("the app state is registered");
        let credential = Credential::of(req);
        let address = address_key(req);
        let origin_problem = foreign_origin(req);
        let browser_without_origin = matches!(credential, Credential::Cookie(_)) && !has_origin(req);
        Box::pin(async move {
            if let Some(problem) = origin_problem {
                return Err(ApiError::new(StatusCode::FORBIDDEN, problem));
            }
            if browser_without_origin {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "a signed-in browser's request that changes something must say its Origin",
                ));
            }
            // The address pays for every attempt, good token or not, so guessing tokens is slow too.
            app.rates.spend(&address)?;
            let Some(token) = credential.token() else {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "this needs a club's token: `Authorization: Bearer <token>` (almanac token create), or sign in",
                ));
            };
            let club = writing_club_of(&app, token).await?.ok_or_else(unknown_token)?;
            app.rates.spend(&format!("token {}", almanac_service::token_hash(token)))?;
            Ok(Writer { club })
        })
    }
}

/// The key of the limits kept per address for the request's client: its peer, or behind a trusted proxy
/// the client the proxy names (`proxies.rs`).
pub fn address_key(req: &HttpRequest) -> String {
    let Some(peer) = req.peer_addr() else { return "address unknown".into() };
    let client = match req.app_data::<web::Data<AppState>>() {
        Some(app) => app.trusted_proxies.client(peer.ip(), req.headers()),
        None => peer.ip(),
    };
    format!("address {client}")
}

fn unknown_token() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "this token is not a live token of any club (revoked, or mistyped)")
}

fn has_origin(req: &HttpRequest) -> bool {
    req.headers().contains_key(header::ORIGIN)
}

/// Why a request may not change anything from where it comes: an `Origin` other than this site (or the
/// opaque `null`), or a browser's word that it is cross-site. `None` when it may.
pub fn foreign_origin(req: &HttpRequest) -> Option<String> {
    if let Some(site) = req.headers().get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site == "cross-site" {
            return Some("a request from another site may not change anything here".into());
        }
    }
    let origin = req.headers().get(header::ORIGIN)?.to_str().unwrap_or("null");
    let host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    if origin_host.eq_ignore_ascii_case(host) && !host.is_empty() {
        None
    } else {
        Some(format!("a request from another site (Origin: {origin}) may not change anything here"))
    }
}

/// True for the methods that change something.
pub fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The form field that proves a signed-in form was made by this site for this session: derived from the
/// session's token, so it needs no store (the cookie is `SameSite=Strict` and `Origin` is checked too).
pub fn form_proof(token: &str) -> String {
    almanac_service::token_hash(&format!("form proof for {token}"))
}

/// Middleware: a request that changes something and comes from another site is refused before any
/// handler runs (forms and scripts of other pages included; a `text/plain` POST needs no CORS preflight).
pub async fn refuse_foreign_writes(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    use actix_web::ResponseError;
    if changes_state(req.method()) {
        if let Some(problem) = foreign_origin(req.request()) {
            let response = ApiError::new(StatusCode::FORBIDDEN, problem).error_response();
            return Ok(req.into_response(response));
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}
