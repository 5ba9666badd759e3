//! One test per helper, legal and illegal, plus the common restrictions.
use crate::board::{Board, BoardSpec};
use crate::development::DevCard;
use crate::event::Event;
use crate::helpers::*;
use crate::pieces::Building;
use crate::resources::{Bundle, Resource, ResourceCard};
use crate::rules::apply;
use crate::state::{Options, Phase, State};
use crate::vocabulary::HELPER;
use almanac_core::{Fact, Seat};

const STACK: [&str; 6] = ["Nassir", "Jean", "Lin", "Hilde", "Louis", "William"];

/// Three players on the beginners' board, set up as in `tests/rules.rs`: turn 1, Ana to roll.
fn game() -> State {
    let spec: BoardSpec = serde_json::from_str(include_str!("../../../tests/beginner-board.json")).unwrap();
    let seating = almanac_core::Table::named(&["Ana", "Bo", "Cem"]);
    let stack: Vec<String> = STACK.iter().map(|s| s.to_string()).collect();
    let mut s =
        State::with_helpers(Board::from_spec(&spec).unwrap(), Options::default(), seating, Some(&stack)).unwrap();
    let b = s.board.clone();
    let v = |h: usize, c: usize| b.hexes[h].corners[c];
    let e = |h: usize, side: usize| b.hexes[h].sides[side];
    let setup = [
        (0, v(4, 0), e(4, 0)),
        (1, v(8, 0), e(8, 0)),
        (2, v(11, 3), e(11, 2)),
        (2, v(17, 0), e(17, 0)),
        (1, v(14, 0), e(14, 5)),
        (0, v(10, 0), e(10, 5)),
    ];
    let mut facts = Vec::new();
    for (p, at, road) in setup {
        apply(&mut s, &Event::BuildSettlement { player: p, at }, &mut facts).unwrap();
        apply(&mut s, &Event::BuildRoad { player: p, at: road }, &mut facts).unwrap();
    }
    s
}

fn held(s: &State, p: Seat) -> HelperCard {
    s.helpers.as_ref().unwrap().held[p as usize].unwrap()
}

fn give(s: &mut State, p: Seat, helper: usize) {
    let h = s.helpers.as_mut().unwrap();
    h.display.retain(|&d| d != helper);
    h.held[p as usize] = Some(HelperCard { helper, b_side: false, taken_turn: 0 });
}

fn using(p: Seat, helper: usize, action: HelperAction) -> Event {
    Event::UseHelper(Box::new(HelperUse { player: p, helper, action, after: AfterUse::Flip }))
}

fn ok(s: &mut State, ev: Event) -> Vec<Fact> {
    let mut facts = Vec::new();
    apply(s, &ev, &mut facts).unwrap_or_else(|e| panic!("{ev:?}: {e}"));
    facts
}

fn rejected(s: &State, ev: Event, needle: &str) {
    let mut t = s.clone();
    let err = apply(&mut t, &ev, &mut Vec::new()).expect_err("accepted");
    assert!(err.0.contains(needle), "`{err}` lacks `{needle}`");
}

fn roll(s: &mut State, p: Seat, dice: [u8; 2]) {
    ok(s, Event::Roll { player: p, dice: dice.into(), production: None });
}

fn cards(known: [u8; 5]) -> Bundle {
    Bundle { known: known.into(), unknown: 0 }
}

#[test]
fn the_stack_goes_out_in_reverse_seat_order_so_the_last_seat_gets_nassir() {
    let s = game();
    assert_eq!(HELPERS[held(&s, 2).helper], "Nassir");
    assert_eq!(HELPERS[held(&s, 1).helper], "Jean");
    assert_eq!(HELPERS[held(&s, 0).helper], "Lin");
    let display: Vec<&str> = s.helpers.as_ref().unwrap().display.iter().map(|&d| HELPERS[d]).collect();
    assert_eq!(display.len(), 7, "the four unnumbered and the three left of the stack: {display:?}");
    assert!(display.contains(&"Hilde") && display.contains(&"Marianne"));
}

#[test]
fn once_per_turn_not_the_turn_taken_and_a_b_side_must_be_swapped() {
    let mut s = game();
    give(&mut s, 0, JEAN);
    ok(&mut s, using(0, JEAN, HelperAction::Jean { resource: Resource::Lumber }));
    assert!(held(&s, 0).b_side);
    rejected(&s, using(0, JEAN, HelperAction::Jean { resource: Resource::Brick }), "already used a helper this turn");
    // Next turn of Ana: B side, so a flip is refused; a swap for a helper on display works.
    s.turn += 3;
    let flip = using(0, JEAN, HelperAction::Jean { resource: Resource::Brick });
    rejected(&s, flip, "on its B side");
    let swap = |to: usize| {
        Event::UseHelper(Box::new(HelperUse {
            player: 0,
            helper: JEAN,
            action: HelperAction::Jean { resource: Resource::Brick },
            after: AfterUse::Swap(to),
        }))
    };
    rejected(&s, swap(NASSIR), "Nassir is not on display");
    ok(&mut s, swap(MARIANNE));
    assert_eq!(held(&s, 0), HelperCard { helper: MARIANNE, b_side: false, taken_turn: s.turn });
    assert!(s.helpers.as_ref().unwrap().display.contains(&JEAN));
    // The new helper waits for the next turn.
    s.phase = Phase::Main;
    rejected(&s, using(0, MARIANNE, HelperAction::Marianne { resource: Resource::Lumber }), "took Marianne this turn");
}

