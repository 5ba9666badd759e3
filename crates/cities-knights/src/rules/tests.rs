//! The rule source's worked examples, with its numbers, on states built by hand (the beginner board of the
//! base game: hex 9 is the desert, hex 4 hills 6 to its north-west, hex 5 pasture 4 to its north-east).

use crate::progress::{HeldCard, Progress, Track};
use crate::state::{Knight, Phase, State};
use almanac_catan::board::{Board, BoardSpec, VertexId};
use almanac_catan::pieces::Building;
use almanac_core::Seated;
use almanac_core::{Fact, Seat};
use serde_json::{json, Value};

pub fn state(names: &[&str]) -> State {
    let spec: BoardSpec = serde_json::from_str(include_str!("../../../catan/tests/beginner-board.json")).unwrap();
    let seating = almanac_core::Table::named(names);
    let mut s = State::new(Board::from_spec(&spec).unwrap(), seating).unwrap();
    s.phase = Phase::Main;
    s.turn = 5;
    s
}

pub fn v(s: &State, name: &str) -> VertexId {
    s.board.vertex(name).unwrap()
}

pub fn road(s: &mut State, p: Seat, edge: &str) {
    let e = s.board.edge(edge).unwrap();
    s.roads[e as usize] = Some(p);
    s.players[p as usize].roads += 1;
}

pub fn settlement(s: &mut State, p: Seat, at: &str) {
    let at = v(s, at);
    s.buildings[at as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].settlements += 1;
}

pub fn city(s: &mut State, p: Seat, at: &str) {
    let at = v(s, at);
    s.buildings[at as usize] = Some(Building { owner: p, city: true });
    s.players[p as usize].cities += 1;
}

/// A knight that has been active since an earlier turn.
pub fn knight(s: &mut State, p: Seat, at: &str, level: u8, active: bool) {
    let at = v(s, at);
    s.knights[at as usize] = Some(Knight { owner: p, level, active, activated: 0, promoted: 0 });
}

pub fn give(s: &mut State, p: Seat, cards: Value) {
    let map = serde_json::from_value(cards).unwrap();
    let b = crate::cards::bundle(&map).unwrap();
    s.players[p as usize].hand.known.add(&b.known);
    for (c, n) in b.known.present() {
        s.bank[c] -= n;
    }
}

pub fn hold(s: &mut State, p: Seat, card: Progress) {
    s.players[p as usize].progress.cards.push(HeldCard { track: card.track(), card: Some(card) });
    s.decks[card.track() as usize] -= 1;
}

/// A line applied, or refused with words that say why (the shared rule-test steps).
pub fn act(s: &mut State, line: Value) -> Result<Vec<Fact>, String> {
    almanac_core::testing::act::<crate::CitiesKnights>(s, &line.to_string())
}

pub fn refused(s: &mut State, line: Value, words: &str) {
    almanac_core::testing::refused::<crate::CitiesKnights>(s, &line.to_string(), words)
}

fn length(s: &State, p: Seat) -> u8 {
    s.players[p as usize].road_length
}

// --- Knights: placement ("Opstilling af riddere"), blocking and cutting roads ---

#[test]
fn a_knight_stands_by_its_owners_road_and_blocks_the_opponent_there() {
    let mut s = state(&["Red", "Blue", "White"]);
    road(&mut s, 0, "9:NW"); // Red: 9:NW - 9:N
    road(&mut s, 1, "9:NE"); // Blue: 9:N - 9:NE
    give(&mut s, 0, json!({"wool": 2, "ore": 2}));
    give(&mut s, 1, json!({"lumber": 2, "brick": 2}));
    refused(&mut s, json!({"type": "build_knight", "player": "Red", "at": "10:N"}), "none of Red's roads touches");
    let facts = act(&mut s, json!({"type": "build_knight", "player": "Red", "at": "9:N"})).unwrap();
    assert!(facts.contains(&Fact::Built { player: 0, piece: "knight" }));
    let k = s.knight(v(&s, "9:N")).unwrap();
    assert_eq!((k.level, k.active), (1, false), "a new knight is basic and passive");
    assert_eq!(s.players[0].hand.total(), 2, "1 wool + 1 ore");
    // Blue's road ends at 9:N, where Red's knight now stands: only Red builds on from there.
    s.active = 1;
    refused(&mut s, json!({"type": "build_road", "player": "Blue", "at": "4:E"}), "does not connect");
    act(&mut s, json!({"type": "build_road", "player": "Blue", "at": "9:E"})).unwrap();
    s.active = 0;
    give(&mut s, 0, json!({"lumber": 1, "brick": 1}));
    act(&mut s, json!({"type": "build_road", "player": "Red", "at": "4:E"})).unwrap();
}

