//! A game's numbers for the questions across games, checked on every sample and every foreign record: the
//! fold that extends them event by event (a live game's appends) gives what reading the whole game gives,
//! and both agree with the game's statistics as its replay page reads them.

use almanac_analysis::insights::{insights, Tally};
use almanac_analysis::questions::{
    PRODUCTION_PER_TURN, SCORE, SCORES_KEPT, SCORE_AT_TURN, TRADES_PER_TURN, TURNS_KEPT, TURNS_TO_REACH, TURN_STEP,
};
use almanac_analysis::{game_stats, GameStats};
use almanac_core::testing::every_record;
use almanac_core::{Game, Insights};
use std::path::Path;

fn games() -> Vec<(String, Box<dyn Game>)> {
    let games: Vec<_> = every_record()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let game = almanac_engine::validate(None, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.display().to_string(), game.game)
        })
        .collect();
    assert!(games.len() >= 10, "the records are there: {}", games.len());
    games
}

fn names(game: &dyn Game) -> Vec<String> {
    game.envelope().players.iter().map(|p| p.name.clone()).collect()
}

fn value(i: &Insights, seat: u32, metric: &str, arg: &str) -> Option<f64> {
    i.metrics.iter().find(|m| m.seat == seat && m.metric == metric && m.arg == arg).map(|m| m.value)
}

#[test]
fn numbers_extended_event_by_event_are_the_numbers_of_the_whole_game() {
    for (path, game) in games() {
        let n = game.event_count();
        let mut tally = Tally::new(names(game.as_ref()).len(), *game.vocabulary());
        let checked = [n / 3, n / 2, n];
        for i in 0..n {
            tally.add(
                game.event_facts(i)
                    .iter()
                    .map(|f| f.row(i as u64 + 1, game.event_turn(i)))
                    .collect::<Vec<_>>()
                    .as_slice(),
            );
            if checked.contains(&(i + 1)) {
                // The game as if it stopped after event i: its fact rows read whole.
                let rows: Vec<_> = game.fact_rows(0).into_iter().filter(|r| r.seq <= i as u64 + 1).collect();
                let whole = insights(&names(game.as_ref()), &rows, game.vocabulary());
                assert_eq!(tally.insights(), whole, "{path}: after {} of {n} events", i + 1);
            }
        }
    }
}

#[test]
fn a_games_numbers_are_its_statistics() {
    for (path, game) in games() {
        let names = names(game.as_ref());
        let rows = game.fact_rows(0);
        let i = insights(&names, &rows, game.vocabulary());
        let stats: GameStats = game_stats(&names, &rows, game.vocabulary());
        let turns = stats.turns.max(1) as f64;
        for (seat, p) in stats.players.iter().enumerate() {
            let seat_no = seat as u32;
            let at = |metric: &str, arg: &str| value(&i, seat_no, metric, arg);
            assert_eq!(at(SCORE, ""), Some(p.vp_by_turn.last().unwrap()[1] as f64), "{path} seat {seat}");
            assert_eq!(at(PRODUCTION_PER_TURN, ""), Some(p.production_total as f64 / turns), "{path} seat {seat}");
            for (item, n) in &p.production {
                assert_eq!(at(PRODUCTION_PER_TURN, item), Some(*n as f64 / turns), "{path} seat {seat} {item}");
            }
            assert_eq!(at(TRADES_PER_TURN, ""), Some(p.trades.count as f64 / turns), "{path} seat {seat}");
            for k in 1..=TURNS_KEPT {
                let turn = k * TURN_STEP;
                let expected = p.vp_by_turn.get(turn).map(|v| v[1] as f64);
                assert_eq!(at(SCORE_AT_TURN, &turn.to_string()), expected, "{path} seat {seat} turn {turn}");
            }
            for score in 1..=SCORES_KEPT {
                let first = p.vp_by_turn.iter().find(|v| v[1] >= score).map(|v| v[0] as f64);
                assert_eq!(at(TURNS_TO_REACH, &score.to_string()), first, "{path} seat {seat} score {score}");
            }
        }
    }
}

/// The stores to check on: a real SQLite file, and the PostgreSQL of `make test` when one is given.
/// With the scratch PostgreSQL database, which lives as long as what is returned.
fn stores(dir: &Path, name: &str) -> (Vec<almanac_store::Store>, Option<almanac_store::testing::ScratchDatabase>) {
    let mut stores = vec![almanac_store::Store::open(&dir.join(format!("{name}.db"))).unwrap()];
    let mut scratch = None;
    if std::env::var_os("ALMANAC_TEST_PG").is_some() {
        let db = almanac_store::testing::scratch_postgres();
        stores.push(almanac_store::Store::open(&db.path()).unwrap());
        scratch = Some(db);
    }
    (stores, scratch)
}

