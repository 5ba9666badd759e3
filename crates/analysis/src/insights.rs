//! What one game gives every metric of the questions across games, per seat (`Insights`, stored beside the
//! game): a fold over the game's facts in their order.
//!
//! The fold is a [`Tally`] that keeps only what the metrics need, so a live game's numbers are extended by
//! the facts of each appended event instead of being read again from the game's first fact: an append
//! costs the same at event 100 and at event 48,000.

use crate::measure;
use crate::questions::{
    seat_partner, CARDS_GIVEN, CARDS_GOT, LOST, LUCK, PLACE, POINTS, PRODUCTION_PER_TURN, SCORE, SCORES_KEPT,
    SCORE_AT_TURN, SECONDS_PER_TURN, STAT, TRADES_PER_TURN, TRADES_WITH, TRADES_WITH_WINNER, TURNS_KEPT,
    TURNS_TO_REACH, TURN_STEP, WON,
};
use almanac_core::facts::{TradeCards, PLAYER_PARTNER};
use almanac_core::{cause, FactKind, FactRow, Insights, Opening, SeatMetric, Vocabulary};
use std::collections::BTreeMap;

/// A gap between two entries longer than this (ten minutes) is a pause at the table, not time taken.
pub const PAUSE_MS: i64 = 10 * 60 * 1000;

/// What one game gives every metric, per seat, from its facts; and each seat's opening (the vocabulary's
/// `Opening`: the items gained at setup in the vocabulary's order, or the first pieces built).
pub fn insights(players: &[String], facts: &[FactRow], vocabulary: &Vocabulary) -> Insights {
    let mut tally = Tally::new(players.len(), *vocabulary);
    tally.add(facts);
    tally.insights()
}

/// A game's facts so far, folded into what its insights are made of. Adding facts in pieces gives the same
/// insights as adding them at once (facts come in the order of their events, turns never decreasing).
#[derive(Debug, Clone)]
pub struct Tally {
    vocabulary: Vocabulary,
    seats: Vec<SeatTally>,
    /// The turn of the latest fact: its row of scores is still open.
    turn: u32,
    /// The last `game_over` fact's winner.
    winner: Option<u32>,
    /// Whether the dice were rolled yet (the opening's pips are the promise before the first roll).
    rolled: bool,
    /// Whether the game says what its dice promise (`promised` facts): luck is measured only then.
    promises: bool,
    /// Whose each turn is (its `turn_started` fact): the time an entry took counts to the turn's player.
    turn_players: BTreeMap<u32, u32>,
    /// When the latest entry with a time was made (milliseconds since 1970).
    last_time: Option<i64>,
}

/// One seat's part of a [`Tally`].
#[derive(Debug, Clone, Default)]
struct SeatTally {
    /// The score so far.
    vp: i64,
    production_total: i64,
    production: BTreeMap<String, i64>,
    setup: BTreeMap<String, i64>,
    trades: i64,
    /// Trades with each other seat (for the trades with the winner, known only at the end).
    trades_with_seat: BTreeMap<u32, i64>,
    /// Per partner: trades, cards given, cards got.
    partners: BTreeMap<String, [i64; 3]>,
    lost: BTreeMap<String, i64>,
    vp_by_reason: BTreeMap<String, i64>,
    /// The game's declared statistics, in its order.
    declared: Vec<i64>,
    /// The score at the end of turns `TURN_STEP`, `2 * TURN_STEP` ... (those closed so far).
    score_at_turn: Vec<i64>,
    /// `reached[k - 1]`: the first closed turn at whose end the score was at least `k`.
    reached: Vec<u32>,
    /// The best score at the end of a closed turn.
    best: i64,
    /// What the dice promise now, in thousandths of a card per roll, and over the rolls so far.
    promise: i64,
    promised: f64,
    /// The promise before the first roll, in thousandths (the opening's pips).
    first_promise: Option<i64>,
    /// The first pieces of the opening's kinds built, as labels.
    first_pieces: Vec<&'static str>,
    /// Time at the table in the seat's own turns after the setup (milliseconds), and in how many turns.
    think_ms: i64,
    think_turns: u32,
    /// The latest turn counted in `think_turns`.
    think_turn: Option<u32>,
}

