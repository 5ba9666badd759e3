//! A decision judged as the plan it starts: each of a player's own decisions, and every alternative the
//! rules allowed then, valued by the best position the player could reach before their turn passes.
//!
//! The rest of the turn is searched with the rules themselves: the seat's own moves the game lists
//! (`Ruleset::candidates`, every event a recorder offers whole), each applied to a copy of the state; a
//! draw (the dice, a card bought, a card stolen) is one move whose outcomes count by their probabilities
//! (`Ruleset::outcomes`), never a choice. After a decision that invests (worth less at once than the
//! position it left: a trade, a card played) every move of the seat is read as it stands, and the `BEAM`
//! best of them are searched on `FULL_WIDTH` moves deep; then, and after any other decision at once, the
//! turn is finished greedily (the move whose position is
//! worth most, again and again), so that a trade that pays for a build, or a card and the roads it gives,
//! is worth what the build is worth. What a throw of the dice leads to is read as it stands (the turn
//! after the roll is a plan of its own), so that a knight played before the roll and the roll are valued
//! at the same moment; so is a position where the turn has passed, or where another seat must decide (a
//! discard); a move that wins is worth a win (1), one that makes another seat the winner 0.
//!
//! A trade's partner decides too (`Ruleset::consented_by`): accepting is worth what the partner holds where
//! the mover's plan with the trade ends, declining where the mover's best plan without it ends. No move is
//! tried whose worth turns on what its player could not see (`Ruleset::could_judge`).
//!
//! What a position is worth is the caller's (the analysis layer's win chances): this file names no game and
//! no model. The search reads the state the record holds; a game whose state knows hidden cards lists
//! moves that use them only where its rules say a player could know them.

use crate::decisions::{Plan, Weighed, Worth};
use crate::kind::{EventOf, Ruleset};
use crate::position::{Position, Positioned};
use crate::{Fact, Seat};

/// How many of the seat's moves after a decision that invests (worth less at once than the position it
/// left) are searched at full width before the turn is finished greedily.
pub const FULL_WIDTH: usize = 1;

/// How many of the moves at full width, the best as they stand, are searched on: what an investment pays
/// for (the build a trade affords) is worth most at once, so the few best hold it. Every move searched on
/// made a hand of many cards (dozens of moves, each finished greedily) cost seconds a decision.
pub const BEAM: usize = 4;

/// How many greedy moves finish a turn at most (a turn rarely holds more than a few builds and trades).
pub const GREEDY_STEPS: usize = 3;

/// A move of the seat: the decision's line and, per outcome, its probability and the state it leads to.
struct Move<R: Ruleset> {
    event: EventOf<R>,
    outcomes: Vec<(f64, R::State)>,
    /// Whether it throws the dice (its facts say it rolled): the search reads what a throw leads to as it
    /// stands, so that a card played before the roll and the roll itself are valued at the same moment.
    rolled: bool,
}

/// The seat's moves open in `state` (of the open decisions of `seat`), one per decision: the events the
/// game lists whole, legal by the rules, with a draw's outcomes together. `filter` keeps only some of the
/// listed events (what chance dealt the player, at the root).
fn moves<R: Ruleset>(state: &R::State, seat: Seat, filter: &dyn Fn(&EventOf<R>) -> bool) -> Vec<Move<R>> {
    let mut facts: Vec<Fact> = Vec::new();
    let mut out: Vec<Move<R>> = Vec::new();
    let mut seen: Vec<EventOf<R>> = Vec::new();
    for open in R::open(state).into_iter().filter(|o| o.seat == seat) {
        for kind in open.types {
            for e in R::listed(state, seat, kind).into_iter().filter(|e| filter(e) && R::could_judge(state, e)) {
                let outcomes = R::outcomes(state, &e);
                let Some((first, _)) = outcomes.first() else { continue };
                if seen.contains(first) {
                    continue;
                }
                seen.push(first.clone());
                if let Some(m) = reached::<R>(state, first.clone(), &outcomes, &mut facts) {
                    out.push(m);
                }
            }
        }
    }
    out
}

/// The move of `event` whose outcomes are `outcomes`: each applied to a copy of `state`, their
/// probabilities made to sum to 1 over those the rules accept; none when the rules accept none.
fn reached<R: Ruleset>(
    state: &R::State,
    event: EventOf<R>,
    outcomes: &[(EventOf<R>, f64)],
    facts: &mut Vec<Fact>,
) -> Option<Move<R>> {
    let mut after = Vec::with_capacity(outcomes.len());
    let mut rolled = false;
    for (o, p) in outcomes {
        facts.clear();
        let mut next = state.clone();
        if R::apply(&mut next, o, facts).is_ok() {
            rolled |= facts.iter().any(|f| matches!(f, Fact::Rolled { .. }));
            after.push((*p, next));
        }
    }
    let total: f64 = after.iter().map(|(p, _)| p).sum();
    if after.is_empty() {
        return None;
    }
    // A draw whose every outcome weighed nothing (the face-down line alone): as one certain outcome.
    if total <= 0.0 {
        after.truncate(1);
        after[0].0 = 1.0;
    } else {
        after.iter_mut().for_each(|(p, _)| *p /= total);
    }
    Some(Move { event, outcomes: after, rolled })
}

