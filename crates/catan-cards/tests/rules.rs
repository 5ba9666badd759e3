//! The rules of the rule source (`seeds/003`), one test each, through log lines as users write them: the
//! turn, the harvest, trading, building, the road trade, events and the Robber, the special cards, the end,
//! and the decks a header may declare. The rule source's four "common mistakes" each have a test named
//! after the mistake.

use almanac_catan::resources::{Hand, Resources};
use almanac_catan_cards::state::Phase;
use almanac_catan_cards::{CatanCards, Event, State};
use almanac_core::Seated;
use almanac_core::{Fact, Ruleset};
use serde_json::{json, Value};

/// A game at the table, fed one log line at a time; a rejected line changes nothing.
struct Table {
    s: State,
}

const A: &str = "Ayşe";
const B: &str = "Bora";
const C: &str = "Cem";

fn header(players: &[&str]) -> Value {
    json!({
        "format": "almanac/1", "ruleset": "catan-cards",
        "players": players.iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        "row": ["settlement", "settlement", "knight", "road", "city"],
    })
}

impl Table {
    fn new(header: Value) -> Table {
        Table { s: CatanCards::initial(&header.to_string()).unwrap_or_else(|e| panic!("{e}")) }
    }

    fn two() -> Table {
        Table::new(header(&[A, B]))
    }

    fn play(&mut self, line: Value) -> Result<Vec<Fact>, String> {
        let ev = <Event as almanac_core::Line>::parse(&self.s, &line.to_string()).map_err(|e| e.to_string())?;
        let mut next = self.s.clone();
        let mut facts = Vec::new();
        CatanCards::apply(&mut next, &ev, &mut facts).map_err(|v| v.to_string())?;
        self.s = next;
        Ok(facts)
    }

    #[track_caller]
    fn ok(&mut self, line: Value) -> Vec<Fact> {
        let text = line.to_string();
        self.play(line).unwrap_or_else(|e| panic!("{text} was rejected: {e}"))
    }

    #[track_caller]
    fn err(&mut self, line: Value) -> String {
        let before = format!("{:?}", self.s);
        let text = line.to_string();
        let e = self.play(line).err().unwrap_or_else(|| panic!("{text} was accepted"));
        assert_eq!(format!("{:?}", self.s), before, "a rejected line changes nothing");
        e
    }

    /// Sets what a player holds, all cards seen.
    fn hand(&mut self, seat: usize, cards: Resources) {
        self.s.players[seat].hand = Hand { known: cards, unknown: 0 };
    }

    /// The harvest of the turn: every player draws what they are due, all of one resource.
    fn harvest(&mut self, resource: &str) -> Vec<Fact> {
        let draws: serde_json::Map<String, Value> = self
            .s
            .seats()
            .map(|seat| (self.s.name(seat).to_string(), json!({ resource: self.s.harvest(seat) })))
            .collect();
        let player = self.s.name(self.s.active).to_string();
        self.ok(json!({"type": "harvest", "player": player, "draws": draws}))
    }

    fn end_turn(&mut self) {
        let player = self.s.name(self.s.active).to_string();
        self.ok(json!({"type": "end_turn", "player": player}));
    }

    fn build(&mut self, card: &str) -> Result<Vec<Fact>, String> {
        let player = self.s.name(self.s.active).to_string();
        let mut line = json!({"type": "build", "player": player, "card": card});
        if card == "settlement" {
            line["event"] = json!("good_harvest");
        }
        self.play(line)
    }
}

fn all(n: u8) -> Resources {
    Resources::each(n)
}

fn contains(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "`{haystack}` does not say `{needle}`");
}

// --- Setup ---

#[test]
fn everyone_starts_with_a_settlement_a_road_two_cards_and_one_point() {
    let t = Table::new(header(&[A, B, C]));
    for seat in t.s.seats() {
        let p = &t.s.players[seat as usize];
        assert_eq!((p.settlements, p.roads, p.hand.total()), (1, 1, 2));
        assert_eq!(t.s.vp(seat), 1);
    }
    assert_eq!(t.s.metropolises_left, 4);
    assert_eq!((t.s.active, t.s.phase), (0, Phase::Harvest), "the first seat holds the start player's settlement");
}

