//! The dashboard's signed-in session: signing in with a club's token (kept in an `HttpOnly`,
//! `SameSite=Strict` cookie), signing out, and the forms a signed-in club posts (publish, delete). Every
//! form carries a proof derived from the session (or, before signing in, a cookie of its own), and the
//! `Origin` check refuses any post from another site.

use crate::access::{address_key, club_of, cookie, form_proof, writing_club_of, Credential, SESSION_COOKIE};
use crate::app::{blocking, delete_game, forget_access, publish_game, upload_slot, AppState, Result};
use crate::error::ApiError;
use crate::form_data;
use crate::limits::{read_body, read_form};
use crate::pages::{page, problem_page, SignedIn, Visitor};
use crate::uploads::format_named;
use actix_web::dev::Payload;
use actix_web::error::InternalError;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use almanac_service::{Inserted, Ownership};
use maud::html;
use serde::Deserialize;
use std::future::Future;
use std::pin::Pin;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/signin").route(web::get().to(signin_form)).route(web::post().to(signin)))
        .route("/signout", web::post().to(signout))
        .route("/games/{id}/publish", web::post().to(publish))
        .service(web::resource("/games/{id}/delete").route(web::get().to(confirm_delete)).route(web::post().to(delete)))
        .route("/games/{id}/restore", web::post().to(restore))
        .route("/deleted", web::get().to(deleted_list))
        .route("/upload", web::post().to(upload));
}

/// The cookie that proves the sign-in form was this site's (there is no session to derive it from yet).
const SIGNIN_COOKIE: &str = "almanac_signin";

/// A cookie only this site's pages send, never readable by a script; `Secure` when the request came over
/// HTTPS (directly, or as a proxy's `Forwarded` / `X-Forwarded-Proto` says).
fn set_cookie(req: &HttpRequest, name: &str, value: &str, max_age: u64) -> (String, String) {
    let secure = if req.connection_info().scheme() == "https" { "; Secure" } else { "" };
    ("Set-Cookie".into(), format!("{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"))
}

async fn signin_form(req: HttpRequest) -> Result<HttpResponse> {
    let proof = match cookie(&req, SIGNIN_COOKIE) {
        Some(p) if p.len() == 64 && p.bytes().all(|b| b.is_ascii_hexdigit()) => p,
        _ => almanac_service::random_hex(32)?,
    };
    Ok(signin_page(&req, &proof, None, StatusCode::OK))
}

fn signin_page(req: &HttpRequest, proof: &str, problem: Option<&str>, status: StatusCode) -> HttpResponse {
    let body = html! {
        section.signin {
            h1 { "Sign in" }
            p {
                "Sign in with a token of your club (" code { "almanac token create --club NAME" } " prints one) to upload games, see \
                 your club's private games, publish them and delete them."
            }
            @if let Some(p) = problem { p.error role="alert" { (p) } }
            form method="post" action="/signin" {
                input type="hidden" name="proof" value=(proof);
                label for="token" { "Club token" }
                " "
                input #token name="token" type="password" autocomplete="current-password" required;
                " "
                button type="submit" { "Sign in" }
            }
        }
    };
    let mut response = page("Sign in", body, &[], None, None);
    response.head_mut().status = status;
    let (name, value) = set_cookie(req, SIGNIN_COOKIE, proof, 3600);
    response.headers_mut().insert(name.parse().expect("a header name"), value.parse().expect("a header value"));
    response
}

#[derive(Deserialize)]
struct SigninForm {
    token: String,
    proof: String,
}

async fn signin(app: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> Result<HttpResponse> {
    let form: SigninForm = read_form(payload, &app.limits).await?;
    if cookie(&req, SIGNIN_COOKIE).as_deref() != Some(form.proof.as_str()) {
        return Ok(signin_page(
            &req,
            &form.proof,
            Some("the form has expired; please sign in again"),
            StatusCode::FORBIDDEN,
        ));
    }
    app.rates.spend(&address_key(&req))?;
    let token = form.token.trim().to_string();
    match club_of(&app, &token).await? {
        Some(_) => Ok(HttpResponse::SeeOther()
            .insert_header(("Location", "/"))
            .append_header(set_cookie(&req, SESSION_COOKIE, &token, 30 * 24 * 3600))
            .append_header(set_cookie(&req, SIGNIN_COOKIE, "", 0))
            .finish()),
        None => Ok(signin_page(
            &req,
            &form.proof,
            Some("that is not a live token of any club (revoked, or mistyped)"),
            StatusCode::UNAUTHORIZED,
        )),
    }
}

#[derive(Deserialize)]
struct ProofForm {
    proof: String,
    published: Option<String>,
}

/// A form a signed-in club sent from one of its pages: its fields, read within the limits, and the club,
/// the form's proof checked against the session and the club's rate spent. A handler argument; a refusal is
/// a page that says why.
struct ClubForm {
    form: ProofForm,
    club: almanac_service::Club,
}

impl FromRequest for ClubForm {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = std::result::Result<ClubForm, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let app = req.app_data::<web::Data<AppState>>().cloned().expect("the app state is registered");
        let req = req.clone();
        // Taking the body as a stream cannot fail.
        let payload = web::Payload::from_request(&req, payload).into_inner().expect("the body, as a stream");
        Box::pin(async move {
            let read = async {
                let form: ProofForm = read_form(payload, &app.limits).await?;
                let club = form_club(&app, &req, &form.proof).await?;
                Ok(ClubForm { form, club })
            };
            read.await.map_err(|e: ApiError| {
                InternalError::from_response(e.message.clone(), problem_page(e.status, &e.message)).into()
            })
        })
    }
}

