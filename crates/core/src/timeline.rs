//! A validated game and its history: the state after any event, cheaply.
//!
//! Building a [`Timeline`] validates every event (ruleset `apply`) and keeps the parsed events, the facts
//! of each event and a snapshot of the state every [`SNAPSHOT_EVERY`] events, so "the state at turn N" is
//! a snapshot clone plus at most that many applied events.
//!
//! The timeline also keeps the promise that a rejected event changes nothing: it drops the facts the event
//! pushed and rebuilds the state from the last snapshot, whatever the ruleset left behind.
//!
//! What the layers above call, a timeline of any ruleset as a `Game`, is in `facade.rs`.

use crate::facts::Fact;
use crate::kind::{EventOf, Ruleset};
use crate::log::{lines, Envelope, LogError, Problem};
use crate::ruleset::{EventError, Header};

/// How many events lie between two kept states: as many as between two stored checkpoints, so the states a
/// timeline keeps are the checkpoints the store writes.
pub const SNAPSHOT_EVERY: usize = crate::checkpoint::EVERY;

/// One line of a game's log after its header: an event of the game's rules, or the withdrawal of one
/// (see [`crate::withdrawal`]).
#[derive(Debug, Clone)]
pub(crate) enum Entry<E> {
    Event(E),
    /// Withdraws the event at this index (0-based).
    Withdrawal(usize),
}

/// A validated game of one ruleset.
pub struct Timeline<R: Ruleset> {
    pub(crate) envelope: Envelope,
    /// The header line's text.
    pub(crate) header_line: String,
    /// Which seats a program played, and the program that wrote the record, as its header says.
    pub(crate) bots: Vec<bool>,
    pub(crate) program: Option<String>,
    /// Every line after the header, withdrawals too: the state after `n` of them is the game after its
    /// `n`th line, as it stood then.
    pub(crate) events: Vec<Entry<EventOf<R>>>,
    /// For each line, the line (0-based) that withdrew it, if one did.
    pub(crate) withdrawn_by: Vec<Option<u32>>,
    /// The source line of each event.
    pub(crate) lines: Vec<usize>,
    /// When each line's entry was made (milliseconds since 1970, UTC), where its line says.
    pub(crate) times: Vec<Option<i64>>,
    /// The turn each event belongs to (the state's turn before it was applied).
    pub(crate) turns: Vec<u32>,
    pub(crate) facts: Vec<Fact>,
    /// `facts[fact_ends[i - 1]..fact_ends[i]]` are the facts of event `i`.
    pub(crate) fact_ends: Vec<usize>,
    /// `snapshots[k]` is the state after `k * SNAPSHOT_EVERY` events.
    pub(crate) snapshots: Vec<R::State>,
    pub(crate) last: R::State,
    /// The fingerprint as far as it was last asked (`Game::fingerprint`), carried on from there as the game
    /// grows; made again whole after a withdrawal or a cut.
    pub(crate) print: std::sync::Mutex<Option<KeptPrint>>,
}

/// A fingerprint part-way: over the first `events` events, when `withdrawals` entries had been withdrawn.
#[derive(Clone)]
pub(crate) struct KeptPrint {
    pub(crate) print: crate::fingerprint::Print,
    pub(crate) events: usize,
    pub(crate) withdrawals: usize,
    /// The facts so far of cards the record did not see (`Game::unseen`).
    pub(crate) unseen: u64,
}

// By hand: a derive would ask the ruleset type itself to be `Clone`.
impl<R: Ruleset> Clone for Timeline<R> {
    fn clone(&self) -> Self {
        Timeline {
            envelope: self.envelope.clone(),
            header_line: self.header_line.clone(),
            bots: self.bots.clone(),
            program: self.program.clone(),
            events: self.events.clone(),
            withdrawn_by: self.withdrawn_by.clone(),
            lines: self.lines.clone(),
            times: self.times.clone(),
            turns: self.turns.clone(),
            facts: self.facts.clone(),
            fact_ends: self.fact_ends.clone(),
            snapshots: self.snapshots.clone(),
            last: self.last.clone(),
            print: std::sync::Mutex::new(self.print.lock().unwrap_or_else(|e| e.into_inner()).clone()),
        }
    }
}

