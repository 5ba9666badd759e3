//! Every progress card, legal and illegal use (effects of the reference's §1.8; the rule source's own
//! words on the cards: any number after the roll, the Alchemist before it, never traded).

use crate::cards::{Card, Commodity, GRAIN, ORE};
use crate::progress::{HeldCard, Progress, Track};
use crate::rules::tests::{act, city, give, hold, knight, refused, road, settlement, state, v};
use crate::state::{Phase, State};
use almanac_catan::pieces::Building;
use almanac_core::Fact;
use serde_json::{json, Value};

const COIN: Card = Card::Commodity(Commodity::Coin);
const CLOTH: Card = Card::Commodity(Commodity::Cloth);

fn play(card: &str, extra: Value) -> Value {
    let mut line = json!({"type": "play_progress", "player": "A", "card": card});
    for (k, x) in extra.as_object().unwrap() {
        line[k] = x.clone();
    }
    line
}

/// A holds `card`, after the roll.
fn holding(card: Progress) -> State {
    let mut s = state(&["A", "B", "C"]);
    hold(&mut s, 0, card);
    s
}

fn played(s: &State, card: Progress) -> bool {
    !s.players[0].progress.could_hold(card) && s.decks[card.track() as usize] == 18
}

#[test]
fn a_card_not_held_is_not_played_and_a_played_card_goes_back_under_its_deck() {
    let mut s = holding(Progress::Warlord);
    refused(&mut s, play("crane", json!({})), "holds no crane");
    act(&mut s, play("warlord", json!({}))).unwrap();
    assert!(played(&s, Progress::Warlord));
    refused(&mut s, play("printer", json!({})), "victory point card");
}

#[test]
fn alchemist_sets_the_dice_before_the_roll_only() {
    let mut s = holding(Progress::Alchemist);
    refused(&mut s, play("alchemist", json!({"dice": [1, 2]})), "only before rolling");
    s.phase = Phase::BeforeRoll;
    refused(&mut s, play("alchemist", json!({"dice": [0, 2]})), "1 to 6");
    act(&mut s, play("alchemist", json!({"dice": [5, 6]}))).unwrap();
    assert_eq!(s.alchemist, Some([5, 6]));
}

#[test]
fn crane_takes_one_commodity_off_the_next_improvement() {
    let mut s = holding(Progress::Crane);
    hold(&mut s, 0, Progress::Crane);
    city(&mut s, 0, "0:N");
    s.players[0].levels = [0, 2, 0];
    give(&mut s, 0, json!({"coin": 2}));
    act(&mut s, play("crane", json!({}))).unwrap();
    refused(&mut s, play("crane", json!({})), "one Crane per city improvement");
    act(&mut s, json!({"type": "improve_city", "player": "A", "track": "politics"})).unwrap();
    assert_eq!(s.players[0].hand.total(), 0, "level 3 for 2 coins");
    assert!(!s.crane, "the Crane is spent");
}

#[test]
fn engineer_builds_a_free_wall_under_a_city() {
    let mut s = holding(Progress::Engineer);
    settlement(&mut s, 0, "2:N");
    refused(&mut s, play("engineer", json!({"at": "2:N"})), "goes under one of A's cities");
    city(&mut s, 0, "0:N");
    act(&mut s, play("engineer", json!({"at": "0:N"}))).unwrap();
    assert!(s.walls[v(&s, "0:N") as usize]);
    assert_eq!(s.players[0].hand.total(), 0);
}

#[test]
fn inventor_swaps_two_tokens_but_never_2_12_6_or_8() {
    let mut s = holding(Progress::Inventor);
    refused(&mut s, play("inventor", json!({"hexes": [0, 4]})), "never moves a 6");
    refused(&mut s, play("inventor", json!({"hexes": [0, 9]})), "no number token");
    refused(&mut s, play("inventor", json!({"hexes": [1, 0]})), "never moves a 2");
    act(&mut s, play("inventor", json!({"hexes": [0, 2]}))).unwrap();
    assert_eq!((s.numbers[0], s.numbers[2]), (Some(9), Some(10)));
}

