//! catanatron is the oracle: every game it recorded must replay to its own final VP, hands, awards, winner
//! and production.

use almanac_catan::import::catanatron::{read, to_almanac};
use almanac_catan::resources::Resource;
use almanac_catan::Catan;
use almanac_core::Seated;
use almanac_core::{cause, read_events, Envelope, Fact, Game, Timeline};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn resource(name: &str) -> Resource {
    match name {
        "WOOD" => Resource::Lumber,
        "BRICK" => Resource::Brick,
        "SHEEP" => Resource::Wool,
        "WHEAT" => Resource::Grain,
        "ORE" => Resource::Ore,
        _ => panic!("resource {name}"),
    }
}

/// Translates and replays a dump.
fn replay(text: &str) -> Result<Timeline<Catan>, String> {
    let log = to_almanac(text).map_err(|e| e.to_string())?;
    let header_line = log.lines().next().unwrap();
    let envelope = Envelope::parse(header_line).map_err(|e| e.to_string())?;
    read_events::<Catan>(envelope, header_line, &log).map_err(|e| e.to_string())
}

/// Checks one catanatron dump against its own `final` and `summary`; returns a description of the mismatches.
pub fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).unwrap();
    let dump: Value = serde_json::from_str(&text).unwrap();
    let game = replay(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let s = game.last();
    let mut problems = Vec::new();
    let fin = &dump["final"];
    // catanatron names seats by colour; Almanac by the program that played them (the colours in seat order).
    let colour_of = |p: u8| dump["game"]["seating"][p as usize].as_str().unwrap().to_string();
    let name_of = |seat: Option<u8>| seat.map(|p| Value::from(colour_of(p)));
    for p in s.seats() {
        let colour = colour_of(p);
        let theirs = &fin["players"][&colour];
        let (vp, public) = (s.vp(p) as i64, s.vp_public(p) as i64);
        if Some(vp) != theirs["vp_actual"].as_i64() || Some(public) != theirs["vp_public"].as_i64() {
            problems.push(format!(
                "{colour}: vp {vp}/{public} but catanatron {}/{}",
                theirs["vp_actual"], theirs["vp_public"]
            ));
        }
        let hand = s.players[p as usize].hand;
        for (r, n) in theirs["hand"].as_object().unwrap() {
            let ours = hand.known[resource(r)] as u64;
            if hand.unknown > 0 || Some(ours) != n.as_u64() {
                problems.push(format!("{colour}: hand {r} {ours} but catanatron {n}"));
            }
        }
    }
    for (award, holder) in [("longest_road", s.longest_road), ("largest_army", s.largest_army)] {
        if name_of(holder).unwrap_or(Value::Null) != fin[award] {
            problems.push(format!("{award}: {holder:?} but catanatron {}", fin[award]));
        }
    }
    if name_of(s.winner).unwrap_or(Value::Null) != fin["winner"] {
        problems.push(format!("winner: {:?} but catanatron {}", s.winner, fin["winner"]));
    }
    // Production by resource, from facts only.
    let mut ours: BTreeMap<(String, String), u64> = BTreeMap::new();
    for i in 0..game.event_count() {
        for f in game.event_facts(i) {
            if let Fact::Gained { player, item, count, cause: cause::PRODUCTION, .. } = f {
                *ours.entry((colour_of(*player), item.to_string())).or_default() += *count as u64;
            }
        }
    }
    let mut theirs: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (colour, by_res) in dump["summary"]["production_from_rolls"].as_object().unwrap() {
        for (r, n) in by_res.as_object().unwrap() {
            if n.as_u64().unwrap() > 0 {
                theirs.insert((colour.clone(), resource(r).name().to_string()), n.as_u64().unwrap());
            }
        }
    }
    if ours != theirs {
        problems.push(format!("production differs: ours {ours:?}, catanatron {theirs:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {}", path.display(), problems.join("; ")))
    }
}

/// The committed games, plus every `.json` under the directories in `$CATANATRON_GAMES` (colon-separated),
/// so a freshly generated corpus can be checked the same way.
fn fixtures() -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron")];
    if let Ok(extra) = std::env::var("CATANATRON_GAMES") {
        dirs.extend(extra.split(':').filter(|d| !d.is_empty()).map(PathBuf::from));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".meta.json") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_catanatron_game_replays_to_catanatrons_result() {
    let files = fixtures();
    assert!(files.len() >= 4, "expected the catanatron fixtures in tests/data/catanatron");
    let failures: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    assert!(failures.is_empty(), "{} of {} games differ:\n{}", failures.len(), files.len(), failures.join("\n"));
}

/// Reading a record straight into its game (`read`: what `almanac validate`, an import and an upload do) gives
/// the text `to_almanac` writes and the game that reading that text gives: the same events at the same lines,
/// the same facts, checkpoints and final state.
#[test]
fn a_record_read_straight_into_its_game_is_its_text_read() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        let imported = read(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(imported.text, to_almanac(&text).unwrap(), "{}", path.display());
        let (typed, from_text) = (imported.game, replay(&text).unwrap());
        assert_eq!(typed.event_count(), from_text.event_count(), "{}", path.display());
        for i in 0..typed.event_count() {
            assert_eq!(typed.event_line_no(i), from_text.event_line_no(i), "{}: event {i}", path.display());
        }
        assert_eq!(typed.fact_rows(0), from_text.fact_rows(0), "{}", path.display());
        assert_eq!(typed.checkpoints(0), from_text.checkpoints(0), "{}", path.display());
        assert_eq!(typed.state_dump(), from_text.state_dump(), "{}", path.display());
    }
}

