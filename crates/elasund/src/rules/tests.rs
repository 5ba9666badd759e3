//! The rule source's worked examples, with its numbers, on states built by hand.

use crate::board::{Colour, Square, WallSite, CHURCH_SITE};
use crate::buildings::Kind;
use crate::cards::Cards;
use crate::state::{Phase, Placed, State};
use almanac_core::Seated;
use almanac_core::{Fact, Seat};
use serde_json::{json, Value};

/// A game of the named colours (seat order), in the given player's step 2, nothing on the board but the
/// start huts; everyone holds `START` gold.
pub fn state(colours: &[Colour]) -> State {
    let names: Vec<&str> = colours.iter().map(|c| c.name()).collect();
    let mut s = State::new(almanac_core::Table::named(&names), colours.to_vec()).unwrap();
    for p in s.seats() {
        s.players[p as usize].hand.gold = START;
        s.gold -= START - 3;
    }
    s.phase = Phase::Build { built: 0 };
    s.ship = Some(crate::board::row_index(5).unwrap());
    s
}

pub const START: u8 = 12;

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Puts a building on the board by hand (a neutral one with its markers placed).
pub fn put(s: &mut State, p: Seat, kind: Kind, at: &str) -> usize {
    let markers = kind.flags();
    s.players[p as usize].markers_left -= markers;
    if kind.owner() == crate::buildings::Owner::Neutral {
        s.stacks[crate::rules::build::stack_index(kind)] -= 1;
    }
    s.place(Placed { kind, at: sq(at), owner: p, markers })
}

pub fn permit(s: &mut State, p: Seat, value: u8, at: &str) {
    s.cell_mut(sq(at)).permit = Some((p, value));
    s.players[p as usize].permits_home[value as usize] = false;
}

pub fn give(s: &mut State, p: Seat, cards: Value) {
    let c = Cards::parse(&serde_json::from_value(cards).unwrap()).unwrap();
    s.players[p as usize].hand.receive(&c);
    s.deck -= c.influence_total() as u8;
}

/// A line applied, or refused with words that say why (the shared rule-test steps).
pub fn act(s: &mut State, line: Value) -> Result<Vec<Fact>, String> {
    almanac_core::testing::act::<crate::Elasund>(s, &line.to_string())
}

pub fn refused(s: &mut State, line: Value, words: &str) {
    almanac_core::testing::refused::<crate::Elasund>(s, &line.to_string(), words)
}

fn gold(s: &State, p: Seat) -> u8 {
    s.player(p).hand.gold
}

fn at(s: &State, name: &str) -> Option<Placed> {
    s.cell(sq(name)).building.and_then(|i| s.buildings[i])
}

// --- 1. The ship on 3 rolling 3 goes two rows on, to 5, and row 5 pays ---

#[test]
fn the_ship_on_3_rolling_3_goes_to_5_and_row_5_pays_its_owners() {
    let (red, blue, green) = (0, 1, 2);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Green]);
    s.phase = Phase::Roll;
    s.ship = Some(crate::board::row_index(3).unwrap());
    put(&mut s, blue, Kind::Inn, "1:4"); // influence, rows 4-5
    put(&mut s, red, Kind::Workshop, "3:5"); // gold, rows 5-6
    put(&mut s, blue, Kind::Workshop, "4:5"); // gold
    put(&mut s, red, Kind::House, "6:5"); // influence
                                          // Green's large start hut stands on 5:5 and 5:6: gold.
    let before: Vec<Cards> = s.players.iter().map(|p| p.hand).collect();
    refused(&mut s, json!({"type": "roll", "player": "red", "dice": [1, 2], "ship": 4}), "goes to row 5, not 4");
    refused(&mut s, json!({"type": "roll", "player": "red", "dice": [1, 2]}), "red draws 1 influence card(s)");
    let roll = json!({"type": "roll", "player": "red", "dice": [1, 2],
                      "influence": {"red": ["green"], "blue": ["unknown"]}});
    act(&mut s, roll).unwrap();
    assert_eq!(s.ship, crate::board::row_index(5));
    let gained = |p: Seat| {
        let (a, b) = (before[p as usize], s.players[p as usize].hand);
        (b.gold - a.gold, b.influence_total() - a.influence_total())
    };
    assert_eq!(gained(red), (1, 1), "red: 1 gold and 1 influence");
    assert_eq!(gained(blue), (1, 1), "blue: 1 influence, and 1 gold");
    assert_eq!(gained(green), (1, 0), "green: 1 gold");
    assert_eq!(s.phase, Phase::Build { built: 0 });
}