#[test]
fn irrigation_and_mining_give_two_per_hex_of_their_land_by_the_players_buildings() {
    let mut s = holding(Progress::Irrigation);
    hold(&mut s, 0, Progress::Mining);
    settlement(&mut s, 0, "3:S"); // fields 12 (3), fields 9 (7), forest 11 (8)
    city(&mut s, 0, "14:S"); // fields 4 (14), fields 6 (17), pasture 11 (18)
    settlement(&mut s, 0, "0:N"); // mountains 10 (0)
    act(&mut s, play("irrigation", json!({}))).unwrap();
    assert_eq!(s.players[0].hand.known[GRAIN], 8, "four fields hexes");
    act(&mut s, play("mining", json!({}))).unwrap();
    assert_eq!(s.players[0].hand.known[ORE], 2, "one mountains hex");
    let mut s = holding(Progress::Mining);
    s.phase = Phase::BeforeRoll;
    refused(&mut s, play("mining", json!({})), "must roll before");
}

#[test]
fn medicine_makes_a_city_for_two_ore_and_one_grain() {
    let mut s = holding(Progress::Medicine);
    settlement(&mut s, 0, "0:N");
    give(&mut s, 0, json!({"ore": 2}));
    refused(&mut s, play("medicine", json!({"at": "0:N"})), "cannot pay");
    give(&mut s, 0, json!({"grain": 1}));
    refused(&mut s, play("medicine", json!({"at": "2:N"})), "is empty");
    act(&mut s, play("medicine", json!({"at": "0:N"}))).unwrap();
    assert_eq!(s.building(v(&s, "0:N")), Some(Building { owner: 0, city: true }));
}

#[test]
fn road_building_lays_two_free_roads_first() {
    let mut s = holding(Progress::RoadBuilding);
    settlement(&mut s, 0, "0:N");
    act(&mut s, play("road_building", json!({}))).unwrap();
    act(&mut s, json!({"type": "build_road", "player": "A", "at": "0:NW"})).unwrap();
    act(&mut s, json!({"type": "build_road", "player": "A", "at": "0:NE"})).unwrap();
    assert_eq!(s.players[0].roads, 2);
    refused(&mut s, json!({"type": "build_road", "player": "A", "at": "0:E"}), "cannot pay");
}

#[test]
fn smith_promotes_two_different_knights_free_and_mighty_needs_the_fortress() {
    let mut s = holding(Progress::Smith);
    knight(&mut s, 0, "9:N", 1, false);
    knight(&mut s, 0, "9:S", 2, true);
    refused(&mut s, play("smith", json!({"knights": ["9:N", "9:N"]})), "two different knights");
    refused(&mut s, play("smith", json!({"knights": ["9:N", "9:S"]})), "needs the Fortress");
    s.players[0].levels = [0, 3, 0];
    act(&mut s, play("smith", json!({"knights": ["9:N", "9:S"]}))).unwrap();
    assert_eq!(s.knight(v(&s, "9:N")).unwrap().level, 2);
    let mighty = s.knight(v(&s, "9:S")).unwrap();
    assert_eq!((mighty.level, mighty.active), (3, true), "a promotion keeps the knight's state");
}

#[test]
fn bishop_moves_the_robber_and_robs_everyone_on_its_hex() {
    let mut s = holding(Progress::Bishop);
    settlement(&mut s, 1, "0:N"); // hex 0
    city(&mut s, 2, "0:S"); // hexes 0, 3, 4
    give(&mut s, 1, json!({"ore": 1}));
    give(&mut s, 2, json!({"coin": 2}));
    refused(&mut s, play("bishop", json!({"hex": 0, "stolen": {"B": "ore", "C": "coin"}})), "until the barbarians");
    s.attacks = 1;
    refused(&mut s, play("bishop", json!({"hex": 0, "stolen": {"B": "ore"}})), "from each of B, C");
    refused(&mut s, play("bishop", json!({"hex": 0, "stolen": {"B": "ore", "C": "ore"}})), "no ore to steal");
    act(&mut s, play("bishop", json!({"hex": 0, "stolen": {"B": "ore", "C": "unknown"}}))).unwrap();
    assert_eq!(s.robber, 0);
    assert_eq!(s.players[0].hand.total(), 2);
    assert_eq!((s.players[1].hand.total(), s.players[2].hand.total()), (0, 1));
}

