//! The object-safe façade every layer above the rules calls: a [`Timeline`] of any ruleset as a
//! [`Game`], a ruleset's declarations as a [`GameKind`], and what may happen next in a game's state. The
//! history itself (events, facts, snapshots, withdrawals) is `timeline.rs`.

use crate::facts::{Fact, Partner, Seat};
use crate::kind::{EventOf, Game, GameKind, Importer, Ruleset};
use crate::log::{Envelope, LogError};
use crate::position::{Feature, Position, Positioned};
use crate::timeline::{read_events, resume, Entry, KeptPrint, Timeline, SNAPSHOT_EVERY};
use crate::view::AnyView;
use crate::vocabulary::Vocabulary;

impl<R: Ruleset> Timeline<R> {
    /// `read` of the fingerprint and the unseen count, carried on to the last event (see `KeptPrint`).
    fn kept_up_to_date<T>(&self, read: impl FnOnce(&KeptPrint) -> T) -> T {
        let mut kept = self.print.lock().unwrap_or_else(|e| e.into_inner());
        let withdrawals = self.withdrawn_by.iter().filter(|w| w.is_some()).count();
        // A withdrawal takes an earlier entry's facts out: made again whole (a cut forgets it, `truncate`).
        let usable = kept.as_ref().is_some_and(|k| k.events <= self.events.len() && k.withdrawals == withdrawals);
        if !usable {
            let print = crate::fingerprint::Print::new(R::ID, &self.envelope);
            *kept = Some(KeptPrint { print, events: 0, withdrawals, unseen: 0 });
        }
        let k = kept.as_mut().expect("made above");
        let unseen = R::VOCABULARY.unseen;
        for i in k.events..self.events.len() {
            let facts = self.event_facts(i);
            k.print.add(facts);
            k.unseen += unseen_cards(facts, unseen);
        }
        k.events = self.events.len();
        read(k)
    }

    /// `judge` of each decision `wanted` (by its index) with the state it was made in, in one pass over the
    /// events, each state made from the one before it; none where the game lists no alternatives (it has no
    /// recorder) or declares no features to value them.
    fn each_decision<T>(
        &self,
        wanted: &dyn Fn(usize) -> bool,
        judge: impl Fn(&R::State, &EventOf<R>, usize) -> Vec<T>,
    ) -> Vec<T> {
        if !R::RECORDER || R::FEATURES.is_empty() {
            return Vec::new();
        }
        let mut state = self.snapshots[0].clone();
        let mut scratch = Vec::new();
        let mut out = Vec::new();
        for i in 0..self.events.len() {
            if let Entry::Event(event) = &self.events[i] {
                if wanted(i) && self.event_is_decision(i) {
                    out.extend(judge(&state, event, i));
                }
            }
            self.step(&mut state, i + 1, &mut scratch);
        }
        out
    }
}

/// How many cards the facts name by an item that stands for one the record did not see, each card once: a
/// card passed between players (a steal) is said twice, lost by one and gained by the other, and a trade
/// between players once by each side.
fn unseen_cards(facts: &[Fact], unseen: &[&str]) -> u64 {
    let of = |item: &str, count: u32| if unseen.contains(&item) { count as u64 } else { 0 };
    facts
        .iter()
        .map(|f| match f {
            // Its other half is the `Gained` with `from` (`Fact::passed`).
            Fact::Lost { to: Some(_), .. } => 0,
            Fact::Gained { item, count, .. } | Fact::Spent { item, count, .. } | Fact::Lost { item, count, .. } => {
                of(item, *count)
            }
            // What one side gave is what the other got, said in the other side's fact.
            Fact::Traded { partner: Partner::Player(_), gave, .. } => {
                gave.iter().map(|(item, count)| of(item, *count)).sum()
            }
            Fact::Traded { gave, got, .. } => gave.iter().chain(got).map(|(item, count)| of(item, *count)).sum(),
            _ => 0,
        })
        .sum()
}

