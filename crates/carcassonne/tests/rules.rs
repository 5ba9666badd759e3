//! Rules no JCloisterZone fixture covers: the builder's extra turn part (and never a third), figure
//! placement rules, the pig, goods majorities, placement and discards.

use almanac_carcassonne::Carcassonne;
use almanac_core::log::Envelope;
use almanac_core::timeline::{read_events, Timeline};
use almanac_core::{Fact, Game, LogError};
use serde_json::{json, Value};

fn header(options: Value) -> String {
    json!({"format": "almanac/1", "ruleset": "carcassonne", "players": [{"name": "Ana"}, {"name": "Bo"}], "options": options})
        .to_string()
}

fn play(options: Value, lines: &[String]) -> Result<Timeline<Carcassonne>, LogError> {
    let head = header(options);
    let text = std::iter::once(head.clone()).chain(lines.iter().cloned()).collect::<Vec<_>>().join("\n");
    read_events::<Carcassonne>(Envelope::parse(&head)?, &head, &text)
}

fn tile(p: &str, id: &str, x: i32, y: i32, r: u32) -> String {
    json!({"type": "place_tile", "player": p, "tile": id, "at": [x, y], "rotation": r}).to_string()
}

fn figure(p: &str, kind: &str, feature: &str, loc: &str) -> String {
    json!({"type": "place_figure", "player": p, "figure": kind, "feature": feature, "location": loc}).to_string()
}

fn end(p: &str) -> String {
    json!({"type": "end_turn", "player": p}).to_string()
}

fn tb() -> Value {
    json!({"sets": ["basic", "traders-and-builders"], "goods": true, "builder": true, "pig": true})
}

/// Ana builds a road east of the start tile and puts her builder on it in turn 3; Bo plays monasteries.
fn builder_game() -> Vec<String> {
    vec![
        tile("Ana", "BA/RFr", 1, 0, 0),
        figure("Ana", "follower", "road", "WE"),
        end("Ana"),
        tile("Bo", "BA/L", 0, 1, 0),
        end("Bo"),
        tile("Ana", "BA/RFr", 2, 0, 0),
        figure("Ana", "builder", "road", "WE"),
        end("Ana"),
        tile("Bo", "BA/L", 1, 1, 0),
        end("Bo"),
    ]
}