#[test]
fn deserter_removes_an_opponents_knight_and_places_one_of_equal_strength() {
    let mut s = holding(Progress::Deserter);
    knight(&mut s, 1, "0:N", 2, true);
    road(&mut s, 0, "9:NE");
    refused(&mut s, play("deserter", json!({"victim": "B", "removed": "9:N"})), "B has no knight");
    refused(&mut s, play("deserter", json!({"victim": "A", "removed": "0:N"})), "an opponent's knight");
    refused(&mut s, play("deserter", json!({"victim": "B", "removed": "0:N", "placed": "4:N"})), "none of A's roads");
    act(&mut s, play("deserter", json!({"victim": "B", "removed": "0:N", "placed": "9:N"}))).unwrap();
    assert!(s.knight(v(&s, "0:N")).is_none());
    let k = s.knight(v(&s, "9:N")).unwrap();
    assert_eq!((k.owner, k.level, k.active), (0, 2, true), "a strong knight, active like the one deserting");
}

#[test]
fn diplomat_removes_an_open_road_and_the_players_own_may_be_laid_again() {
    let mut s = holding(Progress::Diplomat);
    hold(&mut s, 0, Progress::Diplomat);
    settlement(&mut s, 1, "0:N");
    road(&mut s, 1, "0:NE");
    road(&mut s, 1, "1:NW");
    refused(&mut s, play("diplomat", json!({"road": "0:NE"})), "not open");
    refused(&mut s, play("diplomat", json!({"road": "1:NW", "moved_to": "1:NE"})), "only the player's own");
    act(&mut s, play("diplomat", json!({"road": "1:NW"}))).unwrap();
    assert_eq!(s.players[1].roads, 1);
    settlement(&mut s, 0, "18:S");
    road(&mut s, 0, "18:SW");
    act(&mut s, play("diplomat", json!({"road": "18:SW", "moved_to": "18:SE"}))).unwrap();
    assert_eq!(s.road_owner(s.board.edge("18:SE").unwrap()), Some(0));
    assert_eq!(s.players[0].roads, 1);
}

#[test]
fn intrigue_displaces_a_knight_by_the_players_road_without_a_knight() {
    let mut s = holding(Progress::Intrigue);
    road(&mut s, 0, "9:NE");
    road(&mut s, 1, "10:NW");
    road(&mut s, 1, "10:NE");
    knight(&mut s, 1, "9:NE", 3, true);
    knight(&mut s, 1, "4:N", 1, true);
    refused(&mut s, play("intrigue", json!({"at": "4:N"})), "none touches");
    refused(&mut s, play("intrigue", json!({"at": "9:NE", "displaced_to": "9:N"})), "cannot go to");
    act(&mut s, play("intrigue", json!({"at": "9:NE", "displaced_to": "10:NE"}))).unwrap();
    assert!(s.knight(v(&s, "9:NE")).is_none());
    assert_eq!(s.knight(v(&s, "10:NE")).unwrap().level, 3);
}

#[test]
fn saboteur_halves_the_hands_of_everyone_with_as_many_points() {
    let mut s = holding(Progress::Saboteur);
    settlement(&mut s, 0, "0:N");
    settlement(&mut s, 1, "2:N");
    give(&mut s, 1, json!({"ore": 5}));
    give(&mut s, 2, json!({"grain": 4}));
    refused(&mut s, play("saboteur", json!({})), "takes cards from B; the event names nobody");
    refused(
        &mut s,
        play("saboteur", json!({"discards": {"B": {"ore": 2}, "C": {"grain": 2}}})),
        "the event names B, C",
    );
    refused(&mut s, play("saboteur", json!({"discards": {"B": {"ore": 3}}})), "gives 2 cards, not 3");
    act(&mut s, play("saboteur", json!({"discards": {"B": {"ore": 2}}}))).unwrap();
    assert_eq!(s.players[1].hand.total(), 3);
    assert_eq!(s.players[2].hand.total(), 4, "C has fewer points than A");
}