#[test]
fn the_game_is_for_two_to_four_players_with_five_open_cards() {
    for players in [&[A][..], &[A, B, C, "Deniz", "Ece"][..]] {
        let e = CatanCards::initial(&(header(players)).to_string()).unwrap_err().to_string();
        contains(&e, "2 to 4 players");
    }
    let mut h = header(&[A, B]);
    h["row"] = json!(["road", "road", "knight", "city"]);
    contains(&CatanCards::initial(&h.to_string()).unwrap_err().to_string(), "5 open cards");
    h["row"] = json!(["road", "road", "knight", "city", "metropolis"]);
    contains(&CatanCards::initial(&h.to_string()).unwrap_err().to_string(), "stack of their own");
    h["row"] = json!(["road", "road", "knight", "city", "city"]);
    h["metropolis"] = json!("C");
    contains(&CatanCards::initial(&h.to_string()).unwrap_err().to_string(), "A or B");
    h["metropolis"] = json!("A");
    h["hands"] = json!({A: {"ore": 3}});
    contains(&CatanCards::initial(&h.to_string()).unwrap_err().to_string(), "dealt 2 resource cards, not 3");
}

// --- The turn and the harvest ---

#[test]
fn mistake_only_the_active_player_harvests() {
    let mut t = Table::new(header(&[A, B, C]));
    let e = t.err(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 1}}}));
    contains(&e, "everyone draws 1 resource at the harvest");
    let facts =
        t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 1}, B: {"wool": 1}, C: {"unknown": 1}}}));
    let gained: Vec<(u8, &str)> = facts
        .iter()
        .filter_map(|f| if let Fact::Gained { player, item, .. } = f { Some((*player, *item)) } else { None })
        .collect();
    assert_eq!(gained, [(0, "ore"), (1, "wool"), (2, "unknown")], "drawn from the active player on");
}

#[test]
fn the_active_player_draws_one_more_per_city_and_two_more_per_a_side_metropolis() {
    let mut t = Table::two();
    // The starting settlement lies under a city, itself under a metropolis; a second city (5 VP in all).
    t.s.players[0].settlements = 0;
    t.s.players[0].cities = 1;
    t.s.players[0].metropolises = 1;
    let e = t.err(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 3}, B: {"ore": 1}}}));
    contains(&e, "Ayşe draws 4");
    t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 4}, B: {"ore": 1}}}));
    // The other players' cities give nothing in someone else's turn.
    t.end_turn();
    let e = t.err(json!({"type": "harvest", "player": B, "draws": {A: {"ore": 4}, B: {"ore": 1}}}));
    contains(&e, "Ayşe draws 1");
}

#[test]
fn the_b_side_metropolis_gives_no_harvest_bonus() {
    let mut h = header(&[A, B]);
    h["metropolis"] = json!("B");
    let mut t = Table::new(h);
    t.s.players[0].metropolises = 1;
    t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 1}, B: {"ore": 1}}}));
}

#[test]
fn each_turn_opens_with_one_harvest_and_passes_to_the_next_seat() {
    let mut t = Table::two();
    contains(&t.err(json!({"type": "end_turn", "player": A})), "begins with the harvest");
    contains(&t.err(json!({"type": "harvest", "player": B, "draws": {A: {"ore": 1}, B: {"ore": 1}}})), "Ayşe's turn");
    t.harvest("ore");
    contains(
        &t.err(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 1}, B: {"ore": 1}}})),
        "already harvested",
    );
    contains(&t.err(json!({"type": "end_turn", "player": B})), "Ayşe's turn");
    t.end_turn();
    assert_eq!((t.s.active, t.s.turn, t.s.phase), (1, 2, Phase::Harvest));
    t.harvest("ore");
    t.end_turn();
    assert_eq!(t.s.active, 0, "back to the first seat");
}