/// A record whose translation breaks a rule is refused by `read` as reading its text refuses it: the same
/// line of the almanac/1 text, the same reason.
#[test]
fn a_record_read_straight_into_its_game_is_refused_as_its_text_is() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron/catanatron-1.json");
    let mut dump: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // A roll that claims more than the dice produced.
    let roll = dump["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["type"] == "ROLL" && e["resource_deltas"].as_object().is_some_and(|d| !d.is_empty()))
        .expect("a roll that produced");
    let deltas = dump["events"][roll]["resource_deltas"].as_object_mut().unwrap();
    let (_, gains) = deltas.iter_mut().next().unwrap();
    let (_, n) = gains.as_object_mut().unwrap().iter_mut().next().unwrap();
    *n = Value::from(n.as_i64().unwrap() + 1);
    let text = dump.to_string();
    let typed = match read(&text) {
        Err(almanac_core::ReadError::Log(e)) => e,
        Err(other) => panic!("not a rule's refusal: {other:?}"),
        Ok(_) => panic!("a roll that produced one card too many was accepted"),
    };
    let Err(from_text) = replay(&text) else { panic!("reading the text accepted the roll") };
    assert_eq!(typed.to_string(), from_text);
    assert_eq!(typed.line(), roll + 2, "{typed}");
}

#[test]
fn a_broken_dump_names_the_event_it_cannot_read() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron/catanatron-1.json");
    let mut dump: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    dump["events"][5]["type"] = Value::from("TELEPORT");
    let err = to_almanac(&dump.to_string()).unwrap_err();
    assert!(err.reason.contains("catanatron event seq 5 (TELEPORT): action TELEPORT is not supported"), "{err}");
    match read(&dump.to_string()) {
        Err(almanac_core::ReadError::Format(e)) => assert_eq!(e, err),
        Err(other) => panic!("not the record's refusal: {other:?}"),
        Ok(_) => panic!("an unknown action was read"),
    }
    let err = to_almanac("{\"schema\": \"catanatron-dump/1\", \"game\": 3}").unwrap_err();
    assert!(err.reason.starts_with("catanatron dump: invalid type"), "{err}");
}

/// catanatron's newest version discards one card at a time (`DISCARD_RESOURCE`, one card in `discarded`):
/// the same games written that way replay to the same result.
#[test]
fn a_discard_written_one_card_at_a_time_replays_to_the_same_result() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron");
    let out = std::env::temp_dir().join(format!("almanac-discards-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut split = 0;
    for name in ["catanatron-1.json", "catanatron-2.json", "catanatron-3.json", "catanatron-4.json"] {
        let mut dump: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let mut events = Vec::new();
        for e in dump["events"].as_array().unwrap() {
            let cards = e["result"]["discarded"].as_array().filter(|c| e["type"] == "DISCARD" && c.len() > 1);
            let Some(cards) = cards else {
                events.push(e.clone());
                continue;
            };
            split += 1;
            for card in cards {
                let mut one = e.clone();
                one["type"] = Value::from("DISCARD_RESOURCE");
                one["result"]["discarded"] = Value::from(vec![card.clone()]);
                events.push(one);
            }
        }
        dump["events"] = Value::from(events);
        let path = out.join(name);
        std::fs::write(&path, dump.to_string()).unwrap();
        check(&path).unwrap();
    }
    std::fs::remove_dir_all(&out).unwrap();
    assert!(split > 0, "the fixtures hold no discard of several cards to split");
}

/// A seat is the program that played it, not its colour (catanatron draws colours anew each game): the
/// record's bot names, the second seat of one program at a table numbered; a seat without a bot name keeps its
/// colour. And what makes a record's numbers unlike the rulebook game's is in its edition: the map, the target,
/// the discard limit.
#[test]
fn seats_are_named_by_their_programs_and_the_edition_names_map_target_and_discards() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron");
    let read = |name: &str| std::fs::read_to_string(data.join(name)).unwrap();
    let names = |game: &Timeline<Catan>| -> Vec<String> {
        let s = game.last();
        s.seats().map(|p| s.name(p).to_string()).collect()
    };
    // catanatron-1 seats BLUE (WeightedRandomPlayer), WHITE (VictoryPointPlayer), RED and ORANGE (RandomPlayer).
    let one = replay(&read("catanatron-1.json")).unwrap();
    assert_eq!(names(&one), ["WeightedRandomPlayer", "VictoryPointPlayer", "RandomPlayer", "RandomPlayer #2"]);
    assert_eq!(one.last().name(one.last().winner.unwrap()), "VictoryPointPlayer", "WHITE won");
    let mut dump: Value = serde_json::from_str(&read("catanatron-1.json")).unwrap();
    dump["game"]["players"][0]["bot"] = Value::Null;
    let unnamed = replay(&dump.to_string()).unwrap();
    assert_eq!(names(&unnamed), ["BLUE", "VictoryPointPlayer", "RandomPlayer", "RandomPlayer #2"]);
    for (file, edition) in [
        ("catanatron-1.json", "Catan"),
        ("mini-catanatron-800.json", "Catan, a map of 7 hexes"),
        ("vp6-catanatron-500.json", "Catan, 6 VP"),
        ("vp13-catanatron-600.json", "Catan, 13 VP"),
        ("discard9-catanatron-700.json", "Catan, discard above 9 cards"),
    ] {
        assert_eq!(replay(&read(file)).unwrap().edition(), edition, "{file}");
    }
}
