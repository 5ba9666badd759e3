//! Promises every game of the registry keeps, checked on every sample and every foreign fixture:
//! its facts use only words its vocabulary declares, and a rejected event of any type changes nothing.

use almanac_core::testing::{every_record, every_sample};
use almanac_core::{Game, Measure};
use almanac_engine::{read_log, validate, GAMES};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn every_fact_uses_words_its_game_declares() {
    let mut games_seen = BTreeSet::new();
    for path in every_record() {
        let text = std::fs::read_to_string(&path).unwrap();
        let log = validate(None, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = log.game.as_ref();
        games_seen.insert(game.ruleset());
        let vocabulary = game.vocabulary();
        for i in 0..game.event_count() {
            for f in game.event_facts(i) {
                let missing = vocabulary.undeclared(f);
                assert!(missing.is_empty(), "{}: event {}: {f:?} uses undeclared {missing:?}", path.display(), i + 1);
            }
        }
    }
    let registered: BTreeSet<&str> = GAMES.iter().map(|g| g.id()).collect();
    assert_eq!(games_seen, registered, "every game has records to check");
}

#[test]
fn declarations_are_whole_and_names_unique() {
    let mut ids = BTreeSet::new();
    let mut formats = BTreeSet::from(["almanac"]);
    for g in GAMES {
        assert!(ids.insert(g.id()), "ruleset id {} twice", g.id());
        for i in g.importers() {
            assert!(formats.insert(i.name), "format {} twice", i.name);
        }
        assert!(g.replay_script().contains(&format!("Almanac.register('{}'", g.id())), "{} draws no replay", g.id());
        let v = g.vocabulary();
        assert!(!v.charts.is_empty(), "{} shows no chart", g.id());
        for stat in v.player_stats {
            let (kind, word, terms) = match stat.measure {
                Measure::Gained(c) | Measure::Lost(c) => ("cause", c, v.causes),
                Measure::Built(p) => ("piece", p, v.pieces),
                Measure::Points(r) => ("score reason", r, v.score_reasons),
                Measure::Trades | Measure::CardsPlayed => continue,
            };
            assert!(
                terms.iter().any(|t| t.id == word),
                "{}: stat {} counts an undeclared {kind} `{word}`",
                g.id(),
                stat.id
            );
        }
    }
}

/// The event types of a ruleset.
fn event_types(ruleset: &str) -> Vec<String> {
    let kind = almanac_engine::game_kind(ruleset).expect("a registered game");
    kind.event_types().iter().map(|t| t.to_string()).collect()
}

/// What a rejected event could have touched: the state, the view, the events and the last one's facts.
fn fingerprint(game: &dyn Game) -> String {
    let view = serde_json::to_string(&game.view_after(usize::MAX)).unwrap();
    let n = game.event_count();
    let last = if n == 0 { Vec::new() } else { game.event_facts(n - 1).to_vec() };
    format!("{}\n{view}\n{n}\n{last:?}", game.state_dump())
}

/// Every event and its facts, for comparing whole games.
fn whole(game: &dyn Game) -> Vec<String> {
    (0..game.event_count()).map(|i| format!("{} {:?}", game.event_text(i), game.event_facts(i))).collect()
}

#[test]
fn a_rejected_event_of_any_type_leaves_the_game_byte_identical() {
    let mut rejected: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in every_sample() {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let ruleset = serde_json::from_str::<Value>(lines[0]).unwrap()["ruleset"].as_str().unwrap().to_string();
        // Lines of every type of the ruleset to offer where they do not belong: the log's own, and for a type
        // the log lacks, its lines retyped (fields an event does not use are ignored).
        let mut by_type: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for line in &lines[1..] {
            let kind = serde_json::from_str::<Value>(line).unwrap()["type"].as_str().unwrap().to_string();
            by_type.entry(kind).or_default().push(line.to_string());
        }
        for kind in event_types(&ruleset) {
            by_type.entry(kind.clone()).or_insert_with(|| {
                lines[1..]
                    .iter()
                    .map(|l| {
                        let mut v: Value = serde_json::from_str(l).unwrap();
                        v["type"] = Value::from(kind.as_str());
                        v.to_string()
                    })
                    .collect()
            });
        }
        let mut game = read_log(lines[0]).unwrap();
        for (i, next) in lines[1..].iter().enumerate() {
            if i % 17 == 0 {
                for (kind, candidates) in &by_type {
                    for wrong in candidates.iter().filter(|l| l.as_str() != *next).take(8) {
                        let before = fingerprint(game.as_ref());
                        match game.push_line(i + 2, wrong) {
                            Err(e) if e.is_malformed() => continue,
                            Err(_) => {
                                let after = fingerprint(game.as_ref());
                                assert!(after == before, "{}: a rejected {kind} changed the game", path.display());
                                rejected.entry(ruleset.clone()).or_default().insert(kind.clone());
                            }
                            // Legal here after all: start this game again from the log.
                            Ok(()) => game = read_log(&lines[..=i].join("\n")).unwrap(),
                        }
                        break;
                    }
                }
            }
            game.push_line(i + 2, next).unwrap_or_else(|e| panic!("{}: after rejections: {e}", path.display()));
        }
        let clean = read_log(&text).unwrap();
        assert_eq!(whole(game.as_ref()), whole(clean.as_ref()), "{}: the rejections left a trace", path.display());
    }
    for g in GAMES {
        let types: BTreeSet<String> = event_types(g.id()).into_iter().collect();
        let seen = rejected.get(g.id()).cloned().unwrap_or_default();
        assert_eq!(seen, types, "{}: event types never rejected in the samples", g.id());
    }
}

#[test]
fn a_game_cut_back_is_the_game_read_that_far_and_grows_again_the_same() {
    for path in every_sample() {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let full = read_log(&text).unwrap();
        let n = full.event_count();
        // Cuts before the first event, at a snapshot, beside one, and before the last event (a game shorter
        // than the first snapshot has no cut there).
        for cut in [0, 1, 63, 64, 65, n / 2, n - 1].into_iter().filter(|&cut| cut < n) {
            let mut game = read_log(&text).unwrap();
            game.truncate(cut);
            let prefix = read_log(&lines[..=cut].join("\n")).unwrap();
            assert_eq!(fingerprint(game.as_ref()), fingerprint(prefix.as_ref()), "{}: cut at {cut}", path.display());
            assert_eq!(whole(game.as_ref()), whole(prefix.as_ref()), "{}: cut at {cut}", path.display());
            // Nothing of the events cut is kept (the states kept after them among it).
            assert_eq!(game.memory_estimate(), prefix.memory_estimate(), "{}: cut at {cut}", path.display());
            for (i, line) in lines.iter().enumerate().skip(cut + 1) {
                game.push_line(i + 1, line).unwrap_or_else(|e| panic!("{}: regrown from {cut}: {e}", path.display()));
            }
            assert_eq!(whole(game.as_ref()), whole(full.as_ref()), "{}: regrown from {cut}", path.display());
            assert_eq!(
                fingerprint(game.as_ref()),
                fingerprint(full.as_ref()),
                "{}: regrown from {cut}",
                path.display()
            );
            // The states kept along the way are the full game's too.
            for k in [n / 3, n / 2 + 1, n - 2] {
                let view = |g: &dyn Game| serde_json::to_string(&g.view_after(k)).unwrap();
                assert_eq!(view(game.as_ref()), view(full.as_ref()), "{}: regrown from {cut}, at {k}", path.display());
            }
        }
    }
}

#[test]
fn every_event_written_reads_back_as_the_same_event_and_writes_the_same_line() {
    for path in every_record() {
        let text = std::fs::read_to_string(&path).unwrap();
        // A foreign record is read through its importer into almanac/1 text first.
        let log = validate(None, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game = log.game.as_ref();
        let written: Vec<String> = (0..game.event_count()).map(|i| game.event_text(i)).collect();
        let again = read_log(
            &[log.header_line().to_string()].into_iter().chain(written.clone()).collect::<Vec<_>>().join("\n"),
        )
        .unwrap_or_else(|e| panic!("{}: a written line does not read back: {e}", path.display()));
        assert_eq!(whole(again.as_ref()), whole(game), "{}: written and read back", path.display());
        let twice: Vec<String> = (0..again.event_count()).map(|i| again.event_text(i)).collect();
        assert_eq!(twice, written, "{}: written twice", path.display());
    }
}

/// A state read from a checkpoint, with the events after it, is the state a full replay gives: at every
/// event of every record, for every game. Each checkpoint is the nearest one a store would keep.
#[test]
fn every_state_from_its_nearest_checkpoint_is_the_replayed_state() {
    // Each record on a thread of its own: a state written out at every event is slow to compare.
    let checked: Vec<(&'static str, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            every_record().into_iter().map(|path| scope.spawn(move || checkpoints_hold(&path))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let seen: BTreeSet<&str> = checked.iter().map(|(ruleset, _)| *ruleset).collect();
    let registered: BTreeSet<&str> = GAMES.iter().map(|g| g.id()).collect();
    assert_eq!(seen, registered, "{checked:?}");
}

/// One record's states from their nearest checkpoints against its replay; its ruleset and how many states.
fn checkpoints_hold(path: &std::path::Path) -> (&'static str, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let log = validate(None, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let game = log.game.as_ref();
    let kind = GAMES.iter().find(|g| g.id() == game.ruleset()).unwrap();
    let lines: Vec<String> = almanac_core::log::lines(&log.text).skip(1).map(|(_, l)| l.to_string()).collect();
    assert_eq!(lines.len(), game.event_count());
    let checkpoints = game.checkpoints(0);
    let kept: Vec<usize> = checkpoints.iter().map(|(n, _)| *n).collect();
    assert_eq!(kept, almanac_core::checkpoint::kept(game.event_count()), "{}", path.display());
    for m in 0..=game.event_count() {
        let nearest = checkpoints.iter().rev().find(|(n, _)| *n <= m).map(|(n, bytes)| (*n, bytes.as_slice()));
        let from = nearest.map_or(0, |c| c.0);
        let resumed = kind
            .state_dump_from(game.header_line(), nearest, &lines[from..m])
            .unwrap_or_else(|e| panic!("{}: after {m} events: {e}", path.display()));
        assert_eq!(resumed, game.state_dump_after(m), "{}: after {m} events, from {from}", path.display());
        if m % 17 == 0 || m == game.event_count() {
            let view = kind.view_from(game.header_line(), nearest, &lines[from..m]).unwrap();
            assert_eq!(serde_json::to_value(&view).unwrap(), serde_json::to_value(game.view_after(m)).unwrap());
        }
    }
    (game.ruleset(), game.event_count() + 1)
}

/// A checkpoint that does not read back is refused in words, never read as another state.
#[test]
fn a_damaged_checkpoint_is_refused() {
    for path in every_record() {
        let text = std::fs::read_to_string(&path).unwrap();
        let log = validate(None, &text).unwrap();
        let game = log.game.as_ref();
        let kind = GAMES.iter().find(|g| g.id() == game.ruleset()).unwrap();
        let Some((n, bytes)) = game.checkpoints(0).into_iter().next() else { continue };
        let short = &bytes[..bytes.len() / 2];
        let err = kind.state_dump_from(game.header_line(), Some((n, short)), &[]).unwrap_err();
        assert!(err.to_string().starts_with("a stored checkpoint does not read back"), "{}: {err}", path.display());
    }
}

/// A checkpoint of one ruleset version reads back for as long as it is stored, so a state whose layout
/// changes must raise its ruleset's `VERSION` (stored checkpoints of the old version are then never read, and
/// `reproject` writes new ones); and a record's content hash names it for as long as it is stored. Every
/// record's checkpoints and content hash are weighed against what `checkpoint_layouts.txt` recorded for its
/// ruleset's version: a restructured game keeps every byte, a new version records its own lines.
#[test]
fn a_checkpoint_layout_changes_only_with_its_ruleset_version() {
    weigh_every_record(include_str!("checkpoint_layouts.txt"), "checkpoints or the content hash", |log| {
        let mut bytes = format!("{}\n", log.content_hash());
        for (n, checkpoint) in log.game.checkpoints(0) {
            bytes.push_str(&format!("{n}:"));
            bytes.extend(checkpoint.iter().map(|b| format!("{b:02x}")));
        }
        bytes
    });
}

/// A win-chance model records the ruleset version its positions were read with, so a position that reads
/// otherwise (a feature added, moved or computed anew) must raise the version too. Every record's positions,
/// each value to the bit, are weighed against what `positions.txt` recorded for its ruleset's version.
#[test]
fn a_position_changes_only_with_its_ruleset_version() {
    weigh_every_record(include_str!("positions.txt"), "positions", |log| {
        let game = log.game.as_ref();
        let mut text: String = game.features().iter().map(|f| format!("{} ", f.id)).collect();
        for p in game.positions() {
            let bits = |v: &f64| format!("{:016x}", v.to_bits());
            text.push_str(&format!("\n{} ", bits(&p.progress)));
            text.extend(p.scores.iter().chain(p.seats.iter().flatten()).map(bits));
        }
        text
    });
}

/// Weighs what `digest` makes of every record against the SHA-256 `recorded` holds for its ruleset, version
/// and path (`ruleset version record sha256` lines): each record of every game weighed, none changed.
fn weigh_every_record(recorded: &str, what: &str, digest: impl Fn(&almanac_engine::ValidatedLog) -> String) {
    let recorded: BTreeMap<(String, u32, String), String> = recorded
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            ((f[0].to_string(), f[1].parse().unwrap(), f[2].to_string()), f[3].to_string())
        })
        .collect();
    let mut problems = Vec::new();
    let mut weighed = BTreeSet::new();
    for path in every_record() {
        let log = validate(None, &std::fs::read_to_string(&path).unwrap()).unwrap();
        let game = log.game.as_ref();
        let weight = almanac_core::hash::sha256_hex(&digest(&log));
        let name = path.strip_prefix(almanac_core::testing::repository()).unwrap_or(&path).display().to_string();
        let key = (game.ruleset().to_string(), game.ruleset_version(), name.clone());
        match recorded.get(&key) {
            Some(want) if *want == weight => {}
            Some(_) => problems.push(format!(
                "{name}: the {what} changed within {} version {}: raise VERSION and record its new lines",
                key.0, key.1
            )),
            None => problems.push(format!("record: {} {} {name} {weight}", key.0, key.1)),
        }
        weighed.insert(game.ruleset());
    }
    assert_eq!(weighed.len(), GAMES.len(), "every game has records weighed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The entries in effect of a game (neither withdrawn nor withdrawals): each one's line, turn and facts.
fn in_effect(game: &dyn Game) -> Vec<String> {
    (0..game.event_count())
        .filter(|&i| game.withdrawal_of(i).is_none() && game.withdrawn_by(i).is_none())
        .map(|i| format!("{} t{} {:?}", game.event_text(i), game.event_turn(i), game.event_facts(i)))
        .collect()
}

/// A withdrawn entry leaves every game as if it had not been made: its final state, view, fingerprint, the
/// entries in effect with their facts, and the state at every event from the nearest checkpoint the store
/// would take (stepping back past a checkpoint a withdrawal reaches behind, as the store does). Checked on
/// every sample with one entry withdrawn, and with two (the last, then the one before it), at the start,
/// across a checkpoint and at the end.
#[test]
fn a_withdrawn_entry_leaves_every_game_as_if_it_had_not_been_made() {
    // Each sample on a thread of its own, as the checkpoints' test does.
    let games: BTreeSet<&'static str> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            every_sample().into_iter().map(|path| scope.spawn(move || withdrawals_hold(&path))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(games, GAMES.iter().map(|g| g.id()).collect::<BTreeSet<_>>());
}

/// One sample's withdrawals against the sample without them; its ruleset.
fn withdrawals_hold(path: &std::path::Path) -> &'static str {
    use almanac_core::withdrawal;
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let clean = read_log(&text).unwrap();
    let n = clean.event_count();
    let kind = GAMES.iter().find(|g| g.id() == clean.ruleset()).unwrap();
    for k in [0, 1, 62, 63, 64, n / 2, n - 2].into_iter().filter(|&k| k + 2 <= n) {
        // `k` events, then extra entries (the next events, which the rules allow there) taken back again.
        let (first, second) = (withdrawal::line(k as u64 + 1), withdrawal::line(k as u64 + 2));
        let once = [lines[1 + k], first.as_str()].map(str::to_string).to_vec();
        let twice = [lines[1 + k], lines[2 + k], second.as_str(), first.as_str()].map(str::to_string).to_vec();
        // Ten entries, then ten withdrawals in a row, newest first, each with the time it was made.
        let ten: Vec<String> = (0..10.min(n - k))
            .map(|j| lines[1 + k + j].to_string())
            .chain((1..=10.min(n - k)).rev().map(|j| withdrawal::line((k + j) as u64)))
            .enumerate()
            .map(|(t, line)| timed(&line, t as i64 * 1000))
            .collect();
        for taken_back in [once, twice, ten] {
            let extra = taken_back.len();
            let log: Vec<&str> = lines[..=k]
                .iter()
                .copied()
                .chain(taken_back.iter().map(String::as_str))
                .chain(lines[1 + k..].iter().copied())
                .collect();
            let game =
                read_log(&log.join("\n")).unwrap_or_else(|e| panic!("{}: withdrawn after {k}: {e}", path.display()));
            let at = format!("{}: {extra} lines withdrawing after event {k}", path.display());
            assert_eq!(game.event_count(), n + extra, "{at}");
            assert_eq!(game.state_dump(), clean.state_dump(), "{at}");
            assert_eq!(game.fingerprint(), clean.fingerprint(), "{at}");
            assert_eq!(in_effect(game.as_ref()), in_effect(clean.as_ref()), "{at}");
            // Right after the withdrawals the game is where it was before the entries taken back.
            assert_eq!(game.state_dump_after(k + extra), clean.state_dump_after(k), "{at}");
            let count = |g: &dyn Game| g.fact_rows(0).len();
            assert_eq!(count(game.as_ref()), count(clean.as_ref()), "{at}");
            // From the store's checkpoints, every state around the withdrawals.
            let body: Vec<String> = log[1..].iter().map(|l| l.to_string()).collect();
            let checkpoints = game.checkpoints(0);
            for m in k.saturating_sub(2)..=(k + extra + 2).min(game.event_count()) {
                let mut before = m;
                let resumed = loop {
                    let nearest = checkpoints.iter().rev().find(|(c, _)| *c <= before).map(|(c, b)| (*c, b.as_slice()));
                    let from = nearest.map_or(0, |c| c.0);
                    match kind.state_dump_from(game.header_line(), nearest, &body[from..m]) {
                        Ok(state) => break state,
                        Err(almanac_core::ResumeError::Withdrawal { seq, .. }) => before = seq - 1,
                        Err(e) => panic!("{at}: resumed at {m}: {e}"),
                    }
                };
                assert_eq!(resumed, game.state_dump_after(m), "{at}: resumed at {m}");
            }
        }
    }
    clean.ruleset()
}

/// `line` with the time it was made: `millis` after 2026-12-03 19:00 UTC.
fn timed(line: &str, millis: i64) -> String {
    let mut fields: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
    let start = almanac_core::moment::parse("2026-12-03T19:00:00Z").unwrap();
    fields.insert("time".into(), almanac_core::moment::write(start + millis).into());
    Value::Object(fields).to_string()
}

/// A time on every entry (`time`, see `almanac_core::moment`) is read, and changes nothing else: the same
/// states, facts and fingerprint as the log without times; a time that does not read is refused with its
/// line.
#[test]
fn the_time_an_entry_was_made_is_kept_and_changes_nothing_else() {
    for path in every_sample() {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let clean = read_log(&text).unwrap();
        let timed: Vec<String> = std::iter::once(lines[0].to_string())
            .chain(lines[1..].iter().enumerate().map(|(i, l)| timed(l, i as i64 * 1500)))
            .collect();
        let game = read_log(&timed.join("\n")).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(game.state_dump(), clean.state_dump(), "{}", path.display());
        assert_eq!(game.fingerprint(), clean.fingerprint(), "{}", path.display());
        assert_eq!(whole(game.as_ref()), whole(clean.as_ref()), "{}", path.display());
        let start = almanac_core::moment::parse("2026-12-03T19:00:00Z").unwrap();
        for i in 0..game.event_count() {
            assert_eq!(game.event_time(i), Some(start + i as i64 * 1500), "{}", path.display());
            assert_eq!(clean.event_time(i), None);
        }
        let mut wrong = timed.clone();
        wrong[3] = wrong[3].replace("2026-12-03T", "2026-12-03 ");
        let err = read_log(&wrong.join("\n")).map(|_| ()).expect_err("a time that does not read");
        assert!(err.to_string().starts_with("line 4: ") && err.to_string().contains("RFC 3339"), "{err}");
    }
}

/// What was played, from scratch: the fingerprint of the game's events' facts, written in one pass.
fn print_from_scratch(game: &dyn Game) -> String {
    let mut print = almanac_core::fingerprint::Print::new(game.ruleset(), game.envelope());
    for i in 0..game.event_count() {
        print.add(game.event_facts(i));
    }
    print.finish()
}

/// A game's fingerprint is carried on as it grows (a live append at any length costs the same): asked after
/// every event, after a cut back and after a withdrawal, it is the fingerprint written from scratch.
#[test]
fn a_fingerprint_carried_on_as_a_game_grows_is_the_one_written_whole() {
    use almanac_core::withdrawal;
    for path in every_record().into_iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let Ok(whole) = read_log(&text) else { continue };
        let mut game = read_log(lines[0]).unwrap();
        for (i, line) in lines.iter().enumerate().skip(1) {
            game.push_line(i + 1, line).unwrap();
            let asked = game.fingerprint();
            if i % 97 == 0 || i + 1 == lines.len() {
                assert_eq!(asked, print_from_scratch(game.as_ref()), "{}: after {i} events", path.display());
            }
        }
        assert_eq!(game.fingerprint(), whole.fingerprint(), "{}", path.display());
        assert_eq!(whole.fingerprint(), print_from_scratch(whole.as_ref()), "{}", path.display());
        // Cut back, then grown again by other entries: an entry and its withdrawal.
        let n = game.event_count();
        let cut = n / 2;
        game.truncate(cut);
        assert_eq!(game.fingerprint(), print_from_scratch(game.as_ref()), "{}: cut at {cut}", path.display());
        game.push_line(cut + 2, lines[cut + 1]).unwrap();
        game.fingerprint();
        let back = withdrawal::line(cut as u64 + 1);
        if game.push_line(cut + 3, &back).is_ok() {
            assert_eq!(game.fingerprint(), print_from_scratch(game.as_ref()), "{}: withdrawn", path.display());
        }
        for (i, line) in lines.iter().enumerate().skip(cut + 1) {
            game.push_line(i + 3, line).unwrap();
        }
        assert_eq!(game.fingerprint(), print_from_scratch(game.as_ref()), "{}: regrown", path.display());
    }
}

/// The loop `almanac bench` times for the analysis's search: every line of a game applied again, with nothing
/// parsed, is accepted again; a position follows each line; a game with a recorder lists moves there, and
/// trying each on a copy of the state changes neither the count nor the game.
#[test]
fn the_search_loop_applies_every_line_again_and_lists_the_moves() {
    for path in every_sample() {
        let log = validate(None, &std::fs::read_to_string(&path).unwrap()).unwrap();
        let game = log.game.as_ref();
        assert_eq!(game.apply_again(), game.event_count(), "{}", path.display());
        let (positions, moves) = game.list_moves_again(false);
        assert_eq!(positions, game.event_count() + 1, "{}", path.display());
        let recorder = GAMES.iter().any(|g| g.id() == game.ruleset() && g.recorder());
        assert_eq!(moves > 0, recorder, "{}: {moves} moves listed", path.display());
        let before = whole(game);
        assert_eq!(game.list_moves_again(true), (positions, moves), "{}", path.display());
        assert_eq!(whole(game), before, "{}", path.display());
    }
}