#[test]
fn a_knight_on_an_opponents_road_cuts_it_for_the_longest_road() {
    let mut s = state(&["Red", "Blue", "White"]);
    for side in ["9:NE", "9:E", "9:SE", "9:SW", "9:W"] {
        road(&mut s, 1, side); // Blue: 9:N around to 9:NW, five roads in a line
    }
    road(&mut s, 0, "14:W"); // Red reaches 9:S, in the middle of Blue's line
    let mut facts = Vec::new();
    crate::rules::points::update_longest_road(&mut s, &mut facts);
    assert_eq!((s.longest_road, length(&s, 1)), (Some(1), 5));
    give(&mut s, 0, json!({"wool": 1, "ore": 1}));
    let facts = act(&mut s, json!({"type": "build_knight", "player": "Red", "at": "9:S"})).unwrap();
    assert_eq!(length(&s, 1), 3, "cut into 3 and 2");
    assert_eq!(s.longest_road, None);
    assert!(facts.contains(&Fact::Award { award: "longest_road", from: Some(1), to: None }));
}

// --- Knights: moving along one's own roads only ("Placering") ---

#[test]
fn a_knight_moves_only_along_its_owners_connected_roads() {
    let mut s = state(&["Red", "Blue", "White"]);
    road(&mut s, 0, "9:NE");
    road(&mut s, 0, "9:E");
    road(&mut s, 0, "14:W"); // Red's, but not connected to the others
    knight(&mut s, 0, "9:N", 1, true);
    refused(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:S"}), "cannot reach");
    refused(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "4:N"}), "cannot reach");
    act(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:SE"})).unwrap();
    let k = s.knight(v(&s, "9:SE")).unwrap();
    assert!(!k.active, "a knight that moved turns passive");
    assert!(s.knight(v(&s, "9:N")).is_none());
    refused(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:SE", "to": "9:NE"}), "not active");
}

#[test]
fn a_knight_activated_this_turn_waits_for_the_next_to_act() {
    let mut s = state(&["Red", "Blue", "White"]);
    road(&mut s, 0, "9:NE");
    knight(&mut s, 0, "9:N", 1, false);
    give(&mut s, 0, json!({"grain": 1}));
    act(&mut s, json!({"type": "activate_knight", "player": "Red", "at": "9:N"})).unwrap();
    assert!(s.knight(v(&s, "9:N")).unwrap().active);
    refused(
        &mut s,
        json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE"}),
        "activated this turn",
    );
    s.turn += 3;
    act(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE"})).unwrap();
}

// --- Knights: displacement ("Placering og fordrivelse") ---

fn displacement_board() -> State {
    let mut s = state(&["Red", "Blue", "White"]);
    road(&mut s, 0, "9:NE"); // Red: 9:N - 9:NE
    road(&mut s, 0, "9:E"); // Red: 9:NE - 9:SE
    road(&mut s, 1, "10:NW"); // Blue: 9:NE - 10:N
    road(&mut s, 1, "10:NE"); // Blue: 10:N - 10:NE
    knight(&mut s, 0, "9:N", 2, true); // Red's strong knight
    knight(&mut s, 1, "9:NE", 1, true); // Blue's basic knight, on both players' roads
    s
}

#[test]
fn a_displaced_knight_goes_to_a_free_intersection_of_its_owners_roads() {
    let mut s = displacement_board();
    let red_move = |to: Option<&str>| {
        let mut line = json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE"});
        if let Some(to) = to {
            line["displaced_to"] = json!(to);
        }
        line
    };
    // A and B are Blue's (10:N and 10:NE); C (9:SE) is on Red's road only.
    refused(&mut s, red_move(Some("9:SE")), "cannot go to");
    refused(&mut s, red_move(None), "must place the displaced knight");
    act(&mut s, red_move(Some("10:NE"))).unwrap();
    let blue = s.knight(v(&s, "10:NE")).unwrap();
    assert_eq!((blue.owner, blue.level, blue.active), (1, 1, true), "the displaced knight keeps its state");
    let red = s.knight(v(&s, "9:NE")).unwrap();
    assert_eq!((red.owner, red.active), (0, false), "the attacker turns passive");
}

#[test]
fn only_a_weaker_opponents_knight_is_displaced_and_with_nowhere_to_go_it_leaves() {
    let mut s = displacement_board();
    let at = v(&s, "9:N");
    s.knights[at as usize].as_mut().unwrap().level = 1;
    refused(
        &mut s,
        json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE", "displaced_to": "10:N"}),
        "only a weaker knight",
    );
    let mut s = displacement_board();
    knight(&mut s, 2, "10:N", 1, false);
    knight(&mut s, 2, "10:NE", 1, false);
    act(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE"})).unwrap();
    assert_eq!(s.knights.iter().flatten().filter(|k| k.owner == 1).count(), 0, "Blue's knight left the board");
    let mut s = displacement_board();
    knight(&mut s, 0, "10:N", 1, true);
    let at = v(&s, "9:NE");
    s.knights[at as usize] = None;
    knight(&mut s, 0, "9:NE", 1, true);
    refused(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:N", "to": "9:NE"}), "their own knight");
}

// --- Knights: chasing the robber ("Fordrivelse af tyven") ---

#[test]
fn chasing_the_robber_move_reactivate_and_chase_next_turn() {
    let mut s = state(&["Red", "Blue", "White"]);
    s.attacks = 1;
    s.robber = 4; // hills 6, north-west of the desert
    road(&mut s, 0, "9:NE");
    road(&mut s, 0, "9:E");
    knight(&mut s, 0, "9:SE", 1, true);
    give(&mut s, 0, json!({"grain": 1}));
    refused(&mut s, json!({"type": "chase_robber", "player": "Red", "knight": "9:SE"}), "out of reach");
    // 1) move to a corner of the robber's hex, turning passive;
    act(&mut s, json!({"type": "move_knight", "player": "Red", "from": "9:SE", "to": "9:N"})).unwrap();
    refused(&mut s, json!({"type": "chase_robber", "player": "Red", "knight": "9:N"}), "not active");
    // 2) pay 1 grain to activate it again;
    act(&mut s, json!({"type": "activate_knight", "player": "Red", "at": "9:N"})).unwrap();
    refused(&mut s, json!({"type": "chase_robber", "player": "Red", "knight": "9:N"}), "activated this turn");
    // 3) chase the robber, in the next turn: back to the desert.
    s.turn += 3;
    act(&mut s, json!({"type": "chase_robber", "player": "Red", "knight": "9:N"})).unwrap();
    assert_eq!(s.robber, 9, "the chased robber goes back to the desert");
    assert!(!s.knight(v(&s, "9:N")).unwrap().active);
}

#[test]
fn a_chased_robber_goes_to_the_desert_even_when_the_header_started_it_elsewhere() {
    // "Den fordrevne tyv placeres som ved spillets start i ørkenen": in the desert, not where a header put it.
    let mut s = state(&["Red", "Blue", "White"]);
    std::sync::Arc::make_mut(&mut s.board).robber_start = 4;
    s.attacks = 1;
    s.robber = 4;
    knight(&mut s, 0, "9:N", 1, true);
    s.turn += 3;
    act(&mut s, json!({"type": "chase_robber", "player": "Red", "knight": "9:N"})).unwrap();
    assert_eq!(s.robber, 9, "the desert");
}

#[test]
fn moving_the_robber_before_the_first_attack_says_it_stays_in_the_desert() {
    let mut s = state(&["Red", "Blue", "White"]);
    s.attacks = 0;
    refused(
        &mut s,
        json!({"type": "move_robber", "player": "Red", "hex": 4}),
        "stays in the desert until the barbarians",
    );
}

// --- Progress cards: who draws (white 6, red 3, a yellow gate) ---

#[test]
fn a_yellow_gate_with_red_3_gives_a_yellow_card_to_trade_level_2_and_up() {
    let mut s = state(&["A", "B", "C", "D"]);
    s.phase = Phase::BeforeRoll;
    s.players[1].levels = [2, 1, 0]; // B: trade 2 (market, trading house), politics 1 (town hall)
    s.players[2].levels = [1, 0, 0]; // C: trade 1 shows the red 1-2 only
    s.players[3].levels = [0, 3, 2]; // D: no trade improvement at all
    let roll = |drawn: Value| json!({"type": "roll", "player": "A", "event": "trade", "dice": [3, 6], "drawn": drawn});
    refused(&mut s, roll(json!([])), "B draws a yellow progress card");
    refused(&mut s, roll(json!([{"player": "C", "card": "unknown", "colour": "trade"}])), "goes to B");
    refused(&mut s, roll(json!([{"player": "B", "card": "spy"}])), "goes to B (yellow), not to B (blue)");
    act(&mut s, roll(json!([{"player": "B", "card": "merchant"}]))).unwrap();
    assert_eq!(s.players[1].progress.cards, vec![HeldCard { track: Track::Trade, card: Some(Progress::Merchant) }]);
    assert_eq!(s.decks, [17, 18, 18]);
    assert_eq!(s.phase, Phase::Main);
}

#[test]
fn gate_draws_go_clockwise_from_the_roller() {
    let mut s = state(&["A", "B", "C", "D"]);
    s.phase = Phase::BeforeRoll;
    s.active = 2;
    for p in 0..4 {
        s.players[p].levels = [0, 0, 1];
    }
    let drawn = |order: [&str; 4]| {
        json!({"type": "roll", "player": "C", "event": "science", "dice": [1, 5],
               "drawn": order.iter().map(|p| json!({"player": p, "card": "unknown", "colour": "science"})).collect::<Vec<_>>()})
    };
    refused(&mut s, drawn(["A", "B", "C", "D"]), "goes to C");
    act(&mut s, drawn(["C", "D", "A", "B"])).unwrap();
    assert_eq!(s.decks[Track::Science as usize], 14);
}

// --- Metropolises: the first to level 4; lost only to a level 5 reached first ("Catans Råd") ---

#[test]
fn a_level_5_reached_first_takes_the_metropolis_for_good() {
    let mut s = state(&["A", "B", "C"]);
    city(&mut s, 0, "0:N");
    city(&mut s, 0, "2:N");
    city(&mut s, 1, "16:S");
    s.players[0].levels = [0, 3, 0];
    s.players[1].levels = [0, 3, 0];
    give(&mut s, 0, json!({"coin": 4}));
    refused(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics"}), "say on which city");
    let facts =
        act(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics", "metropolis": "2:N"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Politics), Some(0), "A builds the cathedral first");
    assert!(facts.contains(&Fact::Award { award: "metropolis_politics", from: None, to: Some(0) }));
    assert_eq!(s.vp(0), 6, "two cities and the metropolis");
    s.active = 1;
    give(&mut s, 1, json!({"coin": 9}));
    act(&mut s, json!({"type": "improve_city", "player": "B", "track": "politics"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Politics), Some(0), "a level 4 reached second takes nothing");
    let facts = act(&mut s, json!({"type": "improve_city", "player": "B", "track": "politics"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Politics), Some(1), "B builds the High Assembly (Catans Råd) first");
    assert!(facts.contains(&Fact::Award { award: "metropolis_politics", from: Some(0), to: Some(1) }));
    assert_eq!((s.vp(0), s.vp(1)), (4, 4));
    assert_eq!(s.players[1].hand.total(), 0, "4 + 5 coins");
    s.active = 0;
    give(&mut s, 0, json!({"coin": 5}));
    refused(
        &mut s,
        json!({"type": "improve_city", "player": "A", "track": "politics", "metropolis": "2:N"}),
        "no metropolis",
    );
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Politics), Some(1), "safe at level 5");
}

#[test]
fn with_its_one_city_under_a_metropolis_a_player_waits_for_another_city_to_reach_level_4() {
    let mut s = state(&["A", "B", "C"]);
    city(&mut s, 0, "0:N");
    s.players[0].levels = [3, 3, 0];
    give(&mut s, 0, json!({"cloth": 4, "coin": 4}));
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "trade"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Trade), Some(0));
    refused(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics"}), "build another city first");
    settlement(&mut s, 0, "2:N");
    give(&mut s, 0, json!({"grain": 2, "ore": 3}));
    act(&mut s, json!({"type": "build_city", "player": "A", "at": "2:N"})).unwrap();
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics"})).unwrap();
    assert_eq!(s.metropolis_holder(Track::Politics), Some(0));
    assert_eq!(s.vp(0), 8);
}

#[test]
fn an_improvement_costs_its_level_in_its_commodity_and_needs_a_city() {
    let mut s = state(&["A", "B", "C"]);
    settlement(&mut s, 0, "0:N");
    give(&mut s, 0, json!({"paper": 3}));
    refused(&mut s, json!({"type": "improve_city", "player": "A", "track": "science"}), "has no city");
    city(&mut s, 0, "2:N");
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "science"})).unwrap();
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "science"})).unwrap();
    assert_eq!(s.players[0].hand.total(), 0, "1 + 2 paper");
    refused(&mut s, json!({"type": "improve_city", "player": "A", "track": "science"}), "cannot pay");
    refused(&mut s, json!({"type": "improve_city", "player": "A", "track": "trade"}), "cannot pay");
}