// --- Trading ---

#[test]
fn one_trade_a_turn_with_one_player_and_the_partner_draws_a_free_card() {
    let mut t = Table::new(header(&[A, B, C]));
    t.harvest("wool");
    t.hand(0, Resources::new(0, 0, 2, 0, 0));
    t.hand(1, Resources::new(0, 0, 0, 0, 2));
    let facts = t
        .ok(json!({"type": "trade", "player": A, "with": B, "give": {"wool": 2}, "get": {"ore": 1}, "bonus": "grain"}));
    assert_eq!(t.s.players[0].hand.known, Resources::new(0, 0, 0, 0, 1));
    assert_eq!(t.s.players[1].hand.known, Resources::new(0, 0, 2, 1, 1), "the free ratio, and the free grain");
    assert!(facts.iter().any(|f| matches!(f, Fact::Gained { player: 1, item: "grain", cause: "trade_bonus", .. })));
    t.hand(2, Resources::new(0, 0, 0, 1, 0));
    let e = t
        .err(json!({"type": "trade", "player": A, "with": C, "give": {"ore": 1}, "get": {"grain": 1}, "bonus": "ore"}));
    contains(&e, "already traded this turn");
}

#[test]
fn a_trade_gives_something_for_something_different() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, Resources::new(1, 0, 1, 0, 0));
    t.hand(1, Resources::new(0, 0, 1, 0, 1));
    let gift = t.err(json!({"type": "trade", "player": A, "with": B, "give": {"wool": 1}, "get": {}, "bonus": "ore"}));
    contains(&gift, "gifts are not allowed");
    let same = t
        .err(json!({"type": "trade", "player": A, "with": B, "give": {"wool": 1}, "get": {"wool": 1}, "bonus": "ore"}));
    contains(&same, "like for like");
    let mixed = t.err(json!({"type": "trade", "player": A, "with": B, "give": {"wool": 1, "lumber": 1}, "get": {"wool": 1, "ore": 1}, "bonus": "ore"}));
    contains(&mixed, "like for like");
    let short = t.err(
        json!({"type": "trade", "player": A, "with": B, "give": {"lumber": 1}, "get": {"ore": 2}, "bonus": "ore"}),
    );
    contains(&short, "Bora cannot give");
    contains(
        &t.err(
            json!({"type": "trade", "player": A, "with": A, "give": {"lumber": 1}, "get": {"ore": 1}, "bonus": "ore"}),
        ),
        "themselves",
    );
    contains(
        &t.err(json!({"type": "trade", "player": A, "with": B, "give": {"lumber": 1}, "get": {"ore": 1}})),
        "name it in `bonus`",
    );
    t.ok(
        json!({"type": "trade", "player": A, "with": B, "give": {"lumber": 1}, "get": {"ore": 1}, "bonus": "unknown"}),
    );
}

#[test]
fn mistake_trading_four_for_one_with_the_bank_at_any_time() {
    let mut t = Table::two();
    t.harvest("wool");
    let e = t.err(json!({"type": "bank_trade", "player": A, "give": {"wool": 4}, "get": {"ore": 1}}));
    contains(&e, "only while building, once a turn");
}

// --- Building ---

#[test]
fn mistake_building_only_one_card_a_turn() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, Resources::new(2, 2, 2, 2, 1));
    t.build("road").unwrap();
    t.build("knight").unwrap();
    t.build("road").unwrap_err(); // the row held one road (and no refill is known)
    t.build("settlement").unwrap();
    let p = &t.s.players[0];
    assert_eq!((p.roads, p.knights, p.settlements), (2, 1, 2));
    assert!(p.hand.known.is_empty());
}