#[test]
fn the_ship_on_its_own_row_in_the_middle_goes_two_rows_either_way() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    s.phase = Phase::Roll;
    s.ship = Some(crate::board::row_index(8).unwrap());
    refused(&mut s, json!({"type": "roll", "player": "red", "dice": [4, 4]}), "moves two rows, to 5 or 10");
    act(&mut s, json!({"type": "roll", "player": "red", "dice": [4, 4], "ship": 10})).unwrap();
    assert_eq!(s.ship, crate::board::row_index(10));
}

// --- 2. Buildings: permits, the most valuable wins, compensation ---

#[test]
fn the_inn_goes_where_two_permits_are() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    permit(&mut s, 0, 1, "4:11");
    let inn = json!({"type": "build", "player": "red", "building": "inn", "at": "4:11"});
    refused(&mut s, inn.clone(), "red cannot build an inn at 4:11: it needs 2 permit(s)");
    permit(&mut s, 0, 2, "5:12");
    act(&mut s, inn).unwrap();
    assert_eq!(at(&s, "5:12").map(|b| b.kind), Some(Kind::Inn));
    assert_eq!(gold(&s, 0), START - 3, "3 gold to the bank");
    assert!(s.player(0).permits_home[1] && s.player(0).permits_home[2], "the permits went home");
    assert_eq!(s.vp(0), 1, "a VP marker on its flag");
}

#[test]
fn the_office_pays_yellow_and_blue_2_each_and_the_bank_5_and_displaces_yellows_building() {
    let (red, blue, yellow) = (0, 1, 2);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green]);
    put(&mut s, yellow, Kind::Workshop, "6:10"); // 6:10 and 6:11
    permit(&mut s, red, 3, "7:9");
    permit(&mut s, yellow, 2, "6:9");
    permit(&mut s, blue, 2, "7:11");
    let before = (gold(&s, red), gold(&s, blue), gold(&s, yellow));
    let facts = act(&mut s, json!({"type": "build", "player": "red", "building": "hall", "at": "6:9"})).unwrap();
    assert_eq!((gold(&s, red), gold(&s, blue), gold(&s, yellow)), (before.0 - 9, before.1 + 2, before.2 + 2));
    assert!(facts.contains(&Fact::Lost {
        player: red,
        item: "gold",
        count: 2,
        cause: "compensation",
        to: Some(yellow)
    }));
    assert!(!s.built(yellow, Kind::Workshop), "yellow's workshop went home");
    assert!(s.player(yellow).permits_home[2] && s.player(blue).permits_home[2] && s.player(red).permits_home[3]);
    assert_eq!(s.vp(red), 2, "two flags");
}

#[test]
fn a_permit_worth_4_beats_0_1_and_2_and_all_three_are_compensated_but_a_tie_builds_nothing() {
    let (red, blue) = (0, 1);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow]);
    permit(&mut s, red, 4, "6:9");
    for (v, at) in [(0, "7:9"), (1, "6:10"), (2, "7:10")] {
        permit(&mut s, blue, v, at);
    }
    act(&mut s, json!({"type": "build", "player": "red", "building": "hall", "at": "6:9"})).unwrap();
    assert_eq!((gold(&s, red), gold(&s, blue)), (START - 5 - 3, START + 3));
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow]);
    permit(&mut s, red, 3, "6:9");
    permit(&mut s, blue, 1, "7:9");
    permit(&mut s, blue, 2, "7:10");
    refused(&mut s, json!({"type": "build", "player": "red", "building": "hall", "at": "6:9"}), "a tie, nobody");
    s.active = blue;
    refused(&mut s, json!({"type": "build", "player": "blue", "building": "hall", "at": "6:9"}), "a tie, nobody");
}