impl<R: Ruleset> Timeline<R> {
    /// Starts a game from its header line (already known to be an almanac/1 header of this ruleset).
    pub fn start(envelope: Envelope, header_line: &str) -> Result<Self, LogError> {
        let typed = R::header(header_line).map_err(|e| LogError::header(e.0))?;
        let (bots, program) = (typed.bots(&envelope), typed.program());
        let initial = typed.state().map_err(|e| LogError::header(e.0))?;
        Ok(Timeline {
            envelope,
            header_line: header_line.to_string(),
            bots,
            program,
            events: Vec::new(),
            withdrawn_by: Vec::new(),
            lines: Vec::new(),
            times: Vec::new(),
            turns: Vec::new(),
            facts: Vec::new(),
            fact_ends: Vec::new(),
            snapshots: vec![initial.clone()],
            last: initial,
            print: std::sync::Mutex::new(None),
        })
    }

    /// Parses, validates and applies one event line.
    pub fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError> {
        self.check_line(line_no, text)?;
        let (text, time) =
            crate::moment::split(text).map_err(|reason| LogError::new(line_no, Problem::Event(reason)))?;
        if let Some(read) = crate::withdrawal::read(&text) {
            let seq = read.map_err(|reason| LogError::new(line_no, Problem::Event(reason)))?;
            self.withdraw(line_no, seq)?;
        } else {
            let event = R::parse_event(&self.last, &text).map_err(|e| unreadable(line_no, e))?;
            self.push(line_no, event)?;
        }
        *self.times.last_mut().expect("the line pushed") = time;
        Ok(())
    }

    /// Makes room for `events` more events and about two facts each, so that reading a whole game does not
    /// grow its lists again and again.
    pub fn reserve(&mut self, events: usize) {
        self.events.reserve(events);
        self.withdrawn_by.reserve(events);
        self.lines.reserve(events);
        self.times.reserve(events);
        self.turns.reserve(events);
        self.fact_ends.reserve(events);
        self.facts.reserve(2 * events);
    }

    /// Validates and applies an event whose line was written from it rather than read (an importer that makes
    /// its events typed, `Importer::read`): the line is held to the limits `push_line` holds a line to, and
    /// not read back.
    pub fn push_written(&mut self, line_no: usize, line: &str, event: EventOf<R>) -> Result<(), LogError> {
        self.check_line(line_no, line)?;
        self.push(line_no, event)
    }

    /// A line's limits: one event more than a game holds, a line too long, a NUL character.
    fn check_line(&self, line_no: usize, text: &str) -> Result<(), LogError> {
        use crate::log::limits::{MAX_EVENTS, MAX_LINE_BYTES};
        if self.events.len() >= MAX_EVENTS {
            return Err(LogError::new(
                line_no,
                Problem::Limit(format!("a game has at most {MAX_EVENTS} events; this is one more")),
            ));
        }
        if text.len() > MAX_LINE_BYTES {
            return Err(LogError::new(
                line_no,
                Problem::Limit(format!("this line is {} bytes long; a line has at most {MAX_LINE_BYTES}", text.len())),
            ));
        }
        if crate::log::holds_nul(text) {
            return Err(LogError::new(line_no, Problem::Nul));
        }
        Ok(())
    }

    /// The last event still in effect (0-based): neither withdrawn nor a withdrawal.
    fn last_in_effect(&self) -> Option<usize> {
        (0..self.events.len())
            .rev()
            .find(|&i| matches!(self.events[i], Entry::Event(_)) && self.withdrawn_by[i].is_none())
    }