#[test]
fn costs_are_those_of_the_rule_source() {
    // Road brick+lumber, settlement +wool+grain, city 2 grain+3 ore, metropolis 3 wool+1 ore, knight wool+grain+ore.
    for (card, cost) in [
        ("road", Resources::new(1, 1, 0, 0, 0)),
        ("settlement", Resources::new(1, 1, 1, 1, 0)),
        ("city", Resources::new(0, 0, 0, 2, 3)),
        ("metropolis", Resources::new(0, 0, 3, 0, 1)),
        ("knight", Resources::new(0, 0, 1, 1, 1)),
    ] {
        let mut t = Table::two();
        t.harvest("wool");
        t.s.players[0].cities = 1;
        for r in almanac_catan::resources::Resource::ALL {
            if cost[r] > 0 {
                let mut less = cost;
                less[r] -= 1;
                t.hand(0, less);
                contains(&t.build(card).unwrap_err(), &format!("cannot pay for a {card}"));
            }
        }
        t.hand(0, cost);
        t.build(card).unwrap_or_else(|e| panic!("{card}: {e}"));
        assert!(t.s.players[0].hand.known.is_empty(), "{card} costs exactly its price");
    }
}

#[test]
fn only_cards_of_the_open_row_or_the_metropolis_stack_are_built() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, all(9));
    t.build("road").unwrap();
    let e = t.build("road").unwrap_err();
    contains(&e, "no road card lies in the open row");
    t.s.metropolises_left = 0;
    t.s.players[0].cities = 1;
    contains(&t.build("metropolis").unwrap_err(), "all four Metropolis cards are built");
    contains(&t.err(json!({"type": "build", "player": B, "card": "knight"})), "Ayşe's turn");
}

#[test]
fn a_city_covers_a_settlement_and_a_metropolis_covers_a_city() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, all(9));
    contains(
        &t.build("metropolis").unwrap_err(),
        "a metropolis is laid on one of your cities, and Ayşe has none uncovered",
    );
    let facts = t.build("city").unwrap();
    let p = &t.s.players[0];
    assert_eq!((p.settlements, p.cities), (0, 1), "the starting settlement lies under the city");
    assert_eq!(t.s.vp(0), 2, "a covered card no longer counts");
    let deltas: Vec<i32> =
        facts.iter().filter_map(|f| if let Fact::Score { delta, .. } = f { Some(*delta) } else { None }).collect();
    assert_eq!(deltas, [2, -1]);
    t.build("metropolis").unwrap();
    assert_eq!((t.s.players[0].cities, t.s.players[0].metropolises, t.s.vp(0)), (0, 1, 3));
    assert_eq!(t.s.metropolises_left, 3);
    t.hand(0, all(9));
    contains(&t.build("city").unwrap_err(), "no city card lies in the open row");
}

#[test]
fn a_settlement_reveals_an_event_card_and_nothing_else_does() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, all(3));
    let e = t.err(json!({"type": "build", "player": A, "card": "settlement"}));
    contains(&e, "reveals an event card at once");
    let e = t.err(json!({"type": "build", "player": A, "card": "road", "event": "robber"}));
    contains(&e, "only when someone builds a settlement");
    t.ok(json!({"type": "build", "player": A, "card": "settlement", "event": "market_day"}));
}

#[test]
fn an_event_does_what_the_log_says_and_only_with_cards_that_exist() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, Resources::new(1, 1, 1, 1, 0));
    t.hand(1, Resources::new(0, 0, 0, 0, 1));
    let too_much =
        json!({"type": "build", "player": A, "card": "settlement", "event": "thieves", "effect": {B: {"ore": -2}}});
    contains(&t.err(too_much), "takes 2 ore from Bora");
    let facts = t.ok(json!({
        "type": "build", "player": A, "card": "settlement", "event": "thieves", "effect": {B: {"ore": -1, "grain": 1}}
    }));
    assert_eq!(t.s.players[1].hand.known, Resources::new(0, 0, 0, 1, 0));
    assert!(facts.iter().any(|f| matches!(f, Fact::Lost { player: 1, item: "ore", cause: "event", .. })));
}

// --- The road trade ---