#[test]
fn the_inn_displaces_two_of_its_size_for_3_influence_of_one_colour() {
    let (red, blue, yellow) = (0, 1, 2);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow, Colour::Green]);
    s.active = yellow;
    put(&mut s, red, Kind::Shop, "6:9"); // 6-7 : 9-10
    put(&mut s, blue, Kind::Inn, "6:11"); // 6-7 : 11-12
    permit(&mut s, yellow, 3, "8:10");
    permit(&mut s, red, 1, "8:11");
    let inn = json!({"type": "build", "player": "yellow", "building": "inn", "at": "7:10"});
    refused(&mut s, inn.clone(), "3 influence cards of one colour");
    refused(
        &mut s,
        json!({"type": "build", "player": "yellow", "building": "inn", "at": "7:10", "influence": "green"}),
        "cannot pay",
    );
    give(&mut s, yellow, json!({"green": 3}));
    let vp = (s.vp(red), s.vp(blue));
    act(&mut s, json!({"type": "build", "player": "yellow", "building": "inn", "at": "7:10", "influence": "green"}))
        .unwrap();
    assert_eq!((s.vp(red), s.vp(blue)), (vp.0 - 1, vp.1 - 1), "red and blue take their markers back");
    assert_eq!(gold(&s, yellow), START - 3 - 1, "3 to the bank, 1 to red");
    assert_eq!(s.stacks[crate::rules::build::stack_index(Kind::Shop)], 5, "the shop went back to its stack");
    assert_eq!(s.player(yellow).hand.influence_total(), 1, "3 green paid, the dealt card kept");
    assert!(at(&s, "6:9").is_none() && at(&s, "6:12").is_none());
}

#[test]
fn a_building_never_displaces_a_larger_one_and_never_stands_on_the_church_site() {
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow]);
    put(&mut s, 1, Kind::Shop, "6:9");
    permit(&mut s, 0, 1, "5:10");
    refused(&mut s, json!({"type": "build", "player": "red", "building": "market_stalls", "at": "5:10"}), "the larger");
    refused(&mut s, json!({"type": "build", "player": "red", "building": "market_stalls", "at": "2:8"}), "church site");
    refused(
        &mut s,
        json!({"type": "build", "player": "red", "building": "market_stalls", "at": "7:2"}),
        "outside the city",
    );
}

#[test]
fn a_displaced_start_hut_goes_back_on_free_squares_at_once() {
    let (red, blue) = (0, 1);
    let mut s = state(&[Colour::Red, Colour::Blue]);
    // Blue's small hut stands on 3:4, red's on 4:4.
    permit(&mut s, red, 2, "3:5");
    permit(&mut s, red, 1, "4:5");
    let inn = |huts: Value| json!({"type": "build", "player": "red", "building": "inn", "at": "3:4", "huts": huts});
    refused(
        &mut s,
        json!({"type": "build", "player": "red", "building": "inn", "at": "3:4"}),
        "red's small hut, blue's small hut; the event moves none",
    );
    let red_hut = json!({"player": "red", "hut": "small_hut", "at": "5:3"});
    refused(&mut s, inn(json!([red_hut, {"player": "blue", "hut": "small_hut", "at": "1:3"}])), "never a trade square");
    refused(&mut s, inn(json!([red_hut, {"player": "blue", "hut": "small_hut"}])), "must put the displaced");
    // Red's own small hut on 4:4 goes too: red puts it back first.
    act(&mut s, inn(json!([{"player": "red", "hut": "small_hut", "at": "5:3"}, {"player": "blue", "hut": "small_hut", "at": "2:3"}]))).unwrap();
    assert_eq!(at(&s, "2:3").map(|b| (b.kind, b.owner)), Some((Kind::SmallHut, blue)));
    assert_eq!(at(&s, "5:3").map(|b| (b.kind, b.owner)), Some((Kind::SmallHut, red)));
}

// --- Walls ---