#[test]
fn a_helper_is_used_in_its_owners_turn_unless_it_is_marianne_or_sean() {
    let s = game();
    rejected(&s, using(1, JEAN, HelperAction::Jean { resource: Resource::Lumber }), "out of turn");
    rejected(
        &s,
        using(0, NASSIR, HelperAction::Jean { resource: Resource::Lumber }),
        "Ana's helper is Lin, not Nassir",
    );
}

#[test]
fn candamir_swaps_one_resource_and_keeps_one_of_three_cards() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]);
    give(&mut s, 0, CANDAMIR);
    s.players[0].hand.known = [1, 0, 1, 1, 0].into();
    let buy = |pay: [u8; 5], card: DevCard| {
        using(
            0,
            CANDAMIR,
            HelperAction::Candamir {
                pay: cards(pay),
                drawn: vec![DevCard::Knight, DevCard::Monopoly, DevCard::VictoryPoint],
                card,
            },
        )
    };
    rejected(&s, buy([1, 1, 1, 0, 0], DevCard::Monopoly), "replaces one of wool, grain and ore");
    rejected(&s, buy([1, 0, 1, 1, 0], DevCard::RoadBuilding), "not among them");
    ok(&mut s, buy([1, 0, 1, 1, 0], DevCard::Monopoly));
    assert_eq!(s.players[0].dev.held[DevCard::Monopoly], 1);
    assert_eq!(s.players[0].hand.total(), 0);
    assert_eq!(s.deck_left, 24);
}

#[test]
fn hilde_takes_a_chosen_card_from_a_player_with_more_points() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]);
    give(&mut s, 0, HILDE);
    rejected(
        &s,
        using(0, HILDE, HelperAction::Hilde { victim: 2, took: ResourceCard::Known(Resource::Ore) }),
        "more victory points",
    );
    let v = s.board.hexes[18].corners[3];
    s.buildings[v as usize] = Some(Building { owner: 2, city: false });
    s.players[2].settlements += 1;
    let facts =
        ok(&mut s, using(0, HILDE, HelperAction::Hilde { victim: 2, took: ResourceCard::Known(Resource::Ore) }));
    assert_eq!(s.players[0].hand.known[Resource::Ore], 1);
    assert!(facts.iter().any(|f| matches!(f, Fact::Gained { player: 0, item: "ore", cause: HELPER, .. })));
}

#[test]
fn jean_trades_one_resource_two_for_one_all_turn() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]); // Ana: 2 lumber
    give(&mut s, 0, JEAN);
    let trade = Event::MaritimeTrade { player: 0, give: cards([2, 0, 0, 0, 0]), get: cards([0, 0, 0, 1, 0]) };
    rejected(&s, trade.clone(), "not a multiple of any rate");
    ok(&mut s, using(0, JEAN, HelperAction::Jean { resource: Resource::Lumber }));
    ok(&mut s, trade);
    assert_eq!(s.players[0].hand.known[Resource::Grain], 1);
}

#[test]
fn lin_sends_the_robber_to_the_desert_for_a_card_of_the_hex_it_left() {
    let mut s = game();
    give(&mut s, 0, LIN);
    rejected(&s, using(0, LIN, HelperAction::Lin { hex: None }), "already stands on the desert");
    s.robber = 4; // hills
    ok(&mut s, using(0, LIN, HelperAction::Lin { hex: None }));
    assert_eq!(s.robber, 9);
    assert_eq!(s.players[0].hand.known[Resource::Brick], 2, "a brick from the hills, on top of the setup brick");
}

#[test]
fn louis_moves_a_road_loose_at_one_end() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]);
    give(&mut s, 0, LOUIS);
    // Ana's road 4:NE runs from her settlement (4:N) to a loose end: it may move to 4:NW.
    let (from, to) = (s.board.hexes[4].sides[0], s.board.hexes[4].sides[5]);
    ok(&mut s, using(0, LOUIS, HelperAction::Louis { from, to }));
    assert_eq!((s.roads[from as usize], s.roads[to as usize]), (None, Some(0)));
    // A road tied at both ends stays: with a road on 4:E, 4:NE has Ana's pieces at both of its ends.
    let mut t = game();
    give(&mut t, 0, LOUIS);
    let east = t.board.hexes[4].sides[1];
    t.roads[east as usize] = Some(0);
    t.players[0].roads += 1;
    let (from, to) = (t.board.hexes[4].sides[0], t.board.hexes[4].sides[5]);
    rejected(&t, using(0, LOUIS, HelperAction::Louis { from, to }), "tied at both");
}