/// The search of one seat's turn.
struct Search<'a, R: Ruleset> {
    seat: Seat,
    /// A second seat whose worth is read along the seat's own plans (a trade's partner, whose accepting
    /// is judged by the turn the seat then plays); the seat itself when there is none.
    reader: Seat,
    turn: u32,
    worth: Worth<'a>,
    _rules: std::marker::PhantomData<R>,
}

/// A value for the seat (`mine`, what its plans are chosen by), for the reader (`theirs`), and the
/// position they stand on.
#[derive(Debug, Clone)]
struct Valued {
    mine: f64,
    theirs: f64,
    at: Option<Position>,
}

impl<R: Ruleset> Search<'_, R> {
    /// The position as it stands, for the seat and the reader: 1 or 0 where the game is over.
    fn leaf(&self, state: &R::State) -> Valued {
        let at = state.position();
        if let Some(w) = R::winner(state) {
            let won = |s: Seat| f64::from(u8::from(w == s));
            return Valued { mine: won(self.seat), theirs: won(self.reader), at };
        }
        match &at {
            Some(p) => {
                let mine = (self.worth)(p, self.seat);
                let theirs = if self.reader == self.seat { mine } else { (self.worth)(p, self.reader) };
                Valued { mine, theirs, at }
            }
            None => Valued { mine: 0.0, theirs: 0.0, at },
        }
    }

    /// Whether the seat's turn goes on in `state`: the game not over, the same turn.
    fn goes_on(&self, state: &R::State) -> bool {
        R::winner(state).is_none() && R::turn(state) == self.turn
    }

    /// The best the seat can reach from `state` before its turn passes, searching `depth` moves at full
    /// width and the rest greedily.
    fn value(&self, state: &R::State, depth: usize) -> Valued {
        if !self.goes_on(state) {
            return self.leaf(state);
        }
        let moves = moves::<R>(state, self.seat, &|_| true);
        if moves.is_empty() {
            return self.leaf(state);
        }
        if depth == 0 {
            return self.greedy(state, moves, GREEDY_STEPS);
        }
        // Each move as it stands; the best `BEAM` of them searched on (a throw of the dice is read as it stands).
        let mut standing: Vec<(f64, &Move<R>)> =
            moves.iter().map(|m| (self.expect(m, |s| self.leaf(s)).mine, m)).collect();
        standing.sort_by(|a, b| b.0.total_cmp(&a.0));
        let first = Valued { mine: f64::MIN, theirs: 0.0, at: None };
        standing
            .iter()
            .take(BEAM)
            .map(|(_, m)| self.expect(m, |s| if m.rolled { self.leaf(s) } else { self.value(s, depth - 1) }))
            .fold(first, |best, v| if v.mine > best.mine { v } else { best })
    }

    /// The turn finished greedily from `state`: the move whose positions are worth most, then again, `steps`
    /// times at most.
    fn greedy(&self, state: &R::State, open: Vec<Move<R>>, steps: usize) -> Valued {
        let best = open
            .into_iter()
            .map(|m| {
                let v = self.expect(&m, |s| self.leaf(s));
                (v, m)
            })
            .fold(None, |best: Option<(Valued, Move<R>)>, (v, m)| match best {
                Some(b) if b.0.mine >= v.mine => Some(b),
                _ => Some((v, m)),
            });
        let Some((valued, m)) = best else { return self.leaf(state) };
        if steps <= 1 || m.rolled {
            return valued;
        }
        self.expect(&m, |s| {
            if !self.goes_on(s) {
                return self.leaf(s);
            }
            let next = moves::<R>(s, self.seat, &|_| true);
            if next.is_empty() {
                self.leaf(s)
            } else {
                self.greedy(s, next, steps - 1)
            }
        })
    }

    /// A move's value: the expectation over its outcomes of `value`, standing on its likeliest outcome's.
    fn expect(&self, m: &Move<R>, value: impl Fn(&R::State) -> Valued) -> Valued {
        let mut sum = Valued { mine: 0.0, theirs: 0.0, at: None };
        let mut likeliest = f64::MIN;
        for (p, s) in &m.outcomes {
            let v = value(s);
            sum.mine += p * v.mine;
            sum.theirs += p * v.theirs;
            if *p > likeliest {
                likeliest = *p;
                sum.at = v.at;
            }
        }
        sum
    }
}

