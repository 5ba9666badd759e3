//! What the server allows one client, so that no client can take it from the others: bodies read within a
//! time, a few uploads at once, writes per minute per token and per address. Every limit answers with a
//! clear 4xx (or 503 with `Retry-After`) before anything is stored. Documented in `docs/clubs.md`.

use crate::error::ApiError;
use actix_web::http::StatusCode;
use actix_web::web;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Limits {
    /// The time a client has to send a whole body.
    pub body_timeout: Duration,
    /// Uploads read and validated at once; more wait for a slot up to `slot_wait`, then get 503.
    pub concurrent_uploads: usize,
    /// Of those, the uploads of one club at once: one writer never takes every slot.
    pub uploads_per_club: usize,
    pub slot_wait: Duration,
    /// How long an idle connection stays open between requests, and how long a new one has to send its
    /// first request's head: then it is closed.
    pub keep_alive: Duration,
    pub first_request: Duration,
    /// The largest live append body (an upload's limit is `Config::max_upload`).
    pub max_append: usize,
    /// Writes per minute per token and per address (0: no limit).
    pub writes_per_minute: u32,
    /// Events in one page of `GET .../events`.
    pub events_per_page: u64,
    /// Bytes of timelines, states and charts kept in memory.
    pub timeline_cache_bytes: usize,
    pub state_cache_bytes: usize,
    pub chart_cache_bytes: usize,
    /// Followers' streams open at once on this server, and from one client address (more: 503).
    pub streams: usize,
    pub streams_per_address: usize,
    /// How often a quiet stream gets a comment (keeping it open through proxies, and asking again whether
    /// its follower may still see the game), and how long a stream without an entry stays open.
    pub stream_heartbeat: Duration,
    pub stream_idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_timeout: Duration::from_secs(30),
            concurrent_uploads: 8,
            uploads_per_club: 2,
            slot_wait: Duration::from_secs(20),
            keep_alive: Duration::from_secs(15),
            first_request: Duration::from_secs(10),
            max_append: 1024 * 1024,
            writes_per_minute: 600,
            events_per_page: 2000,
            timeline_cache_bytes: 128 << 20,
            state_cache_bytes: 64 << 20,
            chart_cache_bytes: 32 << 20,
            streams: 1000,
            streams_per_address: 20,
            stream_heartbeat: Duration::from_secs(15),
            stream_idle: Duration::from_secs(30 * 60),
        }
    }
}

/// Reads a request body of at most `limit` bytes within `timeout`: a larger one is a 413 without reading
/// the rest, a slower one a 408.
pub async fn read_body(payload: web::Payload, limit: usize, timeout: Duration) -> Result<Vec<u8>, ApiError> {
    match actix_web::rt::time::timeout(timeout, read_all(payload, limit)).await {
        Ok(body) => body,
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body did not arrive within {} seconds", timeout.as_secs()),
        )),
    }
}

/// The largest form or small JSON body (sign-in, publish, a note, a merge).
pub const SMALL_BODY: usize = 64 * 1024;

/// A JSON body of at most `limit` bytes, read within the body's time: a 400 saying what was `expected` when
/// it is not that. Every JSON body the server takes is read here (`body::Json`), with one error shape.
pub async fn read_json_up_to<T: serde::de::DeserializeOwned>(
    payload: web::Payload,
    limit: usize,
    limits: &Limits,
    expected: &str,
) -> Result<T, ApiError> {
    let body = read_body(payload, limit, limits.body_timeout).await?;
    serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(format!("expected {expected}: {e}")))
}

/// A posted form (`application/x-www-form-urlencoded`), read within the body's time.
pub async fn read_form<T: serde::de::DeserializeOwned>(payload: web::Payload, limits: &Limits) -> Result<T, ApiError> {
    let body = read_body(payload, SMALL_BODY, limits.body_timeout).await?;
    serde_urlencoded::from_bytes(&body).map_err(|e| ApiError::bad_request(format!("the form: {e}")))
}

async fn read_all(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, ApiError> {
    use futures_util::StreamExt;
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request(format!("reading the body: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is larger than the limit of {limit} bytes"),
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Token buckets, one per key ("token …", "address …"): `per_minute` writes fill a bucket in a minute, and
/// a full bucket allows a burst of as many.
pub struct Rates {
    per_minute: u32,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Rates {
    pub fn new(per_minute: u32) -> Rates {
        Rates { per_minute, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one write from `key`'s bucket, or says when to retry (429).
    pub fn spend(&self, key: &str) -> Result<(), ApiError> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let (capacity, per_second) = (self.per_minute as f64, self.per_minute as f64 / 60.0);
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Forget full buckets (keys not seen for a minute or more) so that the map stays small.
            buckets.retain(|_, (_, at)| now.duration_since(*at).as_secs_f64() * per_second < capacity);
        }
        let (tokens, at) = buckets.entry(key.to_string()).or_insert((capacity, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * per_second).min(capacity);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            let wait = ((1.0 - *tokens) / per_second).ceil() as u64;
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("more than {} writes a minute from this {}; retry in {wait} s", self.per_minute, kind(key)),
            );
            e.retry_after = Some(wait.max(1));
            Err(e)
        }
    }
}

fn kind(key: &str) -> &str {
    key.split(' ').next().unwrap_or("client")
}