    /// Withdraws event `seq` (1-based) by a line of its own, if the withdrawal rule allows it (see
    /// [`crate::withdrawal`]); a refused withdrawal changes nothing.
    pub fn withdraw(&mut self, line_no: usize, seq: u64) -> Result<(), LogError> {
        let refuse = |why: String| Err(LogError::new(line_no, Problem::Rule(crate::RuleViolation(why))));
        let Some(last) = self.last_in_effect() else {
            return refuse("there is no entry to withdraw".to_string());
        };
        let count = self.events.len();
        if seq == 0 || seq as usize > count {
            return refuse(format!("there is no event {seq} to withdraw: the log has {count} events so far"));
        }
        let i = seq as usize - 1;
        if matches!(self.events[i], Entry::Withdrawal(_)) {
            return refuse(format!(
                "event {seq} is a withdrawal, which cannot be withdrawn: make the entry again instead"
            ));
        }
        if let Some(by) = self.withdrawn_by[i] {
            return refuse(format!("event {seq} is already withdrawn (by event {})", by + 1));
        }
        if i != last {
            return refuse(format!(
                "only the last entry still in effect can be withdrawn: that is event {}, not event {seq}",
                last + 1
            ));
        }
        self.last = self.replay(i);
        self.withdrawn_by[i] = Some(count as u32);
        self.events.push(Entry::Withdrawal(i));
        self.withdrawn_by.push(None);
        self.lines.push(line_no);
        self.times.push(None);
        // The withdrawal belongs to the turn of the entry it takes back: the game is in that turn again.
        self.turns.push(self.turns[i]);
        self.fact_ends.push(self.facts.len());
        if self.events.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(self.last.clone());
        }
        Ok(())
    }

    /// Validates and applies one parsed event; a rejected event leaves the timeline exactly as it was.
    pub fn push(&mut self, line_no: usize, event: EventOf<R>) -> Result<(), LogError> {
        let turn = R::event_turn(&self.last, &event);
        let mark = self.facts.len();
        if self.last_in_effect().is_none() {
            // The first event opens the game's first turn, after what the header gave.
            R::opening_facts(&self.last, &mut self.facts);
            self.facts.push(Fact::TurnStarted { turn: R::turn(&self.last), player: R::active(&self.last) });
        }
        if let Err(violation) = R::apply(&mut self.last, &event, &mut self.facts) {
            self.facts.truncate(mark);
            self.last = self.replay(self.events.len());
            return Err(LogError::new(line_no, Problem::Rule(violation)));
        }
        self.events.push(Entry::Event(event));
        self.withdrawn_by.push(None);
        self.lines.push(line_no);
        self.times.push(None);
        self.turns.push(turn);
        self.fact_ends.push(self.facts.len());
        if self.events.len().is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshots.push(self.last.clone());
        }
        Ok(())
    }

    /// Forgets every event after the first `n`: the timeline is then as if only those had been pushed.
    /// Costs at most `SNAPSHOT_EVERY` events replayed, whatever the game's length.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.events.len() {
            return;
        }
        // The fingerprint kept may hold the events cut: made again whole when next asked.
        *self.print.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
        self.last = self.replay(n);
        for entry in &self.events[n..] {
            if let Entry::Withdrawal(i) = *entry {
                if i < n {
                    self.withdrawn_by[i] = None;
                }
            }
        }
        self.events.truncate(n);
        self.withdrawn_by.truncate(n);
        self.lines.truncate(n);
        self.times.truncate(n);
        self.turns.truncate(n);
        self.fact_ends.truncate(n);
        // The opening facts belong to the first event: none are left before it.
        self.facts.truncate(self.fact_ends.last().copied().unwrap_or(0));
        self.snapshots.truncate(n / SNAPSHOT_EVERY + 1);
    }

    /// The state after the first `n` events (clamped to the events there are).
    pub fn state_after(&self, n: usize) -> R::State {
        let n = n.min(self.events.len());
        if n == self.events.len() {
            return self.last.clone();
        }
        self.replay(n)
    }

    /// The state after the first `n` events, rebuilt from the snapshot before it, or from the state before
    /// the entry the last withdrawal since that snapshot took back.
    fn replay(&self, n: usize) -> R::State {
        let k = n / SNAPSHOT_EVERY;
        let from = k * SNAPSHOT_EVERY;
        let withdrawal = (from..n).rev().find_map(|j| match self.events[j] {
            Entry::Withdrawal(i) => Some((j, i)),
            Entry::Event(_) => None,
        });
        let (mut state, start) = match withdrawal {
            // After a withdrawal the game is as it was before the entry withdrawn, which lies before it.
            Some((j, i)) => (self.replay(i), j + 1),
            None => (self.snapshots[k].clone(), from),
        };
        let mut scratch = Vec::new();
        for entry in &self.events[start..n] {
            if let Entry::Event(event) = entry {
                scratch.clear();
                // These events were accepted when the timeline was built.
                let _ = R::apply(&mut state, event, &mut scratch);
            }
        }
        state
    }

    /// The state after the first `n` lines, going on from `state`, the state after the first `n - 1`; whether
    /// the rules accepted the line's event again (they did when the timeline was built; a withdrawal: yes).
    pub(crate) fn step(&self, state: &mut R::State, n: usize, scratch: &mut Vec<Fact>) -> bool {
        match &self.events[n - 1] {
            Entry::Event(event) => {
                scratch.clear();
                R::apply(state, event, scratch).is_ok()
            }
            Entry::Withdrawal(i) => {
                *state = self.replay(*i);
                true
            }
        }
    }

    /// The state after the last event.
    pub fn last(&self) -> &R::State {
        &self.last
    }

    /// What a withdrawal of entry `w` (0-based) says: what it took back, in the words of the entry itself
    /// ("takes back event 159: Ayşe builds a road"), not only its number.
    pub(crate) fn withdrawal_words(&self, w: usize) -> String {
        match &self.events[w] {
            Entry::Event(event) => format!("takes back event {}: {}", w + 1, R::describe(&self.state_after(w), event)),
            // A withdrawal is never withdrawn (the rules refuse it); said plainly should one be.
            Entry::Withdrawal(_) => format!("takes back event {}", w + 1),
        }
    }
}