/// The signed-in club of a form's request, if the form's proof is this session's.
async fn form_club(app: &web::Data<AppState>, req: &HttpRequest, proof: &str) -> Result<almanac_service::Club> {
    let Credential::Cookie(token) = Credential::of(req) else {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "sign in first"));
    };
    if form_proof(&token) != proof {
        return Err(ApiError::new(StatusCode::FORBIDDEN, "this form was not made for your session; reload the page"));
    }
    app.rates.spend(&address_key(req))?;
    club_of(app, &token).await?.ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "your sign-in has expired"))
}

async fn signout(app: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let form: ProofForm = match read_form(payload, &app.limits).await {
        Ok(form) => form,
        Err(e) => return problem_page(e.status, &e.message),
    };
    // Signing out needs the proof too, so that no other site can sign a visitor out.
    match Credential::of(&req) {
        Credential::Cookie(token) if form_proof(&token) == form.proof => HttpResponse::SeeOther()
            .insert_header(("Location", "/"))
            .append_header(set_cookie(&req, SESSION_COOKIE, "", 0))
            // What a recorder kept on this device for a reload offline (a private game's log, the
            // recorder's page) goes with the session: the next person at the phone finds none of it.
            .insert_header(("Clear-Site-Data", "\"cache\", \"storage\""))
            .finish(),
        _ => problem_page(StatusCode::FORBIDDEN, "This form was not made for your session; reload the page."),
    }
}

async fn publish(app: web::Data<AppState>, path: web::Path<String>, sent: ClubForm) -> HttpResponse {
    let published = sent.form.published.as_deref() == Some("yes");
    match publish_game(&app, sent.club.id, path.into_inner(), published).await {
        Ok(id) => HttpResponse::SeeOther().insert_header(("Location", format!("/games/{id}"))).finish(),
        Err(e) => problem_page(e.status, &e.message),
    }
}

/// The signed-in club of a page's request.
fn signed_in(visitor: Visitor) -> Option<(SignedIn, almanac_service::ClubId)> {
    let club = visitor.reader.club.as_ref()?.id;
    Some((visitor.signed?, club))
}

/// The page that says to sign in first.
fn sign_in_first() -> HttpResponse {
    problem_page(StatusCode::UNAUTHORIZED, "Sign in with your club's token to change its games.")
}

/// The row of `club`'s own game `game` (an id or a prefix): not found for a game it may not change.
async fn owned_row(
    app: &web::Data<AppState>,
    club: almanac_service::ClubId,
    game: String,
) -> Result<almanac_store::GameRow> {
    let app = app.clone();
    blocking(move || {
        let seen = app.pool.read(|s| s.owned(club, &game))??;
        Ok(app.pool.read(|s| s.game(&seen))??)
    })
    .await
}

/// The title a page gives a game (its title, else its id).
fn title_of(row: &almanac_store::GameRow) -> String {
    row.title.clone().unwrap_or_else(|| row.id.clone())
}