impl Tally {
    /// The tally of a game of `seats` seats before its first fact.
    pub fn new(seats: usize, vocabulary: Vocabulary) -> Tally {
        let seat = SeatTally { declared: vec![0; vocabulary.player_stats.len()], ..Default::default() };
        Tally {
            vocabulary,
            seats: vec![seat; seats],
            turn: 0,
            winner: None,
            rolled: false,
            promises: false,
            turn_players: BTreeMap::new(),
            last_time: None,
        }
    }

    /// Folds in when the next entries were made: each entry's turn and time (see `almanac_core::moment`),
    /// after their facts (`add`), which say whose each turn is. The time from one entry to the next counts
    /// to the player whose turn the later one is in, after the setup; a gap longer than [`PAUSE_MS`] is a
    /// pause, counted nowhere.
    pub fn add_times(&mut self, entries: &[(u32, Option<i64>)]) {
        for &(turn, time) in entries {
            let Some(t) = time else { continue };
            let gap = self.last_time.map(|p| t - p);
            self.last_time = Some(t);
            let Some(gap) = gap.filter(|&g| (0..=PAUSE_MS).contains(&g)) else { continue };
            let Some(seat) = self.turn_players.get(&turn).filter(|_| turn > 0) else { continue };
            let Some(s) = self.seats.get_mut(*seat as usize) else { continue };
            s.think_ms += gap;
            if s.think_turn != Some(turn) {
                s.think_turn = Some(turn);
                s.think_turns += 1;
            }
        }
    }

    /// Folds in the next facts of the game.
    pub fn add(&mut self, facts: &[FactRow]) {
        for f in facts {
            self.add_one(f);
        }
    }

    fn add_one(&mut self, f: &FactRow) {
        if f.turn > self.turn {
            self.close_turns(f.turn);
        }
        match f.kind {
            FactKind::Rolled => {
                self.rolled = true;
                for s in &mut self.seats {
                    s.promised += s.promise as f64 / 1000.0;
                }
                return;
            }
            FactKind::GameOver => {
                self.winner = f.player;
                return;
            }
            FactKind::Promised => self.promises = true,
            // The turn started is the fact's count (its row's turn is the turn of the event that ended the
            // one before).
            FactKind::TurnStarted => {
                if let (Some(p), Some(turn)) = (f.player, f.count) {
                    self.turn_players.insert(turn as u32, p);
                }
            }
            FactKind::Gained
            | FactKind::Spent
            | FactKind::Lost
            | FactKind::Traded
            | FactKind::Built
            | FactKind::Returned
            | FactKind::CardPlayed
            | FactKind::Score
            | FactKind::Award
            | FactKind::Gauge
            | FactKind::Moment => {}
        }
        let vocabulary = self.vocabulary;
        let rolled = self.rolled;
        let Some(s) = f.player.and_then(|p| self.seats.get_mut(p as usize)) else { return };
        let item = f.item.as_deref().unwrap_or("");
        let n = f.count.unwrap_or(0);
        for (k, stat) in vocabulary.player_stats.iter().enumerate() {
            s.declared[k] += measure(&stat.measure, f);
        }
        match f.kind {
            FactKind::Promised => {
                s.promise = n;
                if !rolled {
                    s.first_promise = f.count;
                }
            }
            FactKind::Gained => match f.cause.as_deref() {
                Some(cause::PRODUCTION) => {
                    *s.production.entry(item.to_string()).or_default() += n;
                    s.production_total += n;
                }
                Some(cause::SETUP) => *s.setup.entry(item.to_string()).or_default() += n,
                _ => {}
            },
            FactKind::Lost => *s.lost.entry(f.cause.as_deref().unwrap_or("").to_string()).or_default() += n,
            FactKind::Score => {
                s.vp = f.total.unwrap_or(s.vp);
                *s.vp_by_reason.entry(item.to_string()).or_default() += n;
            }
            FactKind::Built => {
                if let Opening::FirstPieces { count, pieces } = vocabulary.opening {
                    let asked = pieces.iter().find(|&&p| p == item);
                    if let Some(&piece) = asked.filter(|_| s.first_pieces.len() < count) {
                        let label = vocabulary.pieces.iter().find(|t| t.id == piece).map_or(piece, |t| t.label);
                        s.first_pieces.push(label);
                    }
                }
            }
            FactKind::Traded => {
                s.trades += 1;
                let partner = match (f.item.as_deref(), f.other) {
                    (Some(PLAYER_PARTNER), Some(o)) => {
                        *s.trades_with_seat.entry(o).or_default() += 1;
                        seat_partner(o)
                    }
                    (Some(market), _) => market.to_string(),
                    (None, _) => return,
                };
                let cards = TradeCards::of(f.detail.as_deref()).unwrap_or_default();
                let e = s.partners.entry(partner).or_default();
                e[0] += 1;
                e[1] += cards.gave.total();
                e[2] += cards.got.total();
            }
            FactKind::TurnStarted
            | FactKind::Spent
            | FactKind::Returned
            | FactKind::CardPlayed
            | FactKind::Award
            | FactKind::Gauge
            | FactKind::Moment
            | FactKind::Rolled
            | FactKind::GameOver => {}
        }
    }

