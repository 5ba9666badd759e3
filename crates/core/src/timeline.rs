//! A validated game and its history: the state after any event, cheaply.
//!
//! Building a [`Timeline`] validates every event (ruleset `apply`) and keeps the parsed events, the facts
//! of each event and a snapshot of the state every [`SNAPSHOT_EVERY`] events, so "the state at turn N" is
//! a snapshot clone plus at most that many applied events.

use crate::facts::Fact;
use crate::log::{lines, Envelope, LogError};
use crate::ruleset::Ruleset;
use serde_json::Value;

/// How many events lie between two kept states.
pub const SNAPSHOT_EVERY: usize = 64;

/// A validated game of one ruleset.
pub struct Timeline<R: Ruleset> {
    envelope: Envelope,
    header: Value,
    events: Vec<R::Event>,
    /// The source line of each event.
    lines: Vec<usize>,
    /// The turn each event belongs to (the state's turn before it was applied).
    turns: Vec<u32>,
    facts: Vec<Fact>,
    /// `facts[fact_ends[i - 1]..fact_ends[i]]` are the facts of event `i`.
    fact_ends: Vec<usize>,
    /// `snapshots[k]` is the state after `k * SNAPSHOT_EVERY` events.
    snapshots: Vec<R::State>,
    last: R::State,
}

impl<R: Ruleset> Timeline<R> {
    /// Starts a game from its header line (already known to be an almanac/1 header of this ruleset).
    pub fn start(envelope: Envelope, header: Value) -> Result<Self, LogError> {
        let initial = R::initial(&header).map_err(|e| LogError::Header { line: 1, reason: e.0 })?;
        Ok(Timeline {
            envelope,
            header,
            events: Vec::new(),
            lines: Vec::new(),
            turns: Vec::new(),
            facts: Vec::new(),
            fact_ends: Vec::new(),
            snapshots: vec![initial.clone()],
            last: initial,
        })
    }

    /// Parses, validates and applies one event line.
    pub fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError> {
        let event =
            R::parse_event(&self.last, text).map_err(|reason| match reason.strip_prefix("malformed JSON: ") {
                Some(rest) => LogError::Json { line: line_no, reason: rest.to_string() },
                None => LogError::Event { line: line_no, reason },
            })?;
        self.push(line_no, event)
    }

    /// Validates and applies one parsed event.
    pub fn push(&mut self, line_no: usize, event: R::Event) -> Result<(), LogError> {
        let turn = R::event_turn(&self.last, &event);
        R::apply(&mut self.last, &event, &mut self.facts).map_err(|v| LogError::Rule { line: line_no, reason: v.0 })?;
        self.events.push(event);
        self.lines.push(line_no);
        self.turns.push(turn);
        self.fact_ends.push(self.facts.len());
        if self.events.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(self.last.clone());
        }
        Ok(())
    }

    /// The state after the first `n` events (clamped to the events there are).
    pub fn state_after(&self, n: usize) -> R::State {
        let n = n.min(self.events.len());
        if n == self.events.len() {
            return self.last.clone();
        }
        let k = n / SNAPSHOT_EVERY;
        let mut state = self.snapshots[k].clone();
        let mut scratch = Vec::new();
        for event in &self.events[k * SNAPSHOT_EVERY..n] {
            scratch.clear();
            // These events were accepted when the timeline was built.
            let _ = R::apply(&mut state, event, &mut scratch);
        }
        state
    }
}

/// A validated game of any ruleset: what the engine, the store and the server work with.
pub trait Game: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn ruleset_version(&self) -> u32;
    fn envelope(&self) -> &Envelope;
    fn header(&self) -> &Value;
    fn event_count(&self) -> usize;
    /// The turn of event `i` (0-based index).
    fn event_turn(&self, i: usize) -> u32;
    /// The source line of event `i`.
    fn event_line_no(&self, i: usize) -> usize;
    /// Event `i` written as an almanac/1 line.
    fn event_text(&self, i: usize) -> String;
    /// The facts of event `i`.
    fn event_facts(&self, i: usize) -> &[Fact];
    /// The current turn (after the last event).
    fn current_turn(&self) -> u32;
    fn winner(&self) -> Option<usize>;
    /// The state (as JSON) after the first `n` events.
    fn view_after(&self, n: usize) -> Value;
    /// How many events have been applied when turn `turn` is over (its last event included).
    fn events_through_turn(&self, turn: u32) -> usize;
    /// Validates and appends one more event line.
    fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError>;
}

impl<R: Ruleset> Game for Timeline<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }
    fn ruleset_version(&self) -> u32 {
        R::VERSION
    }
    fn envelope(&self) -> &Envelope {
        &self.envelope
    }
    fn header(&self) -> &Value {
        &self.header
    }
    fn event_count(&self) -> usize {
        self.events.len()
    }
    fn event_turn(&self, i: usize) -> u32 {
        self.turns[i]
    }
    fn event_line_no(&self, i: usize) -> usize {
        self.lines[i]
    }
    fn event_text(&self, i: usize) -> String {
        let state = self.state_after(i);
        R::write_event(&state, &self.events[i])
    }
    fn event_facts(&self, i: usize) -> &[Fact] {
        let start = if i == 0 { 0 } else { self.fact_ends[i - 1] };
        &self.facts[start..self.fact_ends[i]]
    }
    fn current_turn(&self) -> u32 {
        R::turn(&self.last)
    }
    fn winner(&self) -> Option<usize> {
        R::winner(&self.last)
    }
    fn view_after(&self, n: usize) -> Value {
        if n >= self.events.len() {
            return R::view(&self.last);
        }
        R::view(&self.state_after(n))
    }
    fn events_through_turn(&self, turn: u32) -> usize {
        // Turns never decrease along the log, so this is a binary search.
        self.turns.partition_point(|&t| t <= turn)
    }
    fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError> {
        Timeline::push_line(self, line_no, text)
    }
}

/// Reads a whole log of ruleset `R` whose header was already read into `envelope` and `header`.
pub fn read_events<R: Ruleset>(envelope: Envelope, header: Value, text: &str) -> Result<Timeline<R>, LogError> {
    let mut timeline = Timeline::<R>::start(envelope, header)?;
    // Room for the events (a line is rarely shorter than 40 bytes) and about two facts each.
    let estimate = text.len() / 40;
    timeline.events.reserve(estimate);
    timeline.lines.reserve(estimate);
    timeline.turns.reserve(estimate);
    timeline.fact_ends.reserve(estimate);
    timeline.facts.reserve(2 * estimate);
    for (line_no, line) in lines(text).skip(1) {
        timeline.push_line(line_no, line)?;
    }
    Ok(timeline)
}