impl<R: Ruleset> Game for Timeline<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }
    fn ruleset_version(&self) -> u32 {
        R::VERSION
    }
    fn vocabulary(&self) -> &'static Vocabulary {
        R::VOCABULARY
    }
    fn envelope(&self) -> &Envelope {
        &self.envelope
    }
    fn header_line(&self) -> &str {
        &self.header_line
    }
    fn event_count(&self) -> usize {
        self.events.len()
    }
    fn fingerprint(&self) -> String {
        self.kept_up_to_date(|k| k.print.now())
    }
    fn unseen(&self) -> u64 {
        self.kept_up_to_date(|k| k.unseen)
    }
    fn event_turn(&self, i: usize) -> u32 {
        self.turns[i]
    }
    fn event_line_no(&self, i: usize) -> usize {
        self.lines[i]
    }
    fn event_time(&self, i: usize) -> Option<i64> {
        self.times.get(i).copied().flatten()
    }
    fn event_text(&self, i: usize) -> String {
        match &self.events[i] {
            Entry::Event(event) => R::write_event(&self.state_after(i), event),
            Entry::Withdrawal(w) => crate::withdrawal::line(*w as u64 + 1),
        }
    }
    fn event_words(&self, from: usize, to: usize) -> Vec<String> {
        let to = to.min(self.events.len());
        let from = from.min(to);
        let mut state = self.state_after(from);
        let mut scratch = Vec::new();
        let mut words = Vec::with_capacity(to - from);
        for n in from + 1..=to {
            words.push(match &self.events[n - 1] {
                Entry::Event(event) => R::describe(&state, event),
                Entry::Withdrawal(w) => self.withdrawal_words(*w),
            });
            self.step(&mut state, n, &mut scratch);
        }
        words
    }
    fn event_facts(&self, i: usize) -> &[Fact] {
        if self.withdrawn_by[i].is_some() {
            // A withdrawn entry's facts count nowhere; they are kept should its withdrawal be cut back.
            return &[];
        }
        let start = if i == 0 { 0 } else { self.fact_ends[i - 1] };
        &self.facts[start..self.fact_ends[i]]
    }
    fn event_is_decision(&self, i: usize) -> bool {
        match &self.events[i] {
            Entry::Event(e) => {
                self.withdrawn_by[i].is_none()
                    && R::decision(e)
                    && !self.event_facts(i).iter().any(|f| matches!(f, Fact::Rolled { .. }))
            }
            Entry::Withdrawal(_) => false,
        }
    }
    fn withdrawal_of(&self, i: usize) -> Option<usize> {
        match self.events[i] {
            Entry::Withdrawal(w) => Some(w),
            Entry::Event(_) => None,
        }
    }
    fn withdrawn_by(&self, i: usize) -> Option<usize> {
        self.withdrawn_by[i].map(|by| by as usize)
    }
    fn current_turn(&self) -> u32 {
        R::turn(&self.last)
    }
    fn winner(&self) -> Option<Seat> {
        R::winner(&self.last)
    }
    fn view_after(&self, n: usize) -> AnyView {
        if n >= self.events.len() {
            return R::view(&self.last).erase();
        }
        R::view(&self.state_after(n)).erase()
    }
    fn events_through_turn(&self, turn: u32) -> usize {
        // Turns never decrease along the log, so this is a binary search; but a withdrawal takes the game
        // back to the turn of the entry it withdrew, which an entry since may have ended: then the turn is
        // over after its last line.
        if self.withdrawn_by.iter().all(Option::is_none) {
            return self.turns.partition_point(|&t| t <= turn);
        }
        self.turns.iter().rposition(|&t| t <= turn).map_or(0, |i| i + 1)
    }
    fn push_line(&mut self, line_no: usize, text: &str) -> Result<(), LogError> {
        Timeline::push_line(self, line_no, text)
    }
    fn truncate(&mut self, events: usize) {
        Timeline::truncate(self, events)
    }
    fn state_dump(&self) -> String {
        format!("{:?}", self.last)
    }
    fn state_dump_after(&self, n: usize) -> String {
        format!("{:?}", self.state_after(n))
    }
    fn edition(&self) -> String {
        R::edition(&self.snapshots[0])
    }
    fn bots(&self) -> Vec<bool> {
        self.bots.clone()
    }
    fn program(&self) -> Option<String> {
        self.program.clone()
    }
    fn features(&self) -> &'static [Feature] {
        R::FEATURES
    }
    fn checkpoints(&self, after: usize) -> Vec<(usize, Vec<u8>)> {
        crate::checkpoint::kept(self.events.len())
            .into_iter()
            .filter(|&n| n > after)
            .map(|n| {
                let state = if n == self.events.len() { &self.last } else { &self.snapshots[n / SNAPSHOT_EVERY] };
                (n, R::write_state(state))
            })
            .collect()
    }
    fn positions(&self) -> Vec<Position> {
        let mut state = self.snapshots[0].clone();
        let Some(first) = state.position() else { return Vec::new() };
        let mut out = Vec::with_capacity(self.events.len() + 1);
        out.push(first);
        let mut scratch = Vec::new();
        for n in 1..=self.events.len() {
            self.step(&mut state, n, &mut scratch);
            out.extend(state.position());
        }
        out
    }
    fn decision(&self, i: usize) -> Option<crate::decisions::Decided> {
        if !R::RECORDER || R::FEATURES.is_empty() || i >= self.events.len() || !self.event_is_decision(i) {
            return None;
        }
        let Entry::Event(event) = &self.events[i] else { return None };
        decision_at::<R>(&self.state_after(i), event, i)
    }
    fn decisions(&self, wanted: &dyn Fn(usize) -> bool) -> Vec<crate::decisions::Decided> {
        self.each_decision(wanted, |state, event, i| decision_at::<R>(state, event, i).into_iter().collect())
    }
    fn weigh(&self, wanted: &dyn Fn(usize) -> bool, worth: crate::decisions::Worth) -> Vec<crate::decisions::Weighed> {
        self.each_decision(wanted, |state, event, i| crate::plans::weigh::<R>(state, event, i, worth))
    }
    fn apply_again(&self) -> usize {
        let (mut state, mut scratch) = (self.snapshots[0].clone(), Vec::new());
        (1..=self.events.len()).filter(|&n| self.step(&mut state, n, &mut scratch)).count()
    }
    fn list_moves_again(&self, tried: bool) -> (usize, usize) {
        let (mut state, mut scratch) = (self.snapshots[0].clone(), Vec::new());
        let mut moves = 0;
        for n in 0..=self.events.len() {
            if n > 0 {
                self.step(&mut state, n, &mut scratch);
            }
            for open in R::open(&state) {
                for kind in open.types {
                    for event in R::listed(&state, open.seat, kind) {
                        moves += 1;
                        if tried {
                            scratch.clear();
                            let _ = R::apply(&mut state.clone(), &event, &mut scratch);
                        }
                    }
                }
            }
        }
        (self.events.len() + 1, moves)
    }
    fn next(&self) -> Vec<crate::next::Open> {
        open_decisions::<R>(&self.last, |seat| self.envelope.players[seat as usize].name.clone())
    }
    fn memory_estimate(&self) -> usize {
        // The vectors' own sizes: the parts events, facts and states keep on the heap are not counted, so
        // this errs low (a game of 1,164 events: 257 KB estimated, 471 KB resident); it only needs to
        // weigh games against each other in a cache.
        use std::mem::size_of;
        self.events.len()
            * (size_of::<Entry<EventOf<R>>>()
                + size_of::<Option<u32>>()
                + size_of::<usize>()
                + size_of::<u32>()
                + size_of::<usize>())
            + self.facts.len() * size_of::<Fact>()
            + (self.snapshots.len() + 1) * size_of::<R::State>()
    }
}