    /// What the production dice promised each seat over the game so far, in cards: at every roll, the promise
    /// last said for that seat (`Fact::Promised`). `None` when the game says no promise.
    pub fn promised(&self) -> Option<Vec<f64>> {
        self.promises.then(|| self.seats.iter().map(|s| s.promised).collect())
    }

    /// Closes the turns before `turn`: each ends with the scores as they stand.
    fn close_turns(&mut self, turn: u32) {
        for s in &mut self.seats {
            s.close(self.turn, turn);
        }
        self.turn = turn;
    }

    /// The insights of the game as far as it was added, its latest turn closed as if the game stopped here.
    pub fn insights(&self) -> Insights {
        let vocabulary = &self.vocabulary;
        let mut seats = self.seats.clone();
        for s in &mut seats {
            s.close(self.turn, self.turn + 1);
        }
        let turns = self.turn.max(1) as f64;
        let finals: Vec<i64> = seats.iter().map(|s| s.vp).collect();
        let mut metrics = Vec::new();
        for (seat, s) in seats.iter().enumerate() {
            let mut push = |metric: &'static str, arg: String, value: f64| {
                metrics.push(SeatMetric { seat: seat as u32, metric, arg, value })
            };
            push(SCORE, String::new(), s.vp as f64);
            if let Some(w) = self.winner {
                push(WON, String::new(), (w as usize == seat) as u8 as f64);
                let place = 1 + finals.iter().filter(|&&other| other > s.vp).count();
                push(PLACE, String::new(), place as f64);
                if w as usize != seat {
                    let with_winner = s.trades_with_seat.get(&w).copied().unwrap_or(0);
                    push(TRADES_WITH_WINNER, String::new(), with_winner as f64);
                }
            }
            for (k, score) in s.score_at_turn.iter().enumerate() {
                push(SCORE_AT_TURN, ((k + 1) * TURN_STEP).to_string(), *score as f64);
            }
            for (k, turn) in s.reached.iter().enumerate() {
                push(TURNS_TO_REACH, (k + 1).to_string(), *turn as f64);
            }
            push(PRODUCTION_PER_TURN, String::new(), s.production_total as f64 / turns);
            for (item, n) in &s.production {
                push(PRODUCTION_PER_TURN, item.clone(), *n as f64 / turns);
            }
            push(TRADES_PER_TURN, String::new(), s.trades as f64 / turns);
            if s.think_turns > 0 {
                push(SECONDS_PER_TURN, String::new(), s.think_ms as f64 / 1000.0 / s.think_turns as f64);
            }
            if self.promises {
                push(LUCK, String::new(), s.production_total as f64 - s.promised);
            }
            for cause in vocabulary.causes {
                push(LOST, cause.id.to_string(), *s.lost.get(cause.id).unwrap_or(&0) as f64);
            }
            // Every declared reason, 0 when it scored nothing: a mean is then per game. A reason whose points
            // came and went (an award lost) says nothing about the end.
            for reason in vocabulary.score_reasons {
                push(POINTS, reason.id.to_string(), *s.vp_by_reason.get(reason.id).unwrap_or(&0) as f64);
            }
            for (reason, points) in &s.vp_by_reason {
                if vocabulary.score_reason(reason).is_none() && *points != 0 {
                    push(POINTS, reason.clone(), *points as f64);
                }
            }
            for (stat, value) in vocabulary.player_stats.iter().zip(&s.declared) {
                push(STAT, stat.id.to_string(), *value as f64);
            }
            for (partner, [trades, gave, got]) in &s.partners {
                push(TRADES_WITH, partner.clone(), *trades as f64);
                push(CARDS_GIVEN, partner.clone(), *gave as f64);
                push(CARDS_GOT, partner.clone(), *got as f64);
            }
        }
        let openings = seats.iter().map(|s| self.opening(s)).collect();
        Insights { metrics, openings, chances_model: None, decisions: Vec::new() }
    }

    /// A seat's opening in words (`2 apples + bricks · 10 pips`, `monk + knight`), if it has one.
    fn opening(&self, s: &SeatTally) -> Option<String> {
        let vocabulary = &self.vocabulary;
        match vocabulary.opening {
            Opening::SetupItems => {
                let words: Vec<String> = vocabulary
                    .items
                    .iter()
                    .filter_map(|t| s.setup.get(t.id).filter(|&&n| n > 0).map(|&n| (t.label, n)))
                    .map(|(label, n)| if n == 1 { label.to_string() } else { format!("{n} {label}") })
                    .collect();
                let items = (!words.is_empty()).then(|| words.join(" + "))?;
                // The pips: the rolls out of all the dice can show that pay a card, as the board promised
                // when the dice were first rolled (two settlements on a 6 and an 8 are 5 + 5 = 10 pips).
                let pips = vocabulary.dice.zip(s.first_promise).map(|(dice, thousandths)| {
                    let outcomes = (dice.faces as f64).powi(dice.count as i32);
                    (thousandths as f64 / 1000.0 * outcomes).round() as u32
                });
                Some(match pips {
                    Some(pips) => format!("{items} · {pips} pips"),
                    None => items,
                })
            }
            Opening::FirstPieces { .. } => (!s.first_pieces.is_empty()).then(|| s.first_pieces.join(" + ")),
        }
    }
}

impl SeatTally {
    /// Ends turns `from..to` with the score as it stands.
    fn close(&mut self, from: u32, to: u32) {
        if from >= to {
            return;
        }
        let kept = (TURN_STEP * TURNS_KEPT) as u32;
        // The turns of `from..to` that are a multiple of `TURN_STEP`, to the last kept.
        let step = TURN_STEP as u32;
        let mut t = from.div_ceil(step).max(1) * step;
        while t < to && t <= kept {
            self.score_at_turn.push(self.vp);
            t += step;
        }
        // The scores first reached at the end of turn `from` (the later turns of the range end the same).
        if self.vp > self.best {
            for _ in self.best.min(SCORES_KEPT)..self.vp.min(SCORES_KEPT) {
                self.reached.push(from);
            }
            self.best = self.vp;
        }
    }
}