#[test]
fn spy_takes_a_progress_card_but_never_a_victory_point() {
    let mut s = holding(Progress::Spy);
    hold(&mut s, 1, Progress::Crane);
    refused(&mut s, play("spy", json!({"victim": "B", "taken": "smith"})), "holds no smith");
    refused(&mut s, play("spy", json!({"victim": "A", "taken": "crane"})), "from an opponent");
    act(&mut s, play("spy", json!({"victim": "B", "taken": "crane"}))).unwrap();
    assert!(s.players[0].progress.could_hold(Progress::Crane));
    assert!(s.players[1].progress.is_empty());
    let mut s = holding(Progress::Spy);
    s.players[1].progress.cards.push(HeldCard { track: Track::Trade, card: None });
    act(&mut s, play("spy", json!({"victim": "B", "taken": "unknown", "colour": "trade"}))).unwrap();
    assert_eq!(s.players[0].progress.cards, vec![HeldCard { track: Track::Trade, card: None }]);
}

#[test]
fn warlord_activates_every_knight_of_the_player_for_free() {
    let mut s = holding(Progress::Warlord);
    knight(&mut s, 0, "9:N", 1, false);
    knight(&mut s, 0, "9:S", 2, false);
    knight(&mut s, 1, "0:N", 1, false);
    act(&mut s, play("warlord", json!({}))).unwrap();
    assert_eq!(s.active_strength(0), 3);
    assert_eq!(s.active_strength(1), 0);
    assert_eq!(s.players[0].hand.total(), 0);
}

#[test]
fn wedding_brings_two_cards_from_each_player_with_more_points() {
    let mut s = holding(Progress::Wedding);
    city(&mut s, 1, "0:N");
    city(&mut s, 2, "2:N");
    give(&mut s, 1, json!({"ore": 3}));
    give(&mut s, 2, json!({"coin": 1}));
    refused(&mut s, play("wedding", json!({"given": {"B": {"ore": 2}}})), "from B, C");
    refused(&mut s, play("wedding", json!({"given": {"B": {"ore": 1}, "C": {"coin": 1}}})), "gives 2 cards, not 1");
    act(&mut s, play("wedding", json!({"given": {"B": {"ore": 2}, "C": {"coin": 1}}}))).unwrap();
    assert_eq!(s.players[0].hand.total(), 3);
}

#[test]
fn commercial_harbor_swaps_a_resource_for_a_commodity_once_per_opponent() {
    let mut s = holding(Progress::CommercialHarbor);
    give(&mut s, 0, json!({"ore": 2}));
    give(&mut s, 1, json!({"cloth": 1}));
    give(&mut s, 2, json!({"grain": 1}));
    let line = |offers: Value| play("commercial_harbor", json!({"offers": offers}));
    refused(&mut s, line(json!([{"with": "B", "give": "ore"}])), "holds a commodity");
    refused(
        &mut s,
        line(json!([{"with": "B", "give": "ore", "get": "cloth"}, {"with": "B", "give": "ore", "get": "cloth"}])),
        "this turn already",
    );
    refused(&mut s, line(json!([{"with": "C", "give": "ore", "get": "coin"}])), "no coin");
    act(&mut s, line(json!([{"with": "B", "give": "ore", "get": "cloth"}, {"with": "C", "give": "ore"}]))).unwrap();
    assert_eq!((s.players[0].hand.known[CLOTH], s.players[0].hand.known[ORE]), (1, 1));
}

#[test]
fn master_merchant_takes_two_cards_from_a_player_with_more_points() {
    let mut s = holding(Progress::MasterMerchant);
    give(&mut s, 1, json!({"coin": 3}));
    refused(&mut s, play("master_merchant", json!({"victim": "B", "taken": {"coin": 2}})), "more points");
    city(&mut s, 1, "0:N");
    refused(&mut s, play("master_merchant", json!({"victim": "B", "taken": {"coin": 1}})), "gives 2 cards, not 1");
    act(&mut s, play("master_merchant", json!({"victim": "B", "taken": {"coin": 2}}))).unwrap();
    assert_eq!(s.players[0].hand.known[COIN], 2);
}