/// The state after a checkpoint (after `checkpoint.0` events; none: the header's) and the event lines after
/// it, each validated as it was when stored; the header as its line's text. An error names the event's line
/// in the log (the header is line 1, event `n` line `n + 1`).
pub fn resume<R: Ruleset>(
    header: &str,
    checkpoint: Option<(usize, &[u8])>,
    lines: &[String],
) -> Result<R::State, crate::kind::ResumeError> {
    let initial = R::initial(header).map_err(|e| LogError::header(e.0))?;
    let (done, mut state) = match checkpoint {
        Some((n, bytes)) => (n, R::read_state(&initial, bytes)?),
        None => (0, initial),
    };
    // The entries the lines withdraw, each kept as the state before it when it comes (a withdrawal makes
    // the game that state again).
    let mut targets = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if let Some(read) = crate::withdrawal::read(line) {
            let line_no = done + k + 2;
            let seq = read.map_err(|reason| LogError::new(line_no, Problem::Event(reason)))? as usize;
            // The store's resume point always holds the entry: its checkpoint lies before any entry
            // withdrawn after it.
            if seq <= done || seq > done + k {
                return Err(crate::kind::ResumeError::Withdrawal { line: line_no, seq });
            }
            targets.push(seq);
        }
    }
    let mut before: Vec<(usize, R::State)> = Vec::new();
    let mut scratch = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let (line_no, seq) = (done + k + 2, done + k + 1);
        if let Some(Ok(withdrawn)) = crate::withdrawal::read(line) {
            let at = before.iter().position(|(s, _)| *s == withdrawn as usize).expect("kept above");
            state = before.swap_remove(at).1;
            continue;
        }
        if targets.contains(&seq) {
            before.push((seq, state.clone()));
        }
        let (line, _) = crate::moment::split(line).map_err(|reason| LogError::new(line_no, Problem::Event(reason)))?;
        let event = R::parse_event(&state, &line).map_err(|e| unreadable(line_no, e))?;
        scratch.clear();
        R::apply(&mut state, &event, &mut scratch).map_err(|v| LogError::new(line_no, Problem::Rule(v)))?;
    }
    Ok(state)
}

/// An event line that does not read as an event, as the error of its line.
fn unreadable(line_no: usize, e: EventError) -> LogError {
    let problem = match e {
        EventError::Json(reason) => Problem::Json(reason),
        EventError::Invalid(reason) => Problem::Event(reason),
    };
    LogError::new(line_no, problem)
}

/// Reads a whole log of ruleset `R` whose header line was already read into `envelope`.
pub fn read_events<R: Ruleset>(envelope: Envelope, header_line: &str, text: &str) -> Result<Timeline<R>, LogError> {
    let mut timeline = Timeline::<R>::start(envelope, header_line)?;
    // A line is rarely shorter than 40 bytes.
    timeline.reserve(text.len() / 40);
    for (line_no, line) in lines(text).skip(1) {
        timeline.push_line(line_no, line)?;
    }
    Ok(timeline)
}

#[cfg(test)]
mod tests {
    //! The rollback promise, with a ruleset that breaks things on purpose: it changes the state and pushes
    //! facts before it finds out that an event is illegal.
    use super::*;
    use crate::kind::Game;
    use crate::ruleset::{RuleViolation, Rules, SetupError};
    use crate::view::OwnView;
    use crate::vocabulary::Vocabulary;