impl<G: Ruleset> GameKind for G {
    fn id(&self) -> &'static str {
        G::ID
    }
    fn version(&self) -> u32 {
        G::VERSION
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn vocabulary(&self) -> &'static Vocabulary {
        G::VOCABULARY
    }
    fn importers(&self) -> &'static [Importer] {
        G::IMPORTERS
    }
    fn event_types(&self) -> &'static [&'static str] {
        <EventOf<G> as crate::Line>::TYPES
    }
    fn replay_script(&self) -> &'static str {
        G::REPLAY_SCRIPT
    }
    fn features(&self) -> &'static [Feature] {
        G::FEATURES
    }
    fn recorder(&self) -> bool {
        G::RECORDER
    }
    fn beginnings(&self) -> Vec<crate::next::Beginning> {
        G::beginnings()
    }
    fn begin(&self, asked: &crate::next::Begin) -> Result<crate::next::HeaderFields, crate::SetupError> {
        G::begin(asked)
    }
    fn opening(&self, beginning: &str, players: &[&str]) -> crate::next::Opening {
        G::opening(beginning, players)
    }
    fn read(&self, envelope: Envelope, header_line: &str, text: &str) -> Result<Box<dyn Game>, LogError> {
        // One monomorphic loop per game: no dynamic dispatch per event.
        Ok(Box::new(read_events::<G>(envelope, header_line, text)?))
    }
    fn view_from(
        &self,
        header: &str,
        checkpoint: Option<(usize, &[u8])>,
        lines: &[String],
    ) -> Result<AnyView, crate::kind::ResumeError> {
        Ok(G::view(&resume::<G>(header, checkpoint, lines)?).erase())
    }
    fn state_dump_from(
        &self,
        header: &str,
        checkpoint: Option<(usize, &[u8])>,
        lines: &[String],
    ) -> Result<String, crate::kind::ResumeError> {
        Ok(format!("{:?}", resume::<G>(header, checkpoint, lines)?))
    }
}

