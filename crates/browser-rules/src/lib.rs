//! The games' rules for the browser: the recorder page loads this crate as a WebAssembly module and keeps
//! its own copy of the game (the server's log and the entries still waiting for it), so that a phone that
//! lost the network still refuses an illegal entry with the rule's words and still knows what may happen
//! next. The rules are the same code the server runs (the engine's registry); nothing is restated here.
//!
//! The interface is the plainest WebAssembly allows, with no glue generator: the page writes text into
//! memory it asked for (`alloc`), calls a function with its address and length, and reads the answer — a
//! JSON text, always `{"ok": …}` or `{"error": "…"}` — from the address and length packed into the `u64`
//! returned (address in the high half), then gives the memory back (`free`).

use almanac_core::Game;
use serde::Serialize;
use serde_json::value::RawValue;
use std::cell::RefCell;

thread_local! {
    /// The page's game: one per module instance (a page records one game).
    static GAME: RefCell<Option<Box<dyn Game>>> = const { RefCell::new(None) };
}

/// An answer to the page: what it asked, or why not in words.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Answer<T: Serialize> {
    Ok(T),
    Error(String),
}

/// Reads a whole log (header and events) as the page's game.
pub fn open(log: &str) -> String {
    answer(almanac_engine::read_log(log).map_err(|e| e.to_string()).map(|game| {
        let n = game.event_count();
        GAME.with(|g| *g.borrow_mut() = Some(game));
        n
    }))
}

/// Appends one entry (a log line) if the rules accept it: the number of events then, or the rule's words
/// (without a line number: an entry at a table is no line of a file).
pub fn push(line: &str) -> String {
    with_game(|game| {
        let n = game.event_count();
        game.push_line(n + 2, line).map(|()| game.event_count()).map_err(|e| e.problem.to_string())
    })
}

/// What may happen next, as `GET /api/games/{id}/next` says it (`seq` and `open`).
pub fn next() -> String {
    #[derive(Serialize)]
    struct Next {
        seq: usize,
        open: Vec<almanac_core::next::Open>,
    }
    with_game(|game| Ok(Next { seq: game.event_count(), open: game.next() }))
}

/// The state after the last event, as `GET /api/games/{id}/state` gives it.
pub fn state() -> String {
    #[derive(Serialize)]
    struct StateNow {
        seq: usize,
        #[serde(flatten)]
        view: almanac_core::AnyView,
    }
    with_game(|game| Ok(StateNow { seq: game.event_count(), view: game.view_after(game.event_count()) }))
}

/// The events from `from` (1-based) on, as `GET /api/games/{id}/events` lists them: the points and the
/// production each derived (the same words, from the same facts), without the moments.
pub fn events(from: usize) -> String {
    #[derive(Serialize)]
    struct Row {
        seq: usize,
        event: Box<RawValue>,
        text: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        scores: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        production: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        withdraws: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        withdrawn_by: Option<usize>,
    }
    with_game(|game| {
        let (from, to) = (from.max(1) - 1, game.event_count());
        let words = game.event_words(from.min(to), to);
        let rows = (from..to)
            .zip(words)
            .map(|(i, text)| {
                let event = RawValue::from_string(game.event_text(i)).map_err(|e| e.to_string())?;
                let derived = almanac_core::derived::derived(game, i);
                Ok(Row {
                    seq: i + 1,
                    event,
                    text,
                    scores: derived.scores,
                    production: derived.production,
                    withdraws: game.withdrawal_of(i).map(|w| w + 1),
                    withdrawn_by: game.withdrawn_by(i).map(|w| w + 1),
                })
            })
            .collect::<Result<Vec<Row>, String>>()?;
        Ok(rows)
    })
}

/// A form's line with a pick's option laid over it (`almanac_core::next::lay`), given as the JSON array
/// `[line, option]`: the line then.
pub fn lay(pair: &str) -> String {
    type Object = serde_json::Map<String, serde_json::Value>;
    answer(serde_json::from_str::<(Object, Object)>(pair).map_err(|e| e.to_string()).map(|(mut line, option)| {
        almanac_core::next::lay(&mut line, &option);
        line
    }))
}

fn with_game<T: Serialize>(f: impl FnOnce(&mut dyn Game) -> Result<T, String>) -> String {
    GAME.with(|g| match g.borrow_mut().as_mut() {
        Some(game) => answer(f(game.as_mut())),
        None => answer::<()>(Err("no game is open: open its log first".into())),
    })
}

fn answer<T: Serialize>(result: Result<T, String>) -> String {
    let answer = match result {
        Ok(v) => Answer::Ok(v),
        Err(e) => Answer::Error(e),
    };
    serde_json::to_string(&answer).expect("an answer is JSON")
}

/// The WebAssembly side: memory in and out, and each function above over it.
#[cfg(target_arch = "wasm32")]
mod exports {
    /// Memory for `len` bytes the page writes into.
    #[no_mangle]
    pub extern "C" fn alloc(len: usize) -> *mut u8 {
        let mut bytes = Vec::<u8>::with_capacity(len.max(1));
        let ptr = bytes.as_mut_ptr();
        std::mem::forget(bytes);
        ptr
    }

    /// Gives back memory from `alloc` or from an answer.
    ///
    /// # Safety
    /// `ptr` and `len` are what `alloc` or an answer gave, once.
    #[no_mangle]
    pub unsafe extern "C" fn free(ptr: *mut u8, len: usize) {
        drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
    }

    /// The text the page wrote at `ptr`, taken back.
    unsafe fn text(ptr: *mut u8, len: usize) -> String {
        let bytes = Vec::from_raw_parts(ptr, len, len.max(1));
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// An answer handed to the page: its address and length in one number.
    fn give(answer: String) -> u64 {
        let mut bytes = answer.into_bytes();
        bytes.shrink_to_fit();
        let (ptr, len) = (bytes.as_mut_ptr() as u64, bytes.len() as u64);
        std::mem::forget(bytes);
        (ptr << 32) | len
    }

    /// # Safety
    /// `ptr` and `len` are memory from `alloc` holding UTF-8.
    #[no_mangle]
    pub unsafe extern "C" fn open(ptr: *mut u8, len: usize) -> u64 {
        give(super::open(&text(ptr, len)))
    }

    /// # Safety
    /// As for `open`.
    #[no_mangle]
    pub unsafe extern "C" fn push(ptr: *mut u8, len: usize) -> u64 {
        give(super::push(&text(ptr, len)))
    }

    /// # Safety
    /// As for `open`.
    #[no_mangle]
    pub unsafe extern "C" fn lay(ptr: *mut u8, len: usize) -> u64 {
        give(super::lay(&text(ptr, len)))
    }

    #[no_mangle]
    pub extern "C" fn next() -> u64 {
        give(super::next())
    }

    #[no_mangle]
    pub extern "C" fn state() -> u64 {
        give(super::state())
    }

    #[no_mangle]
    pub extern "C" fn events(from: usize) -> u64 {
        give(super::events(from))
    }
}
