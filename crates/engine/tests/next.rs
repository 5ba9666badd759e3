//! "What may happen next", held to the games people and programs played: before every event of every
//! record of a game that declares a recorder, the event that came is among the open decisions — its
//! player's, with its type — and when its game lists the type's events, it is among the legal ones, or it
//! fills one of the forms the game gives for its type within their bounds.

use almanac_core::next::lay;
use almanac_core::testing::every_record;
use almanac_core::Game;
use almanac_engine::{read_log, validate, GAMES};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Whether `candidate` (a legal event the rules offer) is `actual`, the record perhaps saying more (a
/// roll's production): every field the candidate names has the actual value.
fn completes(candidate: &Map<String, Value>, actual: &Map<String, Value>) -> bool {
    candidate.iter().all(|(k, v)| actual.get(k) == Some(v))
}

/// Whether what an option set in `partial` may still grow into `actual`: a list its beginning, an object
/// some of its fields, anything else itself.
fn on_the_way(partial: &Map<String, Value>, set: &Map<String, Value>, actual: &Map<String, Value>) -> bool {
    set.keys().all(|k| match (partial.get(k), actual.get(k)) {
        (None, None) => true,
        (Some(Value::Array(a)), Some(Value::Array(b))) => b.starts_with(a),
        (Some(Value::Object(a)), Some(Value::Object(b))) => a.iter().all(|(k, v)| b.get(k) == Some(v)),
        (Some(a), Some(b)) => a == b,
        _ => false,
    })
}

/// Whether `actual` is form `blank` filled in: one option of each pick laid over its line (the first that
/// is on the way to `actual`, an option that sets nothing last), the fields it fixes are then the actual
/// ones, and each counted field holds only the cards it lists, none more than its most, and between its
/// least and most in all.
fn fills(blank: &almanac_core::next::Blank, actual: &Map<String, Value>) -> bool {
    let mut fixed: Map<String, Value> = serde_json::from_str(&blank.line).unwrap();
    for pick in &blank.picks {
        let options: Vec<Map<String, Value>> =
            pick.options.iter().map(|o| serde_json::from_str(&o.set).unwrap()).collect();
        let laid = |set: &Map<String, Value>| {
            let mut next = fixed.clone();
            lay(&mut next, set);
            on_the_way(&next, set, actual).then_some(next)
        };
        let chosen = options
            .iter()
            .filter(|o| !o.is_empty())
            .find_map(laid)
            .or_else(|| options.iter().find(|o| o.is_empty()).map(|_| fixed.clone()));
        match chosen {
            Some(next) => fixed = next,
            None => return false,
        }
    }
    let counted = |k: &str| blank.counts.iter().any(|c| c.field == k);
    let same = fixed.iter().filter(|(k, _)| !counted(k)).all(|(k, v)| actual.get(k) == Some(v))
        && actual.keys().all(|k| fixed.contains_key(k));
    same && blank.counts.iter().all(|count| {
        let Some(Value::Object(cards)) = actual.get(count.field) else { return false };
        let within = cards.iter().all(|(card, n)| {
            count
                .cards
                .iter()
                .any(|m| m.card == *card && n.as_u64().is_some_and(|n| (m.least..=m.most).contains(&(n as u32))))
        });
        // A card the field bounds from below and the event leaves out (a monopoly's 0 for someone known to
        // hold some) does not fill it.
        let floors = count.cards.iter().all(|m| m.least == 0 || cards.contains_key(&m.card));
        let total: u64 = cards.values().filter_map(Value::as_u64).sum();
        within && floors && (count.least as u64..=count.most as u64).contains(&total)
    })
}

/// Whether `line`, the next event of `game`, is among what `game` says may happen next; why not, if not.
fn offered(game: &mut dyn Game, line: &str) -> Result<(), String> {
    let actual: Map<String, Value> = serde_json::from_str(line).unwrap();
    let kind = actual["type"].as_str().unwrap();
    let player = actual.get("player").and_then(Value::as_str);
    let open = game.next();
    let theirs: Vec<_> = open.iter().filter(|o| player.is_none_or(|p| o.player == p)).collect();
    let Some(decision) = theirs.iter().find(|o| o.types.contains(&kind)) else {
        return Err(format!("{kind} by {player:?} is not open: {open:?}"));
    };
    if let Some(choices) = decision.choices.iter().find(|c| c.kind == kind) {
        let lines: Vec<String> = choices.events.iter().map(|c| c.line.clone()).collect();
        let legal = lines.iter().map(|e| serde_json::from_str::<Map<String, Value>>(e).unwrap());
        let listed = legal.clone().any(|c| completes(&c, &actual)) || same_state(game, line, &lines);
        let filled = choices.forms.iter().any(|f| fills(f, &actual));
        if !listed && !filled {
            return Err(format!(
                "{line} is not among the {} legal events ({lines:?}) nor fills a form ({:?})",
                lines.len(),
                choices.forms
            ));
        }
    }
    Ok(())
}

/// Whether one of `candidates` leaves the game as `line` does: the same place spelt another way (a
/// record's `SE` for the rules' `ES`).
fn same_state(game: &mut dyn Game, line: &str, candidates: &[String]) -> bool {
    let n = game.event_count();
    let after = |game: &mut dyn Game, line: &str| {
        let state = game.push_line(n + 2, line).ok().map(|()| game.state_dump());
        game.truncate(n);
        state
    };
    let Some(wanted) = after(game, line) else { return false };
    candidates.iter().any(|c| after(game, c).as_ref() == Some(&wanted))
}

#[test]
fn every_event_of_every_record_was_among_what_could_happen_next() {
    // Each record on a thread of its own: a game's next decisions before every event are many replays.
    let checked: BTreeSet<&'static str> = std::thread::scope(|scope| {
        let handles: Vec<_> = every_record().into_iter().map(|path| scope.spawn(move || check(&path))).collect();
        handles.into_iter().filter_map(|h| h.join().unwrap()).collect()
    });
    let recorders: BTreeSet<&str> = GAMES.iter().filter(|g| g.recorder()).map(|g| g.id()).collect();
    assert!(!recorders.is_empty());
    assert_eq!(checked, recorders);
}