    struct Careless;

    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Tally {
        total: u32,
        turn: u32,
    }

    /// A number to add.
    #[derive(Debug, Clone, PartialEq)]
    struct Add(u32);

    /// The tally's header: whatever it says is ignored.
    #[derive(serde::Deserialize)]
    struct Blank(#[allow(dead_code)] serde::de::IgnoredAny);

    impl crate::Header for Blank {
        type State = Tally;
        fn state(self) -> Result<Tally, SetupError> {
            Ok(Tally { total: 0, turn: 1 })
        }
    }

    impl Rules for Tally {
        type Header = Blank;
        type Event = Add;
        const VERSION: u32 = 1;

        fn apply(&mut self, event: &Add, facts: &mut Vec<Fact>) -> Result<(), RuleViolation> {
            // Everything changes first; the check comes last.
            self.total += event.0;
            self.turn += 1;
            facts.push(Fact::Built { player: 0, piece: "block" });
            if event.0 > 10 {
                return Err(RuleViolation(format!("{} is more than 10", event.0)));
            }
            Ok(())
        }
        fn opening_facts(&self, facts: &mut Vec<Fact>) {
            facts.push(Fact::Built { player: 0, piece: "foundation" });
        }
        fn fixed_from(&mut self, _: &Tally) -> Result<(), crate::CheckpointError> {
            Ok(())
        }
    }

    impl crate::Positioned for Tally {}

    impl crate::Played for Tally {
        fn standing(&self) -> crate::Standing {
            crate::Standing { turn: self.turn, active: 0, winner: None }
        }
    }

    /// Nobody sits at the tally.
    impl crate::Seated for Tally {
        fn table(&self) -> &crate::Table {
            static NOBODY: std::sync::LazyLock<crate::Table> = std::sync::LazyLock::new(crate::Table::default);
            &NOBODY
        }
    }

    impl crate::Viewed for Tally {
        type GameView = ();
        type PlayerView = ();
        fn view(&self) -> OwnView<(), ()> {
            OwnView { phase: "play", players: Vec::new(), game: () }
        }
    }

    impl crate::Line for Add {
        type State = Tally;
        const TYPES: &'static [&'static str] = &[];
        fn parse(_: &Tally, line: &str) -> Result<Add, EventError> {
            line.trim().parse().map(Add).map_err(|_| EventError::Invalid(format!("`{line}` is not a number")))
        }
        fn write(&self, _: &Tally) -> String {
            self.0.to_string()
        }
    }

    impl crate::Described<Tally> for Add {
        fn describe(&self, _: &Tally) -> String {
            format!("adds {}", self.0)
        }
    }

    const WORDS: Vocabulary = Vocabulary {
        id: "careless",
        name: "Careless",
        score: crate::vocabulary::Term::new("points", "points"),
        items_are: "blocks",
        ..Vocabulary::NONE
    };

    impl Ruleset for Careless {
        type State = Tally;
        const VOCABULARY: &'static Vocabulary = &WORDS;
        const REPLAY_SCRIPT: &'static str = "";
    }