#[test]
fn yellows_walls_1_and_2_bring_an_influence_card_then_a_tower() {
    let yellow = 0;
    let mut s = state(&[Colour::Yellow, Colour::Red]);
    refused(&mut s, json!({"type": "build_wall", "player": "yellow", "at": "north:3"}), "next to neither");
    refused(&mut s, json!({"type": "build_wall", "player": "yellow", "at": "north:4"}), "draws 1 influence");
    act(&mut s, json!({"type": "build_wall", "player": "yellow", "at": "north:4", "influence": ["blue"]})).unwrap();
    assert_eq!(gold(&s, yellow), START - 2, "2 gold towards the sea");
    assert_eq!(s.player(yellow).hand.influence[crate::cards::Influence::Blue as usize], 1);
    let facts = act(&mut s, json!({"type": "build_wall", "player": "yellow", "at": "north:3"})).unwrap();
    assert_eq!((s.vp(yellow), s.player(yellow).towers), (1, 1), "wall tile 2 is a tower with a marker");
    assert!(facts.iter().any(|f| matches!(f, Fact::Score { reason: "wall", delta: 1, .. })));
    assert_eq!(s.walls.get(&WallSite::North(3)), Some(&(yellow, 2)));
    refused(&mut s, json!({"type": "build_wall", "player": "yellow", "at": "east:3"}), "built twice");
}

#[test]
fn walls_between_the_gates_cost_4() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    act(&mut s, json!({"type": "build_wall", "player": "red", "at": "east:3", "influence": ["red"]})).unwrap();
    assert_eq!(gold(&s, 0), START - 4);
}

// --- The church ---

#[test]
fn the_first_church_tile_fixes_the_church_and_the_second_removes_blues_inn() {
    let (red, blue, yellow) = (0, 1, 2);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Yellow]);
    s.active = yellow;
    refused(&mut s, json!({"type": "build_church", "player": "yellow", "tile": "n"}), "draws two tiles");
    act(&mut s, json!({"type": "build_church", "player": "yellow", "tile": "n", "returned": "unknown"})).unwrap();
    assert_eq!(s.cell(CHURCH_SITE).church.map(|(t, m)| (t.name(), m)), Some(("n", Some(yellow))));
    assert_eq!(s.church, Some(sq("2:8")), "the north-middle tile on 3:8: the church covers columns 2-4, rows 8-10");
    assert_eq!(gold(&s, yellow), START - 7);
    // Blue's inn on 4:9 - 5:10 is under the church's east tile (4:9).
    put(&mut s, blue, Kind::Inn, "4:9");
    permit(&mut s, red, 4, "3:9");
    s.active = red;
    refused(&mut s, json!({"type": "build_church", "player": "red", "tile": "n"}), "on the board already");
    let vp = s.vp(blue);
    act(&mut s, json!({"type": "build_church", "player": "red", "tile": "e"})).unwrap();
    assert!(at(&s, "5:10").is_none(), "the inn is gone, whatever its size");
    assert_eq!(s.vp(blue), vp - 1, "blue takes the inn's marker back");
    assert_eq!(s.cell(sq("4:9")).church.map(|(t, _)| t.name()), Some("e"));
    // A church tile is never built over.
    permit(&mut s, red, 2, "4:10");
    s.phase = Phase::Build { built: 0 };
    refused(&mut s, json!({"type": "build", "player": "red", "building": "well", "at": "4:9"}), "never built over");
}

// --- Permits: step 3 and the extra actions ---

#[test]
fn taking_2_gold_from_a_bank_that_lacks_them_first_has_everyone_give_back_half_their_gold() {
    // "Näin toimitaan myös silloin, jos jollakin kierroksella ei ole tarpeeksi kultakortteja": as for influence,
    // every player gives back half their gold (rounded down) to form a new pile.
    let mut s = state(&[Colour::Red, Colour::Blue]);
    s.gold = 1;
    s.players[0].hand.gold = 5;
    s.players[1].hand.gold = 3;
    refused(&mut s, json!({"type": "take_gold", "player": "red"}), "red, blue give back half");
    refused(
        &mut s,
        json!({"type": "take_gold", "player": "red", "reshuffle": {"red": {"gold": 2}, "blue": {"gold": 2}}}),
        "blue gives back 1 gold (half, rounded down)",
    );
    let facts = act(
        &mut s,
        json!({"type": "take_gold", "player": "red", "reshuffle": {"red": {"gold": 2}, "blue": {"gold": 1}}}),
    )
    .unwrap();
    // The bank: 1 + 2 + 1 = 4, of which red takes 2.
    assert_eq!((gold(&s, 0), gold(&s, 1), s.gold), (5, 2, 2));
    assert!(facts.iter().any(|f| matches!(f, Fact::Lost { player: 1, item: "gold", count: 1, .. })));
    // With gold in the bank, nobody gives any back.
    let mut s = state(&[Colour::Red, Colour::Blue]);
    s.phase = Phase::Build { built: 0 };
    refused(
        &mut s,
        json!({"type": "take_gold", "player": "red", "reshuffle": {"red": {"gold": 1}}}),
        "nobody gives any back",
    );
}