/// What may happen next in `state` (see [`crate::next`]): the game's open decisions, each listed type kept only when the rules
/// accept one of its events, with those they accept.
fn open_decisions<R: Ruleset>(state: &R::State, name: impl Fn(Seat) -> String) -> Vec<crate::next::Open> {
    let mut facts = Vec::new();
    let over = R::winner(state).is_some();
    // Whether the rules accept the event here, and whether it ends the game: a winner after it, or nothing
    // left to do (a game may end in a tie).
    let mut accepted = |event: &EventOf<R>| {
        facts.clear();
        let mut after = state.clone();
        R::apply(&mut after, event, &mut facts)
            .ok()
            .map(|()| !over && (R::winner(&after).is_some() || R::open(&after).is_empty()))
    };
    R::open(state)
        .into_iter()
        .map(|decision| {
            let mut types = Vec::new();
            let mut choices = Vec::new();
            for kind in decision.types {
                let (events, forms) = match R::candidates(state, decision.seat, kind) {
                    crate::next::Candidates::Untried => {
                        types.push(kind);
                        continue;
                    }
                    crate::next::Candidates::Each(events) => (events, Vec::new()),
                    crate::next::Candidates::Fill(forms) => (Vec::new(), forms),
                    crate::next::Candidates::EachOrFill(events, forms) => (events, forms),
                };
                let legal: Vec<crate::next::Choice> = events
                    .iter()
                    .filter_map(|e| {
                        let ends = accepted(e)?;
                        Some(crate::next::Choice {
                            line: R::write_event(state, e),
                            words: R::describe(state, e),
                            shown: R::shown(state, e),
                            ends,
                        })
                    })
                    .collect();
                let forms: Vec<crate::next::Blank> = forms
                    .into_iter()
                    .map(|f| crate::next::Blank {
                        line: R::write_event(state, &f.event),
                        words: f.words,
                        counts: f.counts,
                        picks: f.picks,
                    })
                    .collect();
                if !legal.is_empty() || !forms.is_empty() {
                    types.push(kind);
                    choices.push(crate::next::Choices { kind, events: legal, forms });
                }
            }
            crate::next::Open { seat: decision.seat, player: name(decision.seat), types, choices }
        })
        .filter(|open| !open.types.is_empty())
        .collect()
}