/// Deleting asks first: what goes, and that it can be brought back.
async fn confirm_delete(app: web::Data<AppState>, visitor: Visitor, path: web::Path<String>) -> HttpResponse {
    let Some((signed, club)) = signed_in(visitor) else { return sign_in_first() };
    let row = match owned_row(&app, club, path.into_inner()).await {
        Ok(row) => row,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let body = html! {
        section.problem {
            h1 { "Delete this upload?" }
            p { "“" (title_of(&row)) "” will be hidden from every list, page and question, your club's too, with its notes. Nothing of it is lost: your club can bring it back from its deleted games." }
            form method="post" action={ "/games/" (row.id) "/delete" } {
                (signed.proof_input())
                button type="submit" class="danger" { "Delete" }
                " "
                a href={ "/games/" (row.id) } { "Keep it" }
            }
        }
    };
    page("Delete this upload?", body, &[], Some(&signed), app.derivation.progress())
}

async fn delete(app: web::Data<AppState>, visitor: Visitor, path: web::Path<String>, sent: ClubForm) -> HttpResponse {
    let club = sent.club.id;
    let result: Result<almanac_store::GameRow> = async {
        let row = owned_row(&app, club, path.into_inner()).await?;
        delete_game(&app, club, row.id.clone()).await?;
        Ok(row)
    }
    .await;
    let row = match result {
        Ok(row) => row,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let signed = visitor.signed;
    let proof = signed.as_ref().map(|s| s.proof_input());
    // The answer is the way back: undo at once, or later from the club's deleted games.
    let body = html! {
        section.problem {
            h1 { "Deleted" }
            p { "“" (title_of(&row)) "” is hidden from every view. Its events and notes are kept." }
            form method="post" action={ "/games/" (row.id) "/restore" } {
                (proof.unwrap_or_default())
                button type="submit" { "Undo" }
            }
            p { a href="/deleted" { "Your club's deleted games" } " · " a href="/" { "All games" } }
        }
    };
    page("Deleted", body, &[], signed.as_ref(), app.derivation.progress())
}

/// Brings a deleted game back (the undo of `delete`, and the deleted games' buttons).
async fn restore(app: web::Data<AppState>, path: web::Path<String>, sent: ClubForm) -> HttpResponse {
    let (app2, game, club) = (app.clone(), path.into_inner(), sent.club.id);
    let result = blocking(move || {
        let id = app2.pool.write(|s| almanac_service::restore(s, club, &game))?;
        forget_access(&app2, &id);
        Ok(id)
    })
    .await;
    match result {
        Ok(id) => HttpResponse::SeeOther().insert_header(("Location", format!("/games/{id}"))).finish(),
        Err(e) => problem_page(e.status, &e.message),
    }
}

/// A club's deleted games, each with the button that brings it back.
async fn deleted_list(app: web::Data<AppState>, visitor: Visitor) -> HttpResponse {
    let deriving = app.derivation.progress();
    let Some((signed, club)) = signed_in(visitor) else { return sign_in_first() };
    let rows = match blocking(move || Ok(app.pool.read(|s| almanac_service::deleted_games(s, club))??)).await {
        Ok(rows) => rows,
        Err(e) => return problem_page(e.status, &e.message),
    };
    let body = html! {
        section {
            h1 { "Your club's deleted games" }
            @if rows.is_empty() { p { "None: nothing your club uploaded is deleted." } }
            ul.deleted {
                @for row in &rows {
                    li {
                        (title_of(row)) " · " (row.ruleset) " "
                        form.inline method="post" action={ "/games/" (row.id) "/restore" } {
                            (signed.proof_input())
                            button type="submit" { "Restore" }
                        }
                    }
                }
            }
        }
    };
    page("Deleted games", body, &[], Some(&signed), deriving)
}

/// The upload form as a browser without scripts sends it (`multipart/form-data`): the file is stored as the
/// club's, and the answer is its game, or a page that says which line of the file is wrong.
async fn upload(app: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let result: Result<(String, Inserted)> = async {
        // The writer is known before a slot is taken or a byte of the body read: a stranger's cookie
        // takes nothing from the clubs.
        let Credential::Cookie(token) = Credential::of(&req) else {
            return Err(ApiError::new(StatusCode::UNAUTHORIZED, "sign in with your club's token to upload"));
        };
        let writer = writing_club_of(&app, &token)
            .await?
            .ok_or_else(|| ApiError::new(StatusCode::UNAUTHORIZED, "your sign-in has expired; sign in again"))?;
        let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        if !content_type.starts_with("multipart/form-data") {
            return Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "the upload form sends multipart/form-data"));
        }
        let _slot = upload_slot(&app, writer.id).await?;
        let body = read_body(payload, app.max_upload + 64 * 1024, app.limits.body_timeout).await?;
        let parts = form_data::parse(&content_type, &body).map_err(ApiError::bad_request)?;
        let field = |name: &str| parts.iter().find(|p| p.name == name);
        let proof = field("proof").map(|p| String::from_utf8_lossy(&p.data).to_string()).unwrap_or_default();
        let club = form_club(&app, &req, &proof).await?;
        let file = field("log").ok_or_else(|| ApiError::bad_request("the form has no file"))?;
        let file_name = file.filename.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| "the file".into());
        let format = format_named(field("format").map(|p| String::from_utf8_lossy(&p.data).to_string()).as_deref())?;
        let text = String::from_utf8(file.data.clone())
            .map_err(|_| ApiError::bad_request(format!("{file_name} is not UTF-8 text")))?;
        let stored = app.uploads.store(format, text, Ownership::private_to(club.id)).await.map_err(|e| {
            let e = ApiError::from(e);
            match e.line {
                Some(line) => ApiError { message: format!("{file_name}:{line}: {}", e.message), ..e },
                None => ApiError { message: format!("{file_name}: {}", e.message), ..e },
            }
        })?;
        Ok((file_name, stored))
    }
    .await;
    match result {
        Ok((_, Inserted::New(id))) => {
            HttpResponse::SeeOther().insert_header(("Location", format!("/games/{id}"))).finish()
        }
        Ok((_, Inserted::Existing(id))) => {
            forget_access(&app, &id);
            HttpResponse::SeeOther().insert_header(("Location", format!("/games/{id}?stored=before"))).finish()
        }
        Err(e) => problem_page(e.status, &format!("Nothing was stored. {}", e.message)),
    }
}
