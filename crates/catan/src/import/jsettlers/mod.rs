//! JSettlers2 `.soclog` event logs (server 2.5.00 and later; classic 4- and 6-player boards) → almanac/1
//! `catan`.
//!
//! The log holds every message the server sent to each seat, so it knows every hidden card. It is read in
//! one of three views: the full game, an observer's, or one seat's (what that player saw; `unknown` where
//! they could not see). Format facts: `docs/formats/catan.md` (JSettlers section).
//!
//! What the log states that our rules derive is carried into the events for the engine to check: each
//! roll's production and the hand sizes after it, the private hand snapshots, the holders of Longest Road
//! and Largest Army, the final scores. JSettlers' departures from the rulebook are options in the header:
//! face-down discards, a knight's robber before the win, and on the 6-player board its Special Building
//!
//! - `soclog`: the file and line grammar; `layout`: the boards and coordinates; `convert`: the walk.

mod convert;
mod layout;
mod soclog;

use almanac_core::{FormatError, Importer, Viewpoint};

/// The JSettlers importer (`--format jsettlers`): a server's log of every seat's messages, so it knows what
/// each seat saw.
pub const JSETTLERS: Importer = Importer {
    name: "jsettlers",
    label: "JSettlers2 event log (.soclog)",
    recognises: soclog::looks_like,
    to_almanac: |text| convert::convert(text, Viewpoint::Full),
    seen: Some(convert::convert),
    read: None,
};

/// A `.soclog` as almanac/1 text, in the given view.
pub fn to_almanac(text: &str, view: Viewpoint) -> Result<String, FormatError> {
    convert::convert(text, view)
}