#[test]
fn the_road_trade_rate_follows_the_roads_starting_road_included() {
    // A knight (wool, grain, ore) with the ore missing, paid in lumber at 4:1, 3:1, 2:1 and 1:1.
    for (roads, rate) in [(1, 4), (2, 3), (3, 2), (4, 1), (6, 1)] {
        let mut t = Table::two();
        t.harvest("wool");
        t.s.players[0].roads = roads;
        let line = json!({"type": "build", "player": A, "card": "knight", "road_trade": {"give": "lumber", "instead_of": "ore"}});
        t.hand(0, Resources::new(rate - 1, 0, 1, 1, 0));
        contains(&t.err(line.clone()), "cannot pay for a knight");
        t.hand(0, Resources::new(rate, 0, 1, 1, 0));
        t.ok(line);
        assert!(t.s.players[0].hand.known.is_empty(), "{roads} roads: {rate} lumber for the ore");
    }
}

#[test]
fn the_road_trade_replaces_one_missing_resource_once_a_turn() {
    let mut t = Table::two();
    t.harvest("wool");
    t.s.players[0].roads = 4;
    t.hand(0, Resources::new(3, 0, 2, 2, 1));
    let held =
        json!({"type": "build", "player": A, "card": "knight", "road_trade": {"give": "lumber", "instead_of": "ore"}});
    contains(&t.err(held), "replaces a missing resource");
    let not_in_cost = json!({"type": "build", "player": A, "card": "knight", "road_trade": {"give": "lumber", "instead_of": "brick"}});
    contains(&t.err(not_in_cost), "brick is not one");
    t.hand(0, Resources::new(3, 0, 2, 2, 0));
    t.ok(
        json!({"type": "build", "player": A, "card": "knight", "road_trade": {"give": "lumber", "instead_of": "ore"}}),
    );
    t.s.row.push(almanac_catan_cards::cards::Card::Knight);
    let again =
        json!({"type": "build", "player": A, "card": "knight", "road_trade": {"give": "lumber", "instead_of": "ore"}});
    contains(&t.err(again), "already used the road trade this turn");
    t.end_turn();
    t.harvest("wool");
    t.end_turn();
    t.harvest("ore");
    assert!(!t.s.road_traded, "a new turn, a new road trade");
}

// --- Special cards, points and the end ---

#[test]
fn mistake_base_game_numbers_longest_road_at_three_roads() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, all(9));
    t.s.row = vec![almanac_catan_cards::cards::Card::Road; 5];
    t.build("road").unwrap();
    assert_eq!(t.s.longest_road, None, "two roads are not enough");
    let facts = t.build("road").unwrap();
    assert_eq!(t.s.longest_road, Some(0), "the first to three roads, the starting road counted");
    assert!(facts.iter().any(|f| matches!(f, Fact::Award { award: "longest_road", from: None, to: Some(0) })));
    assert_eq!(t.s.vp(0), 3);
    t.end_turn();
    t.harvest("wool");
    t.hand(1, all(9));
    t.s.row = vec![almanac_catan_cards::cards::Card::Road; 5];
    t.build("road").unwrap();
    t.build("road").unwrap();
    assert_eq!(t.s.longest_road, Some(0), "as many roads is not more");
    let facts = t.build("road").unwrap();
    assert_eq!(t.s.longest_road, Some(1), "strictly more takes the card");
    assert_eq!((t.s.vp(0), t.s.vp(1)), (1, 3));
    assert!(facts.iter().any(|f| matches!(f, Fact::Score { player: 0, delta: -2, .. })));
}

#[test]
fn mistake_base_game_numbers_largest_army_at_two_knights() {
    let mut t = Table::two();
    t.harvest("wool");
    t.hand(0, all(9));
    t.s.row = vec![almanac_catan_cards::cards::Card::Knight; 5];
    t.build("knight").unwrap();
    assert_eq!(t.s.largest_army, None);
    t.build("knight").unwrap();
    assert_eq!(t.s.largest_army, Some(0), "the first to two knights");
    assert_eq!(t.s.vp(0), 3);
}

