//! The streams of followers a server holds open (`follow.rs` serves them): what they hear, and how many are
//! open, in all and per client address, against `Limits`.

use crate::error::ApiError;
use actix_web::http::StatusCode;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// What a game's followers hear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard {
    /// It has this many events now.
    Appended(u64),
    /// Who may see it changed: each follower asks again whether it still may.
    SeenByChanged,
}

/// Where appends and changes of who may see a game are announced (`AppState::appends`).
pub fn channel() -> broadcast::Sender<(String, Heard)> {
    // Spectators that fall this far behind skip to the newest count (all a message says).
    broadcast::channel(1024).0
}

/// The streams open now, in all and by client address.
#[derive(Default)]
pub struct Streams {
    open: Mutex<(usize, HashMap<String, usize>)>,
}

/// A stream's place among the open ones, given back when the stream ends (dropped with its body).
pub struct StreamPlace {
    streams: Arc<Streams>,
    address: String,
}

impl Streams {
    /// A place for a stream from `address`, or why there is none (503 with `Retry-After`).
    pub fn take(self: &Arc<Self>, address: String, most: usize, per_address: usize) -> Result<StreamPlace, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (all, by_address) = &mut *open;
        let from_here = by_address.get(&address).copied().unwrap_or(0);
        let refusal = if *all >= most {
            Some(format!("this server follows {most} games at once already; retry shortly"))
        } else if from_here >= per_address {
            Some(format!("your address follows {per_address} games at once already; close one, or retry shortly"))
        } else {
            None
        };
        if let Some(message) = refusal {
            let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message);
            e.retry_after = Some(STREAM_RETRY_AFTER);
            return Err(e);
        }
        *all += 1;
        *by_address.entry(address.clone()).or_insert(0) += 1;
        Ok(StreamPlace { streams: self.clone(), address })
    }

    /// How many streams are open now.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).0
    }
}

impl Drop for StreamPlace {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().unwrap_or_else(|e| e.into_inner());
        let (all, by_address) = &mut *open;
        *all -= 1;
        if let Some(n) = by_address.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

/// Seconds a follower refused a stream is asked to wait.
const STREAM_RETRY_AFTER: u64 = 10;

/// Tells the followers of `id` on this server that who may see it changed.
pub fn seen_by_changed(appends: &broadcast::Sender<(String, Heard)>, id: &str) {
    // No follower is no error.
    let _ = appends.send((id.to_string(), Heard::SeenByChanged));
}