/// `event`, made in `state`, against every event the rules would have accepted there from the seat that
/// made it (see [`crate::decisions`]): the events a recorder offers (`Ruleset::candidates`, those
/// listed whole), one alternative per decision (the outcomes of a draw together, by their probabilities).
fn decision_at<R: Ruleset>(state: &R::State, event: &EventOf<R>, index: usize) -> Option<crate::decisions::Decided> {
    use crate::decisions::{Alternative, Decided, Outcome};
    let chosen = R::choice(event);
    let mut facts = Vec::new();
    let mut after = |e: &EventOf<R>, probability: f64| -> Option<Outcome> {
        facts.clear();
        let mut next = state.clone();
        R::apply(&mut next, e, &mut facts).ok()?;
        Some(Outcome { probability, position: next.position()?, winner: R::winner(&next) })
    };
    for open in R::open(state) {
        let mut alternatives: Vec<Alternative> = Vec::new();
        // Each alternative's first outcome (what names its decision), and whether it is legal at all.
        let mut decided: Vec<(EventOf<R>, Option<usize>)> = Vec::new();
        for kind in open.types {
            let events = match R::candidates(state, open.seat, kind) {
                crate::next::Candidates::Each(events) | crate::next::Candidates::EachOrFill(events, _) => events,
                _ => continue,
            };
            for e in events.into_iter().filter(|e| R::dealt_alike(&chosen, e)) {
                let is_chosen = e == chosen;
                let outcomes = R::outcomes(state, &e);
                let Some((first, _)) = outcomes.first() else { continue };
                if let Some((_, at)) = decided.iter().find(|(d, _)| d == first) {
                    if let Some(k) = *at {
                        alternatives[k].chosen |= is_chosen;
                    }
                    continue;
                }
                let reached: Vec<Outcome> = outcomes.iter().filter_map(|(o, weight)| after(o, *weight)).collect();
                let total: f64 = reached.iter().map(|o| o.probability).sum();
                if reached.is_empty() || total <= 0.0 {
                    decided.push((first.clone(), None));
                    continue;
                }
                decided.push((first.clone(), Some(alternatives.len())));
                alternatives.push(Alternative {
                    line: R::write_event(state, first),
                    words: R::describe(state, first),
                    outcomes: reached
                        .into_iter()
                        .map(|o| Outcome { probability: o.probability / total, ..o })
                        .collect(),
                    chosen: is_chosen,
                });
            }
        }
        if alternatives.iter().any(|a| a.chosen) {
            return Some(Decided { event: index, seat: open.seat, alternatives });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_not_seen_counts_once_however_many_facts_say_it() {
        let unseen = ["unknown"];
        let mut facts = Fact::passed(0, 1, "unknown", 1, "steal").to_vec();
        assert_eq!(unseen_cards(&facts, &unseen), 1, "a steal: lost by one, gained by the other");
        facts.push(Fact::Traded {
            player: 1,
            partner: Partner::Player(2),
            gave: vec![("unknown", 2)],
            got: vec![("a", 1)],
        });
        facts.push(Fact::Traded {
            player: 2,
            partner: Partner::Player(1),
            gave: vec![("a", 1)],
            got: vec![("unknown", 2)],
        });
        assert_eq!(unseen_cards(&facts, &unseen), 3, "a trade between players: said by each side");
        facts.push(Fact::Traded {
            player: 1,
            partner: Partner::Market("bank"),
            gave: vec![("unknown", 4)],
            got: vec![("a", 1)],
        });
        facts.push(Fact::Lost { player: 2, item: "unknown", count: 3, cause: "discard", to: None });
        assert_eq!(unseen_cards(&facts, &unseen), 10, "with the bank, and a discard: said once");
        assert_eq!(unseen_cards(&facts, &["b"]), 0);
    }
}