// --- The barbarians: Hanne, Gitte, CD and Carsten ---

fn the_four() -> State {
    let mut s = state(&["Hanne", "Gitte", "CD", "Carsten"]);
    let (hanne, gitte, cd, carsten) = (0, 1, 2, 3);
    settlement(&mut s, hanne, "0:N");
    settlement(&mut s, hanne, "2:N");
    city(&mut s, gitte, "7:SW");
    s.metropolis[Track::Science as usize] = Some(v(&s, "7:SW"));
    city(&mut s, cd, "16:S");
    city(&mut s, cd, "18:S");
    city(&mut s, carsten, "11:SE");
    city(&mut s, carsten, "6:NE");
    for (p, at, edge) in [(hanne, "1:N", "1:NW"), (cd, "17:S", "17:SW"), (carsten, "15:SE", "15:E")] {
        road(&mut s, p, edge);
        knight(&mut s, p, at, 1, true);
    }
    s.barbarians = 6;
    s.phase = Phase::BeforeRoll;
    s
}

#[test]
fn the_barbarians_win_5_to_3_and_cd_and_carsten_each_lose_a_city() {
    let mut s = the_four();
    assert_eq!(s.cities_on_board(), 5, "4 cities and 1 metropolis");
    assert_eq!(s.seats().map(|p| s.active_strength(p)).sum::<u32>(), 3);
    let roll = |pillaged: Value| json!({"type": "roll", "player": "Hanne", "event": "ship", "dice": [2, 3], "pillaged": pillaged});
    refused(&mut s, roll(json!({})), "take a city from CD, Carsten");
    refused(&mut s, roll(json!({"CD": "16:S", "Gitte": "7:SW", "Carsten": "11:SE"})), "but the roll names");
    refused(&mut s, roll(json!({"CD": "16:S", "Carsten": "15:SE"})), "not one");
    let before: Vec<i32> = s.seats().map(|p| s.vp(p)).collect();
    let facts = act(&mut s, roll(json!({"CD": "16:S", "Carsten": "11:SE"}))).unwrap();
    assert!(facts.contains(&Fact::Moment { moment: "battle_lost", player: None }));
    assert!(facts.contains(&Fact::Gauge { gauge: "barbarians", value: 3 }), "two cities fewer: {facts:?}");
    assert!(!facts.iter().any(|f| matches!(f, Fact::Gauge { gauge: "knights", value } if *value != 0)));
    let after: Vec<i32> = s.seats().map(|p| s.vp(p)).collect();
    assert_eq!(after, vec![before[0], before[1], before[2] - 1, before[3] - 1]);
    assert_eq!((s.players[2].cities, s.players[2].settlements), (1, 1));
    assert_eq!(s.building(v(&s, "11:SE")), Some(Building { owner: 3, city: false }));
    assert!(s.knights.iter().flatten().all(|k| !k.active), "all knights turn passive after the battle");
    assert_eq!((s.barbarians, s.attacks), (0, 1), "the ship goes back to the start");
}