#[test]
fn the_merchant_stands_by_the_players_building_and_is_worth_a_point() {
    let mut s = holding(Progress::Merchant);
    hold(&mut s, 1, Progress::Merchant);
    settlement(&mut s, 0, "0:N");
    refused(&mut s, play("merchant", json!({"hex": 5})), "has none");
    let facts = act(&mut s, play("merchant", json!({"hex": 0}))).unwrap();
    assert!(facts.contains(&Fact::Award { award: "merchant", from: None, to: Some(0) }));
    assert_eq!(s.vp(0), 2);
    s.active = 1;
    settlement(&mut s, 1, "9:S");
    refused(&mut s, json!({"type": "play_progress", "player": "B", "card": "merchant", "hex": 9}), "yields a resource");
    act(&mut s, json!({"type": "play_progress", "player": "B", "card": "merchant", "hex": 13})).unwrap();
    assert_eq!((s.vp(0), s.vp(1)), (1, 2), "the next Merchant takes it over");
}

#[test]
fn merchant_fleet_trades_one_kind_2_for_1_this_turn() {
    let mut s = holding(Progress::MerchantFleet);
    give(&mut s, 0, json!({"coin": 2}));
    refused(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"coin": 2}, "get": {"ore": 1}}), "4:1");
    act(&mut s, play("merchant_fleet", json!({"resource": "coin"}))).unwrap();
    act(&mut s, json!({"type": "maritime_trade", "player": "A", "give": {"coin": 2}, "get": {"ore": 1}})).unwrap();
    act(&mut s, json!({"type": "end_turn", "player": "A"})).unwrap();
    assert_eq!(s.merchant_fleet, None, "for this turn only");
}

#[test]
fn resource_monopoly_takes_up_to_two_from_each_opponent() {
    let mut s = holding(Progress::ResourceMonopoly);
    give(&mut s, 1, json!({"ore": 3}));
    give(&mut s, 2, json!({"ore": 1}));
    act(&mut s, play("resource_monopoly", json!({"resource": "ore"}))).unwrap();
    assert_eq!(s.players[0].hand.known[ORE], 3);
    let mut s = holding(Progress::ResourceMonopoly);
    give(&mut s, 1, json!({"ore": 3}));
    refused(&mut s, play("resource_monopoly", json!({"resource": "ore", "taken": {"B": 3}})), "at most 2");
    refused(&mut s, play("resource_monopoly", json!({"resource": "ore", "taken": {"B": 1}})), "gives 2, not 1");
    refused(&mut s, play("resource_monopoly", json!({"resource": "coin"})), "not a resource");
}

#[test]
fn trade_monopoly_takes_one_commodity_from_each_opponent_and_asks_when_hands_are_unknown() {
    let mut s = holding(Progress::TradeMonopoly);
    give(&mut s, 1, json!({"coin": 2}));
    s.players[2].hand.unknown = 2;
    refused(&mut s, play("trade_monopoly", json!({"commodity": "coin"})), "says how many");
    act(&mut s, play("trade_monopoly", json!({"commodity": "coin", "taken": {"B": 1, "C": 1}}))).unwrap();
    assert_eq!(s.players[0].hand.known[COIN], 2);
    assert_eq!((s.players[1].hand.total(), s.players[2].hand.total()), (1, 1));
}

#[test]
fn printer_and_constitution_are_shown_when_drawn_and_score_a_point() {
    let mut s = state(&["A", "B", "C"]);
    s.phase = Phase::BeforeRoll;
    s.players[1].levels = [0, 1, 1];
    let roll = |gate: &str, card: &str| json!({"type": "roll", "player": "A", "event": gate, "dice": [1, 6], "drawn": [{"player": "B", "card": card}]});
    act(&mut s, roll("politics", "constitution")).unwrap();
    s.phase = Phase::BeforeRoll;
    refused(&mut s, roll("politics", "constitution"), "already in players' hands");
    act(&mut s, roll("science", "printer")).unwrap();
    assert_eq!(s.vp(1), 2);
    assert!(s.players[1].progress.is_empty(), "shown, not held");
}