#[test]
fn marianne_pays_a_card_after_a_roll_that_paid_nothing_but_not_after_a_seven() {
    let mut s = game();
    give(&mut s, 1, MARIANNE);
    roll(&mut s, 0, [4, 6]); // 10: mountains 10 (hex 0) touches only Ana; hills 10 pays Ana too
    ok(&mut s, using(1, MARIANNE, HelperAction::Marianne { resource: Resource::Ore }));
    assert_eq!(s.players[1].hand.known[Resource::Ore], 1);
    let mut t = game();
    give(&mut t, 0, MARIANNE);
    t.active = 0;
    roll(&mut t, 0, [1, 2]);
    rejected(&t, using(0, MARIANNE, HelperAction::Marianne { resource: Resource::Ore }), "it paid Ana");
    let mut u = game();
    give(&mut u, 1, MARIANNE);
    roll(&mut u, 0, [3, 4]);
    rejected(&u, using(1, MARIANNE, HelperAction::Marianne { resource: Resource::Ore }), "not help after a 7");
}

#[test]
fn nassir_takes_a_named_resource_and_gives_a_card_back_for_each() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]);
    give(&mut s, 0, NASSIR);
    let ask = |returned: Vec<(Seat, Resource)>| {
        using(
            0,
            NASSIR,
            HelperAction::Nassir { resource: Resource::Grain, opponents: vec![1, 2], received: None, returned },
        )
    };
    rejected(&s, ask(vec![(2, Resource::Lumber)]), "one card of choice for each card received (1), not 0");
    ok(&mut s, ask(vec![(1, Resource::Lumber), (2, Resource::Wool)]));
    assert_eq!(s.players[0].hand.known, [1, 1, 0, 2, 0]);
    assert_eq!(s.players[1].hand.known[Resource::Lumber], 3);
    assert_eq!(s.players[2].hand.known[Resource::Wool], 1);
}

#[test]
fn sean_spares_a_discard_or_pays_a_small_hand_after_a_seven() {
    let mut s = game();
    give(&mut s, 2, SEAN);
    rejected(&s, using(2, SEAN, HelperAction::Sean { resource: Some(Resource::Lumber) }), "right after a 7");
    s.players[2].hand.known = [2, 2, 2, 2, 0].into();
    roll(&mut s, 0, [3, 4]);
    assert_eq!(s.phase, Phase::Discard);
    rejected(&s, using(2, SEAN, HelperAction::Sean { resource: Some(Resource::Lumber) }), "holding 7 or fewer");
    ok(&mut s, using(2, SEAN, HelperAction::Sean { resource: None }));
    assert_eq!(s.phase, Phase::MoveRobber { knight: false }, "nobody else had to discard");
    let mut t = game();
    give(&mut t, 1, SEAN);
    roll(&mut t, 0, [3, 4]);
    ok(&mut t, using(1, SEAN, HelperAction::Sean { resource: Some(Resource::Wool) }));
    assert_eq!(t.players[1].hand.known[Resource::Wool], 1);
}

#[test]
fn vincent_discards_a_played_knight_for_a_cheaper_settlement() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]); // Ana: lumber 2, brick 1, wool 1
    give(&mut s, 0, VINCENT);
    // Ana's roads 4:NE (from setup) and 4:E lead to 9:N, a free spot.
    let east = s.board.hexes[4].sides[1];
    s.roads[east as usize] = Some(0);
    s.players[0].roads += 1;
    let at = s.board.hexes[9].corners[0];
    let build = using(0, VINCENT, HelperAction::Vincent { city: false, at });
    rejected(&s, build.clone(), "has none");
    s.players[0].dev.played[DevCard::Knight] = 3;
    s.largest_army = Some(0);
    ok(&mut s, build);
    assert_eq!(s.players[0].hand.known, [1, 0, 1, 0, 0], "lumber and brick only");
    assert_eq!(s.players[0].dev.played[DevCard::Knight], 2);
    assert_eq!(s.largest_army, None, "2 knights no longer hold Largest Army");
    assert_eq!(s.buildings[at as usize], Some(Building { owner: 0, city: false }));
}

#[test]
fn no_helper_in_the_special_building_phase() {
    let mut s = game();
    s.equipment.extension_5_6 = true;
    give(&mut s, 2, MARIANNE);
    roll(&mut s, 0, [1, 2]);
    ok(&mut s, Event::EndTurn { player: 0 });
    assert!(matches!(s.phase, Phase::SpecialBuilding { .. }));
    rejected(
        &s,
        using(2, MARIANNE, HelperAction::Marianne { resource: Resource::Lumber }),
        "only building and buying happen",
    );
}

#[test]
fn william_pays_a_road_with_one_other_card() {
    let mut s = game();
    roll(&mut s, 0, [1, 2]); // Ana: lumber 2, brick 1, wool 1
    give(&mut s, 0, WILLIAM);
    let at = s.board.hexes[4].sides[5];
    rejected(&s, using(0, WILLIAM, HelperAction::William { at, pay: cards([0, 0, 2, 0, 0]) }), "lumber or brick");
    ok(&mut s, using(0, WILLIAM, HelperAction::William { at, pay: cards([1, 0, 1, 0, 0]) }));
    assert_eq!(s.players[0].hand.known, [1, 1, 0, 0, 0]);
    assert_eq!(s.roads[at as usize], Some(0));
}