#[test]
fn catan_wins_ties_and_the_single_biggest_defender_takes_the_point() {
    let mut s = the_four();
    knight(&mut s, 1, "10:N", 2, true); // Gitte: a strong knight, 5 against 5
    road(&mut s, 1, "10:NW");
    let facts = act(&mut s, json!({"type": "roll", "player": "Hanne", "event": "ship", "dice": [2, 3]})).unwrap();
    assert_eq!(s.players[1].defenders, 1, "Gitte gave the most");
    assert!(facts.contains(&Fact::Moment { moment: "battle_won", player: None }));
    assert!(facts.iter().any(|f| matches!(f, Fact::Score { player: 1, reason: "defender", delta: 1, .. })));
    let mut s = the_four();
    // A tie for the most: each of them draws a progress card of a colour of their choice, clockwise.
    s.barbarians = 6;
    s.players[0].cities = 0;
    let roll =
        |drawn: Value| json!({"type": "roll", "player": "Hanne", "event": "ship", "dice": [1, 1], "drawn": drawn});
    city(&mut s, 0, "4:S");
    knight(&mut s, 0, "3:N", 2, true);
    road(&mut s, 0, "3:NW");
    knight(&mut s, 2, "16:SW", 2, true);
    road(&mut s, 2, "16:W");
    // Catan: 1 + 2 (Hanne) + 1 + 2 (CD) + 1 (Carsten) = 7 against 6 cities.
    refused(&mut s, roll(json!([])), "draws a progress card of their choice");
    act(
        &mut s,
        roll(json!([{"player": "Hanne", "card": "unknown", "colour": "politics"},
                            {"player": "CD", "card": "printer"}])),
    )
    .unwrap();
    assert_eq!(s.players.iter().map(|p| p.defenders).sum::<u8>(), 0);
    assert_eq!(s.players[2].shown, vec![Progress::Printer], "a victory point card is shown at once");
}