    fn timeline() -> Timeline<Careless> {
        let envelope = Envelope::parse(r#"{"format":"almanac/1","ruleset":"careless","players":[{"name":"A"}]}"#)
            .expect("a valid envelope");
        Timeline::start(envelope, "{}").expect("starts")
    }

    #[test]
    fn a_rejected_event_leaves_state_and_facts_as_they_were() {
        let mut t = timeline();
        // Past a snapshot, so the rebuild starts from one that is not the initial state.
        for n in 0..70 {
            t.push(n + 2, Add(1)).expect("legal");
        }
        let (state, facts) = (t.last().clone(), t.facts.clone());
        let err = t.push(72, Add(11)).expect_err("illegal");
        assert_eq!(err.line, 72);
        assert!(matches!(err.problem, Problem::Rule(_)));
        assert_eq!(t.last(), &state, "the state is rebuilt");
        assert_eq!(t.facts, facts, "the facts the event pushed are gone");
        t.push(72, Add(2)).expect("the game goes on");
        assert_eq!(t.last().total, 72);
    }

    #[test]
    fn a_game_holds_at_most_the_limit_of_events_and_lines_of_the_limit_of_bytes() {
        use crate::log::limits::{MAX_EVENTS, MAX_LINE_BYTES};
        let mut t = timeline();
        for n in 0..MAX_EVENTS {
            t.push_line(n + 2, "0").expect("legal");
        }
        let err = t.push_line(MAX_EVENTS + 2, "0").expect_err("one too many");
        assert!(err.is_too_large() && err.line == MAX_EVENTS + 2, "{err}");
        assert!(err.reason().contains("at most 50000 events"), "{err}");
        let mut t = timeline();
        let long = format!("{}1", " ".repeat(MAX_LINE_BYTES));
        let err = t.push_line(2, &long).expect_err("too long");
        assert!(err.is_too_large(), "{err}");
        t.push_line(2, &long[2..]).expect("a line at the limit is read");
    }

    #[test]
    fn a_rejected_first_event_leaves_no_opening_facts() {
        let mut t = timeline();
        assert!(t.push(2, Add(99)).is_err());
        assert!(t.facts.is_empty());
        assert_eq!(t.last(), &Tally { total: 0, turn: 1 });
        t.push(2, Add(3)).expect("legal");
        assert_eq!(t.facts[0], Fact::Built { player: 0, piece: "foundation" }, "what the header gave comes first");
        assert_eq!(t.facts[1], Fact::TurnStarted { turn: 1, player: 0 });
        assert_eq!(t.facts.len(), 3, "with the first event's facts");
    }

    fn withdraw_line(seq: u64) -> String {
        crate::withdrawal::line(seq)
    }

    #[test]
    fn a_withdrawn_entry_leaves_the_game_as_if_it_had_not_been_made() {
        let mut t = timeline();
        for n in 0..3 {
            t.push_line(n + 2, "2").expect("legal");
        }
        let (before, facts_before) = (t.last().clone(), Game::fact_rows(&t, 0));
        t.push_line(5, "5").expect("legal");
        t.push_line(6, &withdraw_line(4)).expect("the last entry may be withdrawn");
        assert_eq!(t.last(), &before);
        assert_eq!(Game::fact_rows(&t, 0), facts_before, "the withdrawn entry's facts count nowhere");
        assert_eq!(Game::withdrawn_by(&t, 3), Some(4));
        assert_eq!(Game::withdrawal_of(&t, 4), Some(3));
        assert_eq!(Game::event_text(&t, 4), withdraw_line(4));
        assert_eq!(Game::event_words(&t, 3, 5), vec!["adds 5".to_string(), "takes back event 4: adds 5".to_string()]);
        assert_eq!(Game::event_turn(&t, 4), Game::event_turn(&t, 3), "back in the withdrawn entry's turn");
        assert_eq!(t.state_after(4).total, 11, "the state after the entry is still as it stood then");
        assert_eq!(t.state_after(5), before);
        // The one before it may go too; a third may not.
        t.push_line(7, &withdraw_line(3)).expect("the one before the last");
        assert_eq!(t.last().total, 4);
        t.push_line(8, "1").expect("the game goes on");
        assert_eq!(t.last().total, 5);
        let err = t.push_line(9, &withdraw_line(2)).expect_err("not the last in effect");
        assert!(err.reason().contains("that is event 7, not event 2"), "{err}");
    }

    #[test]
    fn a_withdrawal_names_the_last_entry_in_effect_as_far_back_as_the_table_needs() {
        let mut t = timeline();
        let err = t.push_line(2, &withdraw_line(1)).expect_err("nothing yet");
        assert!(err.reason().contains("there is no entry to withdraw"), "{err}");
        for n in 0..3 {
            t.push_line(n + 2, "1").expect("legal");
        }
        let dump = Game::state_dump(&t);
        let refusals = [
            (withdraw_line(9), "there is no event 9 to withdraw: the log has 3 events so far"),
            (withdraw_line(0), "there is no event 0"),
            (withdraw_line(2), "only the last entry still in effect can be withdrawn: that is event 3, not event 2"),
        ];
        for (line, words) in refusals {
            let err = t.push_line(5, &line).expect_err(words);
            assert!(err.reason().contains(words), "{err}");
            assert!(matches!(err.problem, Problem::Rule(_)), "{err}");
            assert_eq!(Game::state_dump(&t), dump, "a refused withdrawal changes nothing");
            assert_eq!(Game::event_count(&t), 3);
        }
        t.push_line(5, &withdraw_line(3)).expect("legal");
        let err = t.push_line(6, &withdraw_line(3)).expect_err("twice");
        assert!(err.reason().contains("event 3 is already withdrawn (by event 4)"), "{err}");
        let err = t.push_line(6, &withdraw_line(4)).expect_err("a withdrawal");
        assert!(err.reason().contains("event 4 is a withdrawal"), "{err}");
        t.push_line(6, &withdraw_line(2)).expect("the one before");
        t.push_line(7, &withdraw_line(1)).expect("and the first");
        assert_eq!(Game::state_dump(&t), Game::state_dump(&timeline()), "as before any entry");
        let err = t.push_line(8, &withdraw_line(1)).expect_err("nothing left");
        assert!(err.reason().contains("there is no entry to withdraw"), "{err}");
        // Ten entries, then ten withdrawals in a row: the game as before the ten.
        let mut t = timeline();
        for n in 0..12 {
            t.push_line(n + 2, "1").expect("legal");
        }
        let before = Game::state_dump_after(&t, 2);
        for k in 0..10 {
            t.push_line(14 + k, &withdraw_line(12 - k as u64)).expect("the last in effect");
        }
        assert_eq!(Game::state_dump(&t), before);
        let err = t.push_line(24, r#"{"type":"withdraw","seq":"one"}"#).expect_err("not a number");
        assert!(matches!(err.problem, Problem::Event(_)) && err.reason().contains("a withdrawal is"), "{err}");
    }

    #[test]
    fn withdrawals_across_snapshots_cut_back_and_resume_like_the_whole_replay() {
        let mut t = timeline();
        let mut texts = Vec::new();
        // Entries and withdrawals around the snapshots at 64 and 128 lines.
        for n in 0..200u64 {
            let seq = n + 1;
            let text = if n % 7 == 6 { withdraw_line(seq - 1) } else { (n % 5).to_string() };
            t.push_line(seq as usize + 1, &text).expect("legal");
            texts.push(text);
        }
        let mut plain = 0;
        let mut effect: Vec<u32> = Vec::new();
        for text in &texts {
            match crate::withdrawal::target(text) {
                Some(_) => plain -= effect.pop().expect("an entry"),
                None => {
                    let v: u32 = text.parse().expect("a number");
                    effect.push(v);
                    plain += v;
                }
            }
        }
        assert_eq!(t.last().total, plain, "the state is the entries in effect");
        for n in [0, 63, 64, 65, 127, 128, 129, 199, 200] {
            let from_lines = resume::<Careless>("null", None, &texts[..n]).expect("resumes");
            assert_eq!(from_lines, t.state_after(n), "after {n} lines");
        }
        // A checkpoint, and the lines after it.
        let (at, bytes) = Game::checkpoints(&t, 0).into_iter().find(|(n, _)| *n == 128).expect("kept");
        let resumed = resume::<Careless>("null", Some((at, &bytes)), &texts[at..]).expect("resumes");
        assert_eq!(&resumed, t.last());
        // Cut back between an entry and its withdrawal: the entry is in effect again.
        let mut cut = t.clone();
        cut.truncate(195);
        assert_eq!(Game::withdrawn_by(&cut, 194), None);
        assert_eq!(cut.last(), &t.state_after(195));
        cut.push_line(197, &withdraw_line(195)).expect("withdrawn again");
        assert_eq!(cut.last(), &t.state_after(196));
    }

    #[test]
    fn a_withdrawn_first_entry_gives_the_opening_facts_to_the_next() {
        let mut t = timeline();
        t.push_line(2, "3").expect("legal");
        t.push_line(3, &withdraw_line(1)).expect("legal");
        assert!(Game::fact_rows(&t, 0).is_empty());
        t.push_line(4, "2").expect("legal");
        assert_eq!(Game::event_facts(&t, 2)[0], Fact::Built { player: 0, piece: "foundation" });
        assert_eq!(Game::event_facts(&t, 2).len(), 3);
    }

    #[test]
    fn unreadable_lines_name_their_line() {
        let mut t = timeline();
        let err = t.push_line(5, "seven").expect_err("not a number");
        assert_eq!(err.to_string(), "line 5: `seven` is not a number");
        assert!(err.is_malformed());
    }
}