/// One record held to what its game said could happen next; its ruleset, when the game has a recorder.
fn check(path: &std::path::Path) -> Option<&'static str> {
    let text = std::fs::read_to_string(path).unwrap();
    let log = validate(None, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let whole = log.game.as_ref();
    if !almanac_engine::game_kind(whole.ruleset()).unwrap().recorder() {
        assert!(whole.next().is_empty(), "{}: a game without a recorder offers nothing", path.display());
        return None;
    }
    let mut game = read_log(log.header_line()).unwrap();
    for i in 0..whole.event_count() {
        let line = whole.event_text(i);
        offered(game.as_mut(), &line).unwrap_or_else(|why| panic!("{}: before event {}: {why}", path.display(), i + 1));
        // Every event offered reads back and is accepted as a line of the log (then taken back), and ends
        // the game exactly when it says it does; checked every 25 events and before the last.
        if i % 25 == 0 || i + 1 == whole.event_count() {
            let over = game.winner().is_some();
            for open in game.next() {
                for choice in open.choices.iter().flat_map(|c| c.events.iter()) {
                    let place = &choice.line;
                    game.push_line(i + 2, place)
                        .unwrap_or_else(|e| panic!("{}: before event {}: {place} offered: {e}", path.display(), i + 1));
                    let ends = !over && (game.winner().is_some() || game.next().is_empty());
                    assert_eq!(choice.ends, ends, "{}: before event {}: {place} ends the game", path.display(), i + 1);
                    game.truncate(i);
                }
            }
        }
        game.push_line(i + 2, &line).unwrap();
    }
    Some(whole.ruleset())
}