#[test]
fn the_robber_stays_in_the_desert_until_the_first_attack() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    act(&mut s, json!({"type": "roll", "player": "A", "event": "ship", "dice": [3, 4]})).unwrap();
    assert_eq!(s.phase, Phase::Main, "a 7 before the first attack: nothing to discard, the robber stays");
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    s.attacks = 1;
    act(&mut s, json!({"type": "roll", "player": "A", "event": "ship", "dice": [3, 4]})).unwrap();
    assert_eq!(s.phase, Phase::MoveRobber);
}

// --- Production ---

#[test]
fn a_city_makes_a_commodity_on_mountains_forest_and_pasture_and_two_resources_elsewhere() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    city(&mut s, 0, "0:S"); // mountains 10 (hex 0), hills 6 (4), fields 12 (3)
    city(&mut s, 1, "2:N"); // forest 9 (hex 2) only
    settlement(&mut s, 2, "6:SE"); // hills 10 (hex 6), mountains 8 (11)
    act(&mut s, json!({"type": "roll", "player": "A", "event": "ship", "dice": [4, 6]})).unwrap();
    assert_eq!(
        s.players[0].hand.known,
        crate::cards::Cards::from_pairs(&[
            (crate::cards::ORE, 1),
            (crate::cards::Card::Commodity(crate::cards::Commodity::Coin), 1)
        ])
    );
    assert_eq!(s.players[2].hand.known, crate::cards::Cards::of(crate::cards::BRICK, 1));
    s.phase = Phase::BeforeRoll;
    act(&mut s, json!({"type": "roll", "player": "A", "event": "ship", "dice": [3, 3]})).unwrap();
    assert_eq!(s.players[0].hand.known[crate::cards::BRICK], 2, "a city on hills: 2 brick");
}