#[test]
fn mistake_base_game_numbers_seven_points_win_at_once() {
    let mut t = Table::two();
    t.harvest("wool");
    // 1 settlement + 2 cities = 5 VP; a third city makes 7.
    t.s.players[0].settlements = 2;
    t.s.players[0].cities = 2;
    assert_eq!(t.s.vp(0), 6);
    t.hand(0, all(9));
    let facts = t.build("city").unwrap();
    assert_eq!(t.s.vp(0), 7);
    assert_eq!(t.s.winner, Some(0));
    assert!(facts.iter().any(|f| matches!(f, Fact::GameOver { winner: Some(0) })));
    contains(&t.err(json!({"type": "end_turn", "player": A})), "the game is over: Ayşe won with 7 VP");
}

// --- Events: the Robber ---

#[test]
fn the_robber_makes_big_hands_discard_half_rounded_down_each_knight_raising_the_limit() {
    let mut t = Table::new(header(&[A, B, C]));
    t.harvest("wool");
    t.hand(0, Resources::new(1, 1, 1, 1, 4)); // 4 left after the settlement: safe
    t.hand(1, Resources::new(9, 0, 0, 0, 0)); // 9: discards 4
    t.hand(2, Resources::new(0, 0, 0, 0, 8)); // 8 with a knight: the limit is 8, safe
    t.s.players[2].knights = 1;
    t.ok(json!({"type": "build", "player": A, "card": "settlement", "event": "robber"}));
    assert_eq!(t.s.phase, Phase::Discard);
    assert_eq!(t.s.must_discard, [0, 4, 0]);
    contains(&t.err(json!({"type": "end_turn", "player": A})), "Bora (4 cards) must discard first");
    contains(&t.err(json!({"type": "discard", "player": C, "cards": {"ore": 4}})), "has nothing to discard");
    contains(
        &t.err(json!({"type": "discard", "player": B, "cards": {"lumber": 5}})),
        "must discard 4 (half, rounded down), not 5",
    );
    t.ok(json!({"type": "discard", "player": B, "cards": {"lumber": 4}}));
    assert_eq!(t.s.phase, Phase::Play, "the turn goes on");
    t.end_turn();
}

#[test]
fn the_robber_spares_a_hand_of_seven_and_halves_a_hand_of_eight() {
    let mut t = Table::new(header(&[A, B, C]));
    t.harvest("wool");
    t.hand(0, Resources::new(1, 1, 1, 1, 0));
    t.hand(1, Resources::new(7, 0, 0, 0, 0));
    t.hand(2, Resources::new(0, 8, 0, 0, 0));
    t.ok(json!({"type": "build", "player": A, "card": "settlement", "event": "robber"}));
    assert_eq!(t.s.must_discard, [0, 0, 4], "more than 7, not 7 or more");
    contains(&t.err(json!({"type": "discard", "player": B, "cards": {"lumber": 3}})), "Bora has nothing to discard");
    t.ok(json!({"type": "discard", "player": C, "cards": {"brick": 4}}));
    assert_eq!(t.s.phase, Phase::Play, "no other hand limit");
    contains(&t.err(json!({"type": "discard", "player": B, "cards": {"lumber": 3}})), "no Robber is waiting");
}

// --- Declared decks ---

fn with_decks(resources: Value) -> Table {
    let mut h = header(&[A, B]);
    h["hands"] = json!({A: {"ore": 2}, B: {"wool": 2}});
    h["decks"] = json!({
        "resources": resources,
        "buildings": {"road": 2, "settlement": 2, "knight": 1, "city": 1},
        "events": {"robber": 1, "market_day": 1},
    });
    Table::new(h)
}

#[test]
fn no_card_comes_from_nowhere() {
    let mut t = with_decks(json!({"lumber": 2, "brick": 2, "wool": 3, "grain": 2, "ore": 2}));
    let e = t.err(json!({"type": "harvest", "player": A, "draws": {A: {"ore": 1}, B: {"wool": 1}}}));
    contains(&e, "3 ore cards are in hands, but the deck holds 2");
    t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"lumber": 1}, B: {"wool": 1}}}));
}