/// `event`, made in `state` (event `index` of its game), and every alternative the rules allowed its seat
/// then, each valued with `worth` as the best turn it begins; none when the event is no choice of a seat
/// (the seat had nothing else it could do, or the event is not among the moves the game lists and could not
/// be applied). Where the event took another seat's consent (`Ruleset::consented_by`), that seat's decision
/// follows: accepting (the turn the event begins) against declining (the turn the mover would have played
/// best without it), each worth what the consenting seat holds at its end.
pub fn weigh<R: Ruleset>(state: &R::State, event: &EventOf<R>, index: usize, worth: Worth) -> Vec<Weighed> {
    let chosen = R::choice(event);
    let chosen_outcomes = R::outcomes(state, &chosen);
    let chosen_first = chosen_outcomes.first().map(|(e, _)| e.clone()).unwrap_or_else(|| chosen.clone());
    let Some((seat, alternatives, chosen_at)) = alternatives_of::<R>(state, &chosen, &chosen_first, &chosen_outcomes)
    else {
        return Vec::new();
    };
    if alternatives.len() < 2 {
        return Vec::new();
    }
    let partner = R::consented_by(state, &chosen).filter(|&p| p != seat);
    let search = Search::<R> {
        seat,
        reader: partner.unwrap_or(seat),
        turn: R::turn(state),
        worth,
        _rules: std::marker::PhantomData,
    };
    let now = search.leaf(state).mine;
    let valued: Vec<Valued> = alternatives
        .iter()
        .map(|m| {
            // A move worth less at once than the position it left (a trade, a card played, a road towards
            // a corner) is worth only what it leads to: the moves after it are searched at full width. A
            // move worth its keep at once is finished greedily.
            let invests = search.expect(m, |s| search.leaf(s)).mine < now;
            let depth = if invests { FULL_WIDTH } else { 0 };
            search.expect(m, |s| if m.rolled { search.leaf(s) } else { search.value(s, depth) })
        })
        .collect();
    let plans = alternatives
        .iter()
        .zip(&valued)
        .enumerate()
        .map(|(k, (m, v))| Plan {
            line: R::write_event(state, &m.event),
            words: if m.outcomes.len() > 1 { R::undrawn_words(state, &m.event) } else { R::describe(state, &m.event) },
            worth: v.mine,
            chosen: k == chosen_at,
            reached: v.at.clone(),
        })
        .collect();
    let mut out = vec![Weighed { event: index, seat, alternatives: plans }];
    if let Some(partner) = partner {
        // Declining leaves the mover to play the best turn open without the event (the first of equals).
        let declined = valued
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != chosen_at)
            .fold(None, |best: Option<&Valued>, (_, v)| match best {
                Some(b) if b.mine >= v.mine => Some(b),
                _ => Some(v),
            })
            .cloned();
        if let Some(declined) = declined {
            let accepted = &valued[chosen_at];
            let plan = |words: &str, v: &Valued, chosen: bool, line: String| Plan {
                line,
                words: words.to_string(),
                worth: v.theirs,
                chosen,
                reached: v.at.clone(),
            };
            out.push(Weighed {
                event: index,
                seat: partner,
                alternatives: vec![
                    plan("accepts the trade", accepted, true, R::write_event(state, &chosen)),
                    plan("declines the trade", &declined, false, String::new()),
                ],
            });
        }
    }
    out
}

/// The seat whose decision `chosen` was, the moves the rules listed for it then (those open given what
/// chance dealt it) and which of them was chosen. A choice the game does not list whole (a trade's cards,
/// several cards to the bank at once) belongs to the seat whose open decision takes its type, the active
/// seat first, and joins the listed moves as it was made.
#[allow(clippy::type_complexity)]
fn alternatives_of<R: Ruleset>(
    state: &R::State,
    chosen: &EventOf<R>,
    chosen_first: &EventOf<R>,
    chosen_outcomes: &[(EventOf<R>, f64)],
) -> Option<(Seat, Vec<Move<R>>, usize)> {
    let open = R::open(state);
    for o in &open {
        let listed = moves::<R>(state, o.seat, &|e| R::dealt_alike(chosen, e));
        if let Some(k) = listed.iter().position(|m| m.event == *chosen_first) {
            return Some((o.seat, listed, k));
        }
    }
    let line = R::write_event(state, chosen);
    let kind = serde_json::from_str::<serde_json::Value>(&line).ok()?.get("type")?.as_str()?.to_string();
    let takes = |o: &&crate::next::Decision| o.types.iter().any(|t| *t == kind);
    let active = R::active(state);
    let o = open.iter().filter(takes).find(|o| o.seat == active).or_else(|| open.iter().find(takes))?;
    let mut listed = moves::<R>(state, o.seat, &|e| R::dealt_alike(chosen, e));
    listed.push(reached::<R>(state, chosen_first.clone(), chosen_outcomes, &mut Vec::new())?);
    let k = listed.len() - 1;
    Some((o.seat, listed, k))
}