#[test]
fn the_aqueduct_gives_a_resource_of_choice_when_a_roll_gave_nothing() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    city(&mut s, 1, "2:N");
    s.players[1].levels = [0, 0, 3];
    let roll = |aq: Value| json!({"type": "roll", "player": "A", "event": "ship", "dice": [2, 3], "aqueduct": aq});
    refused(&mut s, roll(json!({})), "B got nothing");
    refused(&mut s, roll(json!({"A": "ore"})), "A takes no resource");
    act(&mut s, roll(json!({"B": "grain"}))).unwrap();
    assert_eq!(s.players[1].hand.known[crate::cards::GRAIN], 1);
    s.phase = Phase::BeforeRoll;
    refused(
        &mut s,
        json!({"type": "roll", "player": "A", "event": "ship", "dice": [4, 5], "aqueduct": {"B": "ore"}}),
        "takes no resource",
    );
}

#[test]
fn walls_raise_the_hand_limit_and_go_with_a_pillaged_city() {
    let mut s = state(&["A", "B", "C"]);
    city(&mut s, 0, "0:N");
    give(&mut s, 0, json!({"brick": 2}));
    refused(&mut s, json!({"type": "build_wall", "player": "A", "at": "2:N"}), "goes under one of A's cities");
    act(&mut s, json!({"type": "build_wall", "player": "A", "at": "0:N"})).unwrap();
    assert_eq!(s.discard_limit(0), 9);
    give(&mut s, 0, json!({"brick": 2}));
    refused(&mut s, json!({"type": "build_wall", "player": "A", "at": "0:N"}), "already has a wall");
    let mut facts = Vec::new();
    let at = v(&s, "0:N");
    crate::rules::build::pillage(&mut s, 0, at, &mut facts);
    assert_eq!((s.players[0].walls, s.discard_limit(0)), (0, 7));
}