#[test]
fn the_row_is_refilled_from_the_declared_deck() {
    let mut t = with_decks(json!({"lumber": 9, "brick": 9, "wool": 9, "grain": 9, "ore": 9}));
    t.harvest("lumber");
    t.hand(0, all(5));
    contains(&t.build("road").unwrap_err(), "name the `refill` card");
    let knight = json!({"type": "build", "player": A, "card": "road", "refill": "knight"});
    contains(&t.err(knight), "holds 1 knight cards, and all are out");
    let metropolis = json!({"type": "build", "player": A, "card": "road", "refill": "metropolis"});
    contains(&t.err(metropolis), "never lies in the row");
    t.ok(json!({"type": "build", "player": A, "card": "road", "refill": "road"}));
    // The deck is now spent (2 roads, 2 settlements, 1 knight, 1 city all out): the row shrinks.
    t.ok(json!({"type": "build", "player": A, "card": "road"}));
    assert_eq!(t.s.row.len(), 4);
    let from_stack = json!({"type": "build", "player": A, "card": "metropolis", "refill": "road"});
    contains(&t.err(from_stack), "comes from its own stack");
}

#[test]
fn the_event_deck_holds_what_it_declares_and_is_shuffled_again_when_spent() {
    let mut h = header(&[A, B]);
    h["decks"] = json!({"events": {"robber": 1, "market_day": 1}});
    let mut t = Table::new(h);
    t.harvest("lumber");
    t.s.row = vec![almanac_catan_cards::cards::Card::Settlement; 5];
    let settle = |event: &str| json!({"type": "build", "player": A, "card": "settlement", "event": event});
    t.hand(0, all(3));
    contains(&t.err(settle("thieves")), "holds 0 `thieves` card(s)");
    t.ok(settle("market_day"));
    contains(&t.err(settle("market_day")), "holds 1 `market_day` card(s), and 1 are out");
    t.ok(settle("robber"));
    // Both cards are out: the deck is shuffled, and a market day may come again.
    t.ok(settle("market_day"));
}

#[test]
fn when_the_deck_and_its_discards_are_spent_draws_stop_in_order() {
    // 10 cards in the game: 4 in the starting hands, 6 left.
    let mut t = with_decks(json!({"lumber": 2, "brick": 0, "wool": 4, "grain": 0, "ore": 4}));
    t.s.players[0].settlements = 0;
    t.s.players[0].cities = 3; // Ayşe is due 4, Bora 1 (and 6 VP: no winner yet).
    t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"lumber": 2, "ore": 2}, B: {"wool": 1}}}));
    t.end_turn();
    // One card left, and Bora, whose turn it is, draws first.
    let wrong = json!({"type": "harvest", "player": B, "draws": {A: {"wool": 1}, B: {}}});
    contains(&t.err(wrong), "only 1 resource cards are left in the deck and its discard pile");
    t.ok(json!({"type": "harvest", "player": B, "draws": {A: {}, B: {"wool": 1}}}));
    // None left: a trade's free card cannot be drawn, and the log leaves it out.
    let bonus =
        json!({"type": "trade", "player": B, "with": A, "give": {"wool": 1}, "get": {"ore": 1}, "bonus": "unknown"});
    contains(&t.err(bonus), "no card comes from nowhere");
    t.ok(json!({"type": "trade", "player": B, "with": A, "give": {"wool": 1}, "get": {"ore": 1}}));
    // Spent cards come back through the discard pile: the knight's 2 wool and 1 ore are drawn again.
    t.s.players[1].roads = 4;
    t.ok(json!({"type": "build", "player": B, "card": "knight", "refill": "road", "road_trade": {"give": "wool", "instead_of": "grain"}}));
    t.end_turn();
    let too_many = json!({"type": "harvest", "player": A, "draws": {A: {"wool": 1, "ore": 1}, B: {"ore": 1}}});
    contains(&t.err(too_many), "5 ore cards are in hands, but the deck holds 4");
    t.ok(json!({"type": "harvest", "player": A, "draws": {A: {"wool": 1, "ore": 1}, B: {"wool": 1}}}));
}