#[test]
fn a_permit_of_value_2_goes_on_the_ships_row_for_2_gold() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    refused(&mut s, json!({"type": "place_permit", "player": "red", "value": 2, "at": "3:9"}), "the ship's row 5");
    act(&mut s, json!({"type": "place_permit", "player": "red", "value": 2, "at": "2:5"})).unwrap();
    assert_eq!((gold(&s, 0), s.cell(sq("2:5")).permit), (START - 2, Some((0, 2))));
    assert_eq!(s.phase, Phase::Extra { done: false });
    refused(&mut s, json!({"type": "build_wall", "player": "red", "at": "north:4"}), "past building");
    // The extra action: a permit anywhere, for one influence card of each colour and its value.
    refused(&mut s, json!({"type": "place_permit", "player": "red", "value": 1, "at": "3:9"}), "cannot pay");
    give(&mut s, 0, json!({"red": 1, "blue": 1, "green": 1}));
    act(&mut s, json!({"type": "place_permit", "player": "red", "value": 1, "at": "3:9"})).unwrap();
    refused(&mut s, json!({"type": "take_gold", "player": "red"}), "one extra action");
}

#[test]
fn any_row_costs_two_influence_of_one_colour_and_a_full_row_lets_the_next_one_serve() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    give(&mut s, 0, json!({"blue": 2}));
    act(&mut s, json!({"type": "place_permit", "player": "red", "value": 0, "at": "2:11", "influence": "blue"}))
        .unwrap();
    let mut s = state(&[Colour::Red, Colour::Blue]);
    for col in 1..=5 {
        let q = Square::at(col, 5);
        if s.cell(q).is_empty() {
            s.cell_mut(q).permit = Some((1, 9));
        }
    }
    act(&mut s, json!({"type": "place_permit", "player": "red", "value": 0, "at": "1:4"})).unwrap();
}

#[test]
fn the_extra_actions_move_and_upgrade_a_permit_for_influence() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    permit(&mut s, 0, 1, "2:9");
    refused(
        &mut s,
        json!({"type": "move_permit", "player": "red", "from": "2:9", "to": "2:10", "influence": "red"}),
        "extra action",
    );
    act(&mut s, json!({"type": "take_gold", "player": "red"})).unwrap();
    assert_eq!(gold(&s, 0), START + 2);
    give(&mut s, 0, json!({"red": 2}));
    act(&mut s, json!({"type": "upgrade_permit", "player": "red", "at": "2:9", "value": 4, "influence": "red"}))
        .unwrap();
    assert_eq!((gold(&s, 0), s.cell(sq("2:9")).permit), (START + 2 - 3, Some((0, 4))), "3 gold: the difference");
    assert!(s.player(0).permits_home[1]);
    act(&mut s, json!({"type": "end_turn", "player": "red"})).unwrap();
    assert_eq!((s.active, s.phase), (1, Phase::Roll));
}

// --- The pirate ---

#[test]
fn the_pirate_on_row_5_takes_3_cards_from_red_and_1_from_blue() {
    let (red, blue, green) = (0, 1, 2);
    let mut s = state(&[Colour::Red, Colour::Blue, Colour::Green]);
    s.active = green;
    s.phase = Phase::Roll;
    s.ship = None;
    put(&mut s, red, Kind::Hall, "6:5"); // two markers, rows 5, 6, 8
    put(&mut s, red, Kind::Well, "1:5");
    put(&mut s, blue, Kind::MarketStalls, "2:5");
    s.players[green as usize].towers = 1;
    let roll = |discards: Value, took: Value| json!({"type": "roll", "player": "green", "dice": [3, 4], "ship": 5, "discards": discards, "took": took});
    refused(&mut s, roll(json!({"red": {"gold": 3}}), json!({"gold": 1})), "takes cards from red, blue");
    refused(&mut s, roll(json!({"red": {"gold": 2}, "blue": {"gold": 1}}), json!({"gold": 1})), "not 2");
    refused(&mut s, roll(json!({"red": {"gold": 3}, "blue": {"gold": 1}}), json!({})), "takes 1 of the discarded");
    let before = (gold(&s, red), gold(&s, blue), gold(&s, green));
    let facts = act(&mut s, roll(json!({"red": {"gold": 3}, "blue": {"gold": 1}}), json!({"gold": 1}))).unwrap();
    assert_eq!((gold(&s, red), gold(&s, blue), gold(&s, green)), (before.0 - 3, before.1 - 1, before.2 + 1));
    assert!(s.pirate && facts.contains(&Fact::Moment { moment: "pirate", player: Some(green) }));
    assert!(facts.iter().all(|f| !matches!(f, Fact::Gained { cause: "production", .. })), "no income on a 7");
}