#[test]
fn nothing_but_the_alchemist_before_the_roll() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    road(&mut s, 0, "9:NE");
    give(&mut s, 0, json!({"wool": 1, "ore": 1, "lumber": 1, "brick": 1}));
    hold(&mut s, 0, Progress::Warlord);
    hold(&mut s, 0, Progress::Alchemist);
    refused(&mut s, json!({"type": "build_knight", "player": "A", "at": "9:N"}), "must roll before");
    refused(&mut s, json!({"type": "build_road", "player": "A", "at": "9:E"}), "must roll before");
    refused(
        &mut s,
        json!({"type": "maritime_trade", "player": "A", "give": {"wool": 4}, "get": {"ore": 1}}),
        "must roll before",
    );
    refused(&mut s, json!({"type": "play_progress", "player": "A", "card": "warlord"}), "must roll before");
    act(&mut s, json!({"type": "play_progress", "player": "A", "card": "alchemist", "dice": [2, 6]})).unwrap();
    refused(
        &mut s,
        json!({"type": "roll", "player": "A", "event": "ship", "dice": [3, 5]}),
        "the Alchemist set the dice",
    );
    act(&mut s, json!({"type": "roll", "player": "A", "event": "ship", "dice": [2, 6]})).unwrap();
}

#[test]
fn a_fifth_progress_card_outside_ones_turn_goes_back_at_once() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    s.players[1].levels = [0, 0, 1];
    for c in [Progress::Crane, Progress::Smith, Progress::Mining, Progress::Inventor] {
        hold(&mut s, 1, c);
    }
    let roll = |d: Value| json!({"type": "roll", "player": "A", "event": "science", "dice": [1, 1], "drawn": [d]});
    refused(&mut s, roll(json!({"player": "B", "card": "medicine"})), "one goes back");
    act(&mut s, roll(json!({"player": "B", "card": "medicine", "returned": "crane"}))).unwrap();
    assert_eq!(s.players[1].progress.len(), 4);
    assert_eq!(s.decks[Track::Science as usize], 14);
}

#[test]
fn trades_with_the_bank_know_commodities_harbours_and_the_merchant() {
    let mut s = state(&["A", "B", "C"]);
    give(&mut s, 0, json!({"coin": 4, "cloth": 2, "wool": 2}));
    act(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"coin": 4}, "get": {"grain": 1}})).unwrap();
    refused(
        &mut s,
        json!({"type": "maritime_trade", "player": "A", "give": {"cloth": 2}, "get": {"ore": 1}}),
        "not a multiple of the 4:1",
    );
    s.players[0].levels = [3, 0, 0];
    act(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"cloth": 2}, "get": {"ore": 1}})).unwrap();
    refused(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"wool": 2}, "get": {"ore": 1}}), "4:1");
    settlement(&mut s, 0, "1:N"); // hex 1: pasture
    s.merchant = Some((1, 0));
    act(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"wool": 2}, "get": {"paper": 1}})).unwrap();
}

#[test]
fn players_trade_commodities_but_not_like_for_like() {
    let mut s = state(&["A", "B", "C"]);
    give(&mut s, 0, json!({"coin": 1}));
    give(&mut s, 1, json!({"ore": 2}));
    refused(
        &mut s,
        json!({"type": "trade", "player": "A", "with": "B", "give": {"coin": 1}, "get": {"coin": 1}}),
        "like for like",
    );
    let facts =
        act(&mut s, json!({"type": "trade", "player": "A", "with": "B", "give": {"coin": 1}, "get": {"ore": 2}}))
            .unwrap();
    assert_eq!(facts.len(), 2);
    assert_eq!(s.players[1].hand.known[crate::cards::Card::Commodity(crate::cards::Commodity::Coin)], 1);
}