/// The log must be rejected; the message.
fn fails(options: Value, lines: &[String]) -> String {
    match play(options, lines) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

fn state(t: &Timeline<Carcassonne>) -> Value {
    serde_json::to_value(t.view_after(usize::MAX)).unwrap()
}

#[test]
fn extending_a_road_with_ones_builder_gives_one_extra_turn_part_never_two() {
    let mut l = builder_game();
    l.push(tile("Ana", "BA/RFr", 3, 0, 0));
    l.push(end("Ana"));
    let t = play(tb(), &l).unwrap();
    let s = state(&t);
    assert_eq!((s["active"].as_str(), s["turn"].as_u64()), (Some("Ana"), Some(5)), "Ana plays a second part in turn 5");
    // Bo may not play now.
    let mut bad = l.clone();
    bad.push(tile("Bo", "BA/RFr", 4, 0, 0));
    let err = fails(tb(), &bad);
    assert!(err.contains("Bo plays out of turn: it is Ana's turn"), "{err}");
    // The second part extends the road again: no third part.
    l.push(tile("Ana", "BA/RFr", 4, 0, 0));
    l.push(end("Ana"));
    let t = play(tb(), &l).unwrap();
    let s = state(&t);
    assert_eq!((s["active"].as_str(), s["turn"].as_u64()), (Some("Bo"), Some(6)));
    assert_eq!(t.event_turn(t.event_count() - 1), 5, "both parts belong to turn 5");
}

#[test]
fn the_builder_placed_on_this_tile_gives_no_extra_part() {
    let t = play(tb(), &builder_game()).unwrap();
    // After Ana's turn 3 (builder placed then) Bo played turn 4: no extra part happened.
    let turns: Vec<u32> = (0..t.event_count()).map(|i| t.event_turn(i)).collect();
    assert_eq!(turns, [1, 1, 1, 2, 2, 3, 3, 3, 4, 4]);
}

#[test]
fn without_the_builder_option_nothing_extra_happens() {
    let mut l = builder_game();
    l[6] = figure("Ana", "follower", "field", "NL.NR.EL.WR");
    l.push(tile("Ana", "BA/RFr", 3, 0, 0));
    l.push(end("Ana"));
    let t = play(json!({"sets": ["basic"]}), &l).unwrap();
    assert_eq!(state(&t)["active"], "Bo");
}

#[test]
fn figure_rules() {
    let opts = tb();
    let mut l = vec![tile("Ana", "BA/RFr", 1, 0, 0), figure("Ana", "builder", "road", "WE")];
    let err = fails(opts.clone(), &l);
    assert!(err.contains("only where Ana already has a follower"), "{err}");
    l[1] = figure("Ana", "follower", "road", "WE");
    l.push(end("Ana"));
    // A follower placed is a piece built, named by its feature: on a road, a thief.
    let t = play(opts.clone(), &l).unwrap();
    assert_eq!(t.event_facts(1), [Fact::Built { player: 0, piece: "thief" }]);
    // Bo extends Ana's road and may not put a follower into it.
    l.push(tile("Bo", "BA/RFr", 2, 0, 0));
    let mut bad = l.clone();
    bad.push(figure("Bo", "follower", "road", "WE"));
    let err = fails(opts.clone(), &bad);
    assert!(err.contains("where no follower stands; Ana has one there"), "{err}");
    // A pig needs a farmer of its own in the field.
    let mut bad = l.clone();
    bad.push(figure("Bo", "pig", "field", "NL.NR.EL.WR"));
    let err = fails(opts.clone(), &bad);
    assert!(err.contains("pig goes only into a field where Bo already has a farmer"), "{err}");
    // A figure must name a feature of the tile just placed.
    let mut bad = l.clone();
    bad.push(figure("Bo", "follower", "city", "N"));
    let err = fails(opts.clone(), &bad);
    assert!(err.contains("has no city at `N`"), "{err}");
    // One figure per turn part.
    let mut bad = l.clone();
    bad.push(figure("Bo", "follower", "field", "NL.NR.EL.WR"));
    bad.push(figure("Bo", "follower", "field", "ER.SL.SR.WL"));
    let err = fails(opts, &bad);
    assert!(err.contains("already placed a figure"), "{err}");
}

#[test]
fn tiles_must_match_their_neighbours_and_a_playable_tile_is_not_discarded() {
    // North of the start tile is its city edge: a road edge cannot meet it.
    let err = fails(json!({}), &[tile("Ana", "BA/RFr", 0, -1, 0)]);
    assert!(err.contains("does not match"), "{err}");
    let err = fails(json!({}), &[tile("Ana", "BA/RFr", 5, 5, 0)]);
    assert!(err.contains("touches no tile"), "{err}");
    let discard = json!({"type": "discard_tile", "player": "Ana", "tile": "BA/RFr"}).to_string();
    let err = fails(json!({}), &[discard]);
    assert!(err.contains("can be placed"), "{err}");
    // The pack holds one BA/Cccc+.
    let l = vec![tile("Ana", "BA/Cccc+", 0, -1, 0), end("Ana"), tile("Bo", "BA/Cccc+", 0, -2, 0)];
    let err = fails(json!({}), &l);
    assert!(err.contains("no BA/Cccc+ is left"), "{err}");
}

#[test]
fn the_pig_raises_a_field_to_four_per_city_for_its_owner() {
    // Ana farms the field north of the start road (it touches the start city), Bo closes that city,
    // Ana adds her pig to the field.
    let l = vec![
        tile("Ana", "BA/RFr", 1, 0, 0),
        figure("Ana", "follower", "field", "NL.NR.EL.WR"),
        end("Ana"),
        tile("Bo", "BA/C", 0, -1, 180),
        end("Bo"),
        tile("Ana", "BA/RFr", 2, 0, 0),
        figure("Ana", "pig", "field", "NL.NR.EL.WR"),
        end("Ana"),
        json!({"type": "end_game"}).to_string(),
    ];
    let with_pig = play(tb(), &l).unwrap();
    let fields: Vec<i32> = (0..with_pig.event_count())
        .flat_map(|i| with_pig.event_facts(i).to_vec())
        .filter_map(|f| match f {
            Fact::Score { player: 0, reason: "field", delta, .. } => Some(delta),
            _ => None,
        })
        .collect();
    assert_eq!(fields, [4], "one completed city, 4 with the pig");
    let no_pig: Vec<String> = l.iter().filter(|e| !e.contains("pig")).cloned().collect();
    let t = play(tb(), &no_pig).unwrap();
    assert_eq!(state(&t)["players"][0]["vp"], 3, "3 for the field without the pig");
    let s = state(&with_pig);
    assert_eq!(s["players"][0]["followers_left"], 7, "every follower is home after final scoring");
    assert_eq!(s["players"][0]["pigs_out"], 0, "the pig too");
}

#[test]
fn a_save_that_gives_two_pigs_lets_a_player_put_out_a_second_and_no_third() {
    // Ana farms two fields, north and south of her road; with `"pig": 2` (a JCloisterZone setting) each gets
    // a pig; with the rule book's one, the second is refused.
    let mut l = vec![
        tile("Ana", "BA/RFr", 1, 0, 0),
        figure("Ana", "follower", "field", "NL.NR.EL.WR"),
        end("Ana"),
        tile("Bo", "BA/L", 0, 1, 0),
        end("Bo"),
        tile("Ana", "BA/RFr", 2, 0, 0),
        figure("Ana", "pig", "field", "NL.NR.EL.WR"),
        end("Ana"),
        tile("Bo", "BA/L", 1, 1, 0),
        end("Bo"),
        tile("Ana", "BA/RFr", 3, 0, 0),
        figure("Ana", "pig", "field", "NL.NR.EL.WR"),
    ];
    let mut two = tb();
    two["pig"] = json!(2);
    let t = play(two.clone(), &l).unwrap();
    assert_eq!(state(&t)["players"][0]["pigs_out"], 2);
    let err = fails(tb(), &l);
    assert!(err.contains("Ana's pig is already on the board"), "{err}");
    l.extend([end("Ana"), tile("Bo", "BA/L", 2, 1, 0), end("Bo"), tile("Ana", "BA/RFr", 4, 0, 0)]);
    l.push(figure("Ana", "pig", "field", "NL.NR.EL.WR"));
    let err = fails(two, &l);
    assert!(err.contains("Ana's 2 pigs are all on the board already"), "{err}");
}

#[test]
fn goods_go_to_whoever_completes_the_city_and_majorities_score_ten() {
    // Ana extends the start city with a wine tile; Bo closes it (nobody's knight in it): Bo gets the wine,
    // and at the end Bo holds the most wine: +10.
    let l = vec![
        tile("Ana", "TB/Cc.w", 0, -1, 180),
        end("Ana"),
        tile("Bo", "BA/C", 1, -1, 270),
        end("Bo"),
        json!({"type": "end_game"}).to_string(),
    ];
    let t = play(tb(), &l).unwrap();
    let s = state(&t);
    assert_eq!(s["players"][1]["goods"]["wine"], 1);
    assert_eq!(s["players"][1]["vp"], 10);
    assert_eq!(s["players"][0]["vp"], 0);
    assert_eq!(s["winner"], "Bo");
    // Without the goods part, nobody collects anything.
    let t = play(json!({"sets": ["basic", "traders-and-builders"]}), &l).unwrap();
    assert_eq!(state(&t)["players"][1]["vp"], 0);
}

fn final_scores(options: Value, lines: &[String]) -> Vec<i64> {
    let t = play(options, lines).unwrap_or_else(|e| panic!("{e}"));
    state(&t)["players"].as_array().unwrap().iter().map(|p| p["vp"].as_i64().unwrap()).collect()
}

#[test]
fn a_road_closing_on_itself_is_complete() {
    // Four curves south of the start tile make a loop: Ana's road scores 4 when Bo closes it.
    let l = vec![
        tile("Ana", "BA/Rr", 0, 1, 270),
        figure("Ana", "follower", "road", "ES"),
        end("Ana"),
        tile("Bo", "BA/Rr", 1, 1, 0),
        end("Bo"),
        tile("Ana", "BA/Rr", 0, 2, 180),
        end("Ana"),
        tile("Bo", "BA/Rr", 1, 2, 90),
        end("Bo"),
    ];
    assert_eq!(final_scores(json!({}), &l), [4, 0]);
    let t = play(json!({}), &l).unwrap();
    assert_eq!(state(&t)["players"][0]["followers_left"], 7, "the thief came home");
}

#[test]
fn a_field_counts_a_city_once_however_many_tiles_touch_it() {
    // The start city closed by BA/C; Ana's farmer's field reaches that city on two tiles (the start tile
    // and BA/C) through BA/RFr and a monastery: 3 points, not 6.
    let l = vec![
        tile("Ana", "BA/C", 0, -1, 180),
        figure("Ana", "follower", "field", "NL.NR.EL.ER.WL.WR"),
        end("Ana"),
        tile("Bo", "BA/RFr", 1, 0, 0),
        end("Bo"),
        tile("Ana", "BA/L", 1, -1, 0),
        end("Ana"),
        json!({"type": "end_game"}).to_string(),
    ];
    let scores = final_scores(json!({}), &l);
    // Ana: 3 for the field; the monastery (1 + 3 neighbours) and the road have no owner.
    assert_eq!(scores, [3, 0]);
}

#[test]
fn an_inner_field_scores_the_completed_cities_it_touches() {
    // TB/CCc.w north of the start tile: its south city closes the start city (2 tiles); the band W-E
    // stays open. A farmer in the inner field touches both: 3 points, for the completed one only.
    let l = vec![
        tile("Ana", "TB/CCc.w", 0, -1, 0),
        figure("Ana", "follower", "field", "I"),
        end("Ana"),
        json!({"type": "end_game"}).to_string(),
    ];
    assert_eq!(final_scores(json!({"sets": ["basic", "traders-and-builders"]}), &l), [3, 0]);
}