/// Each seat's numbers and openings beside the field's, as the player pages read them, a line each. The
/// field's sums move by each append's changes, so they are compared to 9 digits.
fn read_model(store: &almanac_store::Store, club: almanac_store::ClubId, game: &dyn Game) -> Vec<String> {
    let viewer = almanac_store::Viewer::Club(club);
    let mut lines = Vec::new();
    for name in names(game) {
        let id = store.player_named(Some(club), &name).unwrap().unwrap();
        let player = store.visible_player(viewer, id).unwrap();
        let profile = store.player_profile(&player, &[], almanac_analysis::questions::WON).unwrap();
        for n in profile.numbers {
            let field = n.field.map(|f| format!("{f:.9}"));
            lines.push(format!(
                "{name} {} {} {}: {:.9} of {}, field {field:?}",
                n.ruleset, n.metric, n.arg, n.mean, n.seats
            ));
        }
        lines.extend(profile.openings.iter().map(|o| format!("{name} opening {o:?}")));
    }
    lines
}

#[test]
fn a_game_appended_to_holds_the_numbers_of_the_game_stored_whole() {
    use almanac_service::{append, check, create_club, publish, store_log, LiveGame, ServiceError};
    let dir = std::env::temp_dir().join(format!("almanac-appended-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let samples = almanac_core::testing::files_in("data/samples");
    let ((whole, _whole_db), (appended, _appended_db)) = (stores(&dir, "whole"), stores(&dir, "appended"));
    let pairs = whole.into_iter().zip(appended);
    for (mut whole, mut appended) in pairs {
        let (a, b) = (create_club(&mut whole, "a").unwrap(), create_club(&mut appended, "a").unwrap());
        // Every ruleset with a model, so that the chance numbers are in the read model too (the append that
        // ends a game brings them).
        for store in [&mut whole, &mut appended] {
            for kind in almanac_service::GAMES {
                store.save_model(&made_up_model(*kind)).unwrap();
            }
        }
        for path in &samples {
            let text = std::fs::read_to_string(path).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let full = check(None, &text).unwrap();
            let id = store_log(&mut whole, &full, almanac_store::Ownership::private_to(a.id)).unwrap();
            publish(&mut whole, a.id, id.id(), true).unwrap();
            // A third stored, published, then the rest appended seven events at a time.
            let third = (lines.len() - 1) / 3;
            let prefix = check(None, &lines[..=third].join("\n")).unwrap();
            let id = store_log(&mut appended, &prefix, almanac_store::Ownership::private_to(b.id)).unwrap();
            let id = publish(&mut appended, b.id, id.id(), true).unwrap();
            let mut live = Some(LiveGame::new(prefix.game));
            let mut seq = third;
            while seq + 1 < lines.len() {
                let next: Vec<String> =
                    lines[seq + 1..lines.len().min(seq + 8)].iter().map(|l| l.to_string()).collect();
                if seq == third {
                    // Refused whole: a good event with a line no game takes; and a writer who is behind.
                    let refused = [next[0].clone(), "{\"type\":\"no_such_event\"}".to_string()];
                    let e = append(&mut appended, b.id, &id, seq as u64, &refused, &mut live).unwrap_err();
                    assert!(matches!(e, ServiceError::Rejected(_)), "{}: {e}", path.display());
                    let e = append(&mut appended, b.id, &id, seq as u64 - 1, &next, &mut live).unwrap_err();
                    assert!(e.to_string().contains("expected"), "{}: {e}", path.display());
                }
                let stored = append(&mut appended, b.id, &id, seq as u64, &next, &mut live).unwrap();
                seq += next.len();
                assert_eq!(stored, seq as u64, "{}", path.display());
            }
            let game = live.as_ref().unwrap().game();
            assert_eq!(whole_text(game), whole_text(full.game.as_ref()), "{}: the game in memory", path.display());
            let (got, expected) = (read_model(&appended, b.id, game), read_model(&whole, a.id, full.game.as_ref()));
            if game.winner().is_some() {
                assert!(
                    expected.iter().any(|l| l.contains(" chance_gained ")),
                    "{}: no chance numbers",
                    path.display()
                );
            }
            let differ: Vec<_> = got.iter().zip(&expected).filter(|(g, e)| g != e).take(5).collect();
            let at = format!("{} on {}", path.display(), appended.backend_name());
            assert!(differ.is_empty(), "{at}: {differ:#?}");
            assert_eq!(got.len(), expected.len(), "{at}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A model of `kind` that weighs every feature alike, kept as `train` keeps one, as if held-out games of
/// every population at every table size had shown it knowing more than equal chances from the start.
fn made_up_model(kind: &dyn almanac_core::GameKind) -> almanac_store::WinModel {
    use almanac_analysis::chances::{Model, TrainedOn, Validated, MODEL_VERSION};
    let f = kind.features().len();
    let populations = ["people", "people and programs", "programs", "catanatron", "JSettlers2", "JCloisterZone"];
    let validated = populations
        .iter()
        .flat_map(|p| (1..=6).flat_map(move |seats| (0..3).map(move |third| (p, seats, third))))
        .map(|(p, seats, third)| Validated {
            played_by: p.to_string(),
            seats,
            third,
            games: 20,
            gain: 0.2,
            low: 0.1,
            high: 0.3,
        })
        .collect();
    let model = Model {
        version: MODEL_VERSION,
        ruleset: kind.id().to_string(),
        ruleset_version: kind.version(),
        features: kind.features().iter().map(|x| x.id.to_string()).collect(),
        mean: vec![0.0; f],
        scale: vec![10.0; f],
        weights: (0..2 * f).map(|k| 0.05 * (k % 3) as f64).collect(),
        covariance: Vec::new(),
        trained_on: TrainedOn {
            games: 20,
            positions: 400,
            played_by: Default::default(),
            validated,
            temperature: 1.0,
            sharpened: Vec::new(),
        },
        sharpness: [1.0, 1.0],
        set_up: None,
    };
    almanac_store::WinModel {
        id: 0,
        ruleset: kind.id().to_string(),
        version: MODEL_VERSION,
        games: 20,
        positions: 400,
        trained_at: String::new(),
        body: serde_json::to_string(&model).unwrap(),
    }
}

fn whole_text(game: &dyn Game) -> Vec<String> {
    (0..game.event_count()).map(|i| format!("{} {:?}", game.event_text(i), game.event_facts(i))).collect()
}

/// Seconds per own turn at the table, where the entries say when they were made: the club sample with an
/// entry every 2 s (and every 3 s in Mehmet's turns), one pause of 20 minutes; checked against the log read
/// by hand (a turn is its player's from its first entry, the setup not counted, the pause counted nowhere).
#[test]
fn the_time_at_the_table_is_each_players_seconds_per_own_turn() {
    use almanac_analysis::questions::SECONDS_PER_TURN;
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-club-game.jsonl"))
            .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let plain = almanac_engine::validate(None, &text).unwrap().game;
    let start = almanac_core::moment::parse("2026-12-03T19:00:00Z").unwrap();
    // The turn of each entry, its player (the first entry's player of that turn) and the gap before it.
    let mut owner = std::collections::BTreeMap::new();
    let mut at = start;
    let mut gaps = Vec::new();
    let mut timed = vec![lines[0].to_string()];
    for (i, line) in lines[1..].iter().enumerate() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let turn = plain.event_turn(i);
        let player = event["player"].as_str().unwrap_or("").to_string();
        let first = owner.entry(turn).or_insert_with(|| player.clone()).clone();
        let gap = if i == 100 {
            20 * 60_000
        } else if first == "Mehmet" {
            3_000
        } else {
            2_000
        };
        if i > 0 {
            at += gap;
            gaps.push((turn, first, gap));
        }
        let mut fields = event.as_object().unwrap().clone();
        fields.insert("time".into(), almanac_core::moment::write(at).into());
        timed.push(serde_json::Value::Object(fields).to_string());
    }
    let mut expected: std::collections::BTreeMap<String, (i64, std::collections::BTreeSet<u32>)> = Default::default();
    for (turn, player, gap) in gaps {
        if turn == 0 || gap > 10 * 60_000 {
            continue;
        }
        let e = expected.entry(player).or_default();
        e.0 += gap;
        e.1.insert(turn);
    }
    let game = almanac_engine::validate(None, &timed.join("\n")).unwrap().game;
    let whole = almanac_service::insights_of(game.as_ref());
    let seat_of = |name: &str| names(game.as_ref()).iter().position(|n| n == name).unwrap() as u32;
    assert_eq!(expected.len(), 4);
    for (name, (ms, turns)) in &expected {
        let got = value(&whole, seat_of(name), SECONDS_PER_TURN, "");
        assert_eq!(got, Some(*ms as f64 / 1000.0 / turns.len() as f64), "{name}");
    }
    // Mehmet's entries took 3 s, the others' 2 s: his turns took longer.
    let of = |name: &str| value(&whole, seat_of(name), SECONDS_PER_TURN, "").unwrap();
    assert!(of("Mehmet") > of("Ayşe") && of("Mehmet") > of("Can"), "{} {} {}", of("Mehmet"), of("Ayşe"), of("Can"));
    // A game without times says nothing about time.
    let untimed = almanac_service::insights_of(plain.as_ref());
    assert!(untimed.metrics.iter().all(|m| m.metric != SECONDS_PER_TURN));
}