// --- The trade track ---

#[test]
fn red_reaches_5_with_two_markers_and_falls_back_one_square_when_blue_displaces_a_building() {
    let (red, blue) = (0, 1);
    let mut s = state(&[Colour::Red, Colour::Blue]);
    for (v, at) in [(2, "1:10"), (3, "1:11"), (4, "1:12")] {
        permit(&mut s, red, v, at);
    }
    act(&mut s, json!({"type": "build", "player": "red", "building": "hall", "at": "1:10"})).unwrap();
    assert_eq!((s.player(red).trade, s.vp(red)), (3, 3), "3 shore squares: the mark at 3, and the hall's two flags");
    permit(&mut s, red, 0, "1:2");
    s.players[red as usize].hand.gold = START;
    act(&mut s, json!({"type": "build", "player": "red", "building": "well", "at": "1:2"})).unwrap();
    s.players[red as usize].hand.gold = START;
    s.phase = Phase::Build { built: 0 };
    permit(&mut s, red, 1, "1:3");
    act(&mut s, json!({"type": "build", "player": "red", "building": "well", "at": "1:3"})).unwrap();
    assert_eq!(s.player(red).trade, 5);
    assert_eq!(s.player(red).track_marks, [true, true, false, false, false], "red's markers on 3 and 5");
    // Blue, one square along, builds over red's well on the shore: two shore squares.
    s.active = blue;
    s.phase = Phase::Build { built: 0 };
    s.players[blue as usize].trade = 1;
    permit(&mut s, blue, 0, "1:4");
    act(&mut s, json!({"type": "build", "player": "blue", "building": "workshop", "at": "1:3"})).unwrap();
    assert_eq!(s.player(red).trade, 4, "red falls back one square");
    assert_eq!(s.player(red).track_marks, [true, false, false, false, false], "and takes the marker on 5 back");
    assert_eq!((s.player(blue).trade, s.player(blue).track_marks[0]), (3, true), "blue gains 2 and a marker");
}

// --- The end ---

#[test]
fn the_tenth_marker_placed_in_ones_own_turn_ends_the_game_at_once() {
    // "Jos on sinun vuorosi ja kaikki 10 voittopistemerkkiäsi ovat pelilaudalla, peli päättyy ja sinä olet
    // voittaja!" Red has one marker left; the inn's flag takes it, in red's turn.
    let mut s = state(&[Colour::Red, Colour::Blue]);
    s.players[0].markers_left = 1;
    permit(&mut s, 0, 1, "4:11");
    permit(&mut s, 0, 2, "5:12");
    let facts = act(&mut s, json!({"type": "build", "player": "red", "building": "inn", "at": "4:11"})).unwrap();
    assert_eq!((s.winner, s.player(0).markers_left), (Some(0), 0));
    assert!(facts.contains(&Fact::GameOver { winner: Some(0) }));
    // The game is over mid-turn: not even step 3 follows.
    refused(&mut s, json!({"type": "take_gold", "player": "red"}), "the game is over");
}

#[test]
fn all_ten_markers_on_the_board_at_the_start_of_ones_turn_win() {
    let mut s = state(&[Colour::Red, Colour::Blue]);
    s.players[1].markers_left = 0;
    s.phase = Phase::Extra { done: true };
    let facts = act(&mut s, json!({"type": "end_turn", "player": "red"})).unwrap();
    assert_eq!(s.winner, Some(1));
    assert!(facts.contains(&Fact::GameOver { winner: Some(1) }));
    refused(&mut s, json!({"type": "roll", "player": "blue", "dice": [1, 1]}), "the game is over");
}
