//! Rules that are easiest to check on a state built by hand: longest road, largest army, the bank.
use crate::board::{Board, BoardSpec, EdgeId, Harbour};
use crate::development::DevCard;
use crate::event::Event;
use crate::pieces::Building;
use crate::resources::{Bundle, Resource, ResourceCard};
use crate::rules::apply;
use crate::rules::points::update_longest_road;
use crate::state::{BankShortage, Options, Phase, State};
use crate::vocabulary::HARBOUR_2;
use almanac_core::{Fact, Partner, Seat};

fn state(options: Options) -> State {
    let spec: BoardSpec = serde_json::from_str(include_str!("../../tests/beginner-board.json")).unwrap();
    let seating = almanac_core::Table::named(&["Ana", "Bo", "Cem"]);
    let mut s = State::new(Board::from_spec(&spec).unwrap(), options, seating).unwrap();
    s.phase = Phase::Main;
    s.turn = 1;
    s
}

/// Gives player `p` roads on sides `sides` of hex `hex`.
fn roads(s: &mut State, p: Seat, hex: usize, sides: &[usize]) {
    for &side in sides {
        let e = s.board.hexes[hex].sides[side];
        s.roads[e as usize] = Some(p);
        s.players[p as usize].roads += 1;
    }
}

fn award(s: &mut State) -> Vec<Fact> {
    let mut facts = Vec::new();
    update_longest_road(s, &[0, 1, 2], &mut facts);
    facts
}

#[test]
fn longest_road_needs_five_and_a_rival_needs_strictly_more() {
    let mut s = state(Options::default());
    roads(&mut s, 0, 0, &[0, 1, 2, 3]);
    award(&mut s);
    assert_eq!(s.longest_road, None, "4 segments are not enough");
    roads(&mut s, 0, 0, &[4]);
    let facts = award(&mut s);
    assert_eq!(s.longest_road, Some(0));
    assert!(facts.contains(&Fact::Award { award: "longest_road", from: None, to: Some(0) }));
    assert_eq!(s.vp_public(0), 2);
    roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]);
    award(&mut s);
    assert_eq!(s.longest_road, Some(0), "a tie keeps the holder");
    roads(&mut s, 1, 18, &[5]);
    award(&mut s);
    assert_eq!(s.players[1].road_length, 6);
    assert_eq!(s.longest_road, Some(1), "6 beats 5");
    assert_eq!(s.vp_public(0), 0);
    assert_eq!(s.vp_public(1), 2);
}

#[test]
fn a_branch_counts_only_its_longest_single_line() {
    let mut s = state(Options::default());
    // 9:N -> 9:NE -> 9:SE -> 9:S -> 13:N is a line of 4 ...
    roads(&mut s, 0, 9, &[0, 1, 2]);
    roads(&mut s, 0, 13, &[0]);
    award(&mut s);
    assert_eq!(s.players[0].road_length, 4);
    // ... and a spur at 9:NE (10:NW) makes 5 roads but no longer line.
    roads(&mut s, 0, 10, &[5]);
    award(&mut s);
    assert_eq!(s.players[0].roads, 5);
    assert_eq!(s.players[0].road_length, 4);
    assert_eq!(s.longest_road, None);
}

#[test]
fn a_settlement_cuts_a_road_and_the_card_moves_or_is_set_aside() {
    let mut s = state(Options::default());
    roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]); // Bo: a line of 5 around hex 18, from 18:N to 18:NW
    award(&mut s);
    assert_eq!(s.longest_road, Some(1));
    roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]); // Ana: 5, a tie: Bo keeps it
    award(&mut s);
    assert_eq!(s.longest_road, Some(1));
    // Cem settles at 18:S, the middle of Bo's line: Bo has 3 and 2 left; Ana is the single longest.
    let v = s.board.hexes[18].corners[3];
    s.buildings[v as usize] = Some(Building { owner: 2, city: false });
    award(&mut s);
    assert_eq!(s.players[1].road_length, 3);
    assert_eq!(s.longest_road, Some(0));

    // Again with Cem tied with Ana at 5: nobody single-longest, the card is set aside.
    let mut s = state(Options::default());
    roads(&mut s, 1, 18, &[0, 1, 2, 3, 4]);
    award(&mut s);
    roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]);
    roads(&mut s, 2, 2, &[0, 1, 2, 3, 4]);
    award(&mut s);
    let v = s.board.hexes[18].corners[3];
    s.buildings[v as usize] = Some(Building { owner: 2, city: false });
    let facts = award(&mut s);
    assert_eq!(s.longest_road, None);
    assert!(facts.contains(&Fact::Award { award: "longest_road", from: Some(1), to: None }));
}

#[test]
fn a_holder_cut_but_still_tied_for_longest_keeps_the_card() {
    let mut s = state(Options::default());
    roads(&mut s, 1, 18, &[0, 1, 2, 3, 4, 5]); // Bo: the ring of hex 18, 6
    roads(&mut s, 1, 17, &[0]); // and one more out of 18:NW... (17:NE is 18:W? no: a spur)
    award(&mut s);
    assert_eq!(s.longest_road, Some(1));
    roads(&mut s, 0, 0, &[0, 1, 2, 3, 4]);
    award(&mut s);
    // A settlement of Cem on Bo's ring leaves Bo at least 5: tied or longer, Bo keeps it.
    let v = s.board.hexes[18].corners[1];
    s.buildings[v as usize] = Some(Building { owner: 2, city: false });
    award(&mut s);
    assert!(s.players[1].road_length >= 5);
    assert_eq!(s.longest_road, Some(1));
}

fn roll(s: &mut State, p: Seat, dice: [u8; 2]) -> Vec<Fact> {
    s.phase = Phase::BeforeRoll;
    s.active = p;
    let mut facts = Vec::new();
    apply(s, &Event::Roll { player: p, dice: dice.into(), production: None }, &mut facts).unwrap();
    facts
}

#[test]
fn the_bank_pays_nobody_a_resource_it_cannot_pay_everyone() {
    // Ana and Bo both sit on forest 3 (hex 10); the bank has one lumber left.
    let settle = |s: &mut State| {
        let ana = s.board.hexes[10].corners[0];
        let bo = s.board.hexes[10].corners[4];
        s.buildings[ana as usize] = Some(Building { owner: 0, city: false });
        s.buildings[bo as usize] = Some(Building { owner: 1, city: false });
        s.bank[Resource::Lumber] = 1;
    };
    let mut s = state(Options::default());
    settle(&mut s);
    roll(&mut s, 0, [1, 2]);
    assert_eq!(
        (
            s.players[0].hand.known[Resource::Lumber],
            s.players[1].hand.known[Resource::Lumber],
            s.bank[Resource::Lumber]
        ),
        (0, 0, 1)
    );
}

#[test]
fn a_single_player_owed_gets_what_is_left_unless_the_option_says_nobody() {
    let setup = |options: Options| {
        let mut s = state(options);
        let ana = s.board.hexes[10].corners[0];
        s.buildings[ana as usize] = Some(Building { owner: 0, city: true }); // owed 2
        s.bank[Resource::Lumber] = 1;
        s
    };
    let mut s = setup(Options::default());
    roll(&mut s, 0, [1, 2]);
    assert_eq!((s.players[0].hand.known[Resource::Lumber], s.bank[Resource::Lumber]), (1, 0));
    let mut s = setup(Options { bank_shortage: BankShortage::NobodyPaid, ..Options::default() });
    roll(&mut s, 0, [1, 2]);
    assert_eq!((s.players[0].hand.known[Resource::Lumber], s.bank[Resource::Lumber]), (0, 1));
}

#[test]
fn largest_army_at_three_knights_taken_only_by_more() {
    let mut s = state(Options::default());
    let mut facts = Vec::new();
    let mut knight = |s: &mut State, p: Seat| {
        s.active = p;
        s.phase = Phase::Main;
        s.dev_played = false;
        s.players[p as usize].dev.held[DevCard::Knight] += 1;
        apply(s, &Event::PlayKnight { player: p }, &mut facts).unwrap();
    };
    for _ in 0..2 {
        knight(&mut s, 0);
    }
    assert_eq!(s.largest_army, None);
    knight(&mut s, 0);
    assert_eq!(s.largest_army, Some(0));
    for _ in 0..3 {
        knight(&mut s, 1);
    }
    assert_eq!(s.largest_army, Some(0), "3 against 3 keeps the holder");
    knight(&mut s, 1);
    assert_eq!(s.largest_army, Some(1));
    assert_eq!(s.vp_public(1), 2);
    assert_eq!(s.vp_public(0), 0);
}

#[test]
fn monopoly_takes_every_card_of_a_kind_and_needs_the_count_for_unknown_hands() {
    let mut s = state(Options::default());
    s.players[0].dev.held[DevCard::Monopoly] = 1;
    s.players[1].hand.known = [2, 0, 0, 0, 0].into();
    s.players[2].hand.known = [1, 0, 1, 0, 0].into();
    let mut facts = Vec::new();
    let mut t = s.clone();
    apply(&mut t, &Event::PlayMonopoly { player: 0, resource: Resource::Lumber, taken: None }, &mut facts).unwrap();
    assert_eq!(t.players[0].hand.known[Resource::Lumber], 3);
    assert_eq!(t.players[1].hand.total() + t.players[2].hand.total(), 1);
    // Bo holds an unknown card: the event must say what was taken.
    s.players[1].hand.unknown = 1;
    let err =
        apply(&mut s.clone(), &Event::PlayMonopoly { player: 0, resource: Resource::Lumber, taken: None }, &mut facts)
            .unwrap_err();
    assert!(err.0.contains("must say what was `taken`"), "{err}");
    let mut t = s.clone();
    apply(
        &mut t,
        &Event::PlayMonopoly { player: 0, resource: Resource::Lumber, taken: Some(vec![(1, 3), (2, 1)]) },
        &mut facts,
    )
    .unwrap();
    assert_eq!(t.players[0].hand.known[Resource::Lumber], 4);
    assert_eq!(t.players[1].hand.total(), 0);
    let err = apply(
        &mut s.clone(),
        &Event::PlayMonopoly { player: 0, resource: Resource::Lumber, taken: Some(vec![(1, 4), (2, 1)]) },
        &mut facts,
    )
    .unwrap_err();
    assert!(err.0.contains("hands over 4"), "{err}");
}

#[test]
fn road_building_gives_two_free_roads_first() {
    let mut s = state(Options::default());
    let v = s.board.hexes[0].corners[0];
    s.buildings[v as usize] = Some(Building { owner: 0, city: false });
    s.players[0].settlements = 1;
    s.players[0].dev.held[DevCard::RoadBuilding] = 1;
    let mut facts = Vec::new();
    apply(&mut s, &Event::PlayRoadBuilding { player: 0 }, &mut facts).unwrap();
    let err = apply(&mut s.clone(), &Event::EndTurn { player: 0 }, &mut facts).unwrap_err();
    assert!(err.0.contains("free road"), "{err}");
    for side in [0, 5] {
        let e = s.board.hexes[0].sides[side];
        apply(&mut s, &Event::BuildRoad { player: 0, at: e }, &mut facts).unwrap();
    }
    assert_eq!(s.players[0].hand.total(), 0, "the two roads were free");
    assert_eq!(s.players[0].roads, 2);
    let e = s.board.hexes[0].sides[1];
    let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: e }, &mut facts).unwrap_err();
    assert!(err.0.contains("cannot pay for a road"), "{err}");
}

#[test]
fn year_of_plenty_takes_two_from_the_bank() {
    let mut s = state(Options::default());
    s.players[0].dev.held[DevCard::YearOfPlenty] = 1;
    let mut facts = Vec::new();
    let three = Bundle::known([3, 0, 0, 0, 0].into());
    assert!(apply(&mut s.clone(), &Event::PlayYearOfPlenty { player: 0, take: three }, &mut facts).is_err());
    let two = Bundle::known([1, 0, 0, 0, 1].into());
    apply(&mut s, &Event::PlayYearOfPlenty { player: 0, take: two }, &mut facts).unwrap();
    assert_eq!(s.players[0].hand.known, [1, 0, 0, 0, 1]);
    assert_eq!(s.bank[Resource::Ore], 18);
}

#[test]
fn victory_point_cards_count_hidden_until_revealed_and_win_only_on_your_turn() {
    let mut s = state(Options { vp_target: 4, ..Options::default() });
    for (p, corner) in [(1u8, 0usize), (1, 3)] {
        let v = s.board.hexes[18].corners[corner];
        s.buildings[v as usize] = Some(Building { owner: p, city: false });
        s.players[p as usize].settlements += 1;
    }
    s.players[1].dev.held[DevCard::VictoryPoint] = 2;
    assert_eq!((s.vp(1), s.vp_public(1)), (4, 2));
    // Bo has 4 during Ana's turn: no win yet.
    s.active = 0;
    s.rolled = true;
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    // The turn passes to Bo, who has 4: Bo wins at once.
    assert_eq!(s.winner, Some(1));
    assert!(facts.contains(&Fact::GameOver { winner: Some(1) }));
}

#[test]
fn after_the_win_players_may_only_reveal_victory_points() {
    let mut s = state(Options { vp_target: 3, ..Options::default() });
    s.winner = Some(0);
    s.phase = Phase::Over;
    s.players[2].dev.held[DevCard::VictoryPoint] = 1;
    let mut facts = Vec::new();
    apply(&mut s, &Event::RevealVictoryPoints { player: 2, count: None }, &mut facts).unwrap();
    assert_eq!(s.vp_public(2), 1);
    let err = apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap_err();
    assert!(err.0.contains("the game is over: Ana won"), "{err}");
}

#[test]
fn victory_point_cards_are_shown_only_to_win() {
    let mut s = state(Options { vp_target: 4, ..Options::default() });
    s.players[0].dev.held[DevCard::VictoryPoint] = 1;
    s.players[0].settlements = 2;
    let mut facts = Vec::new();
    let err = apply(&mut s.clone(), &Event::RevealVictoryPoints { player: 0, count: None }, &mut facts).unwrap_err();
    assert!(err.0.contains("shown only to win: Ana would have 3 of 4 VP"), "{err}");
    s.players[0].dev.held[DevCard::VictoryPoint] = 2;
    apply(&mut s, &Event::RevealVictoryPoints { player: 0, count: None }, &mut facts).unwrap();
    assert_eq!(s.winner, Some(0));
}

fn state6() -> State {
    let spec: BoardSpec = serde_json::from_str(include_str!("../../tests/board-5-6.json")).unwrap();
    let seating = almanac_core::Table::named(&["Ana", "Bo", "Cem", "Dilek", "Emre", "Fatma"]);
    let mut s = State::new(Board::from_spec(&spec).unwrap(), Options::default(), seating).unwrap();
    s.phase = Phase::Main;
    s.turn = 1;
    s.rolled = true;
    s
}

/// Gives `p` a settlement on a corner of `hex` and the cards for a road.
fn ready_to_build(s: &mut State, p: Seat, hex: usize) -> EdgeId {
    let v = s.board.hexes[hex].corners[0];
    s.buildings[v as usize] = Some(Building { owner: p, city: false });
    s.players[p as usize].settlements += 1;
    s.players[p as usize].hand.known = [1, 1, 0, 0, 0].into();
    s.board.hexes[hex].sides[0]
}

#[test]
fn five_or_six_players_bring_the_extensions_bank_and_deck() {
    let s = state6();
    assert_eq!(s.bank, [24; 5]);
    assert_eq!(s.deck_left, 34);
    let s4 = state(Options::default());
    assert_eq!((s4.bank, s4.deck_left), ([19; 5].into(), 25));
    assert!(!s4.equipment.extension_5_6);
}

#[test]
fn the_special_building_phase_goes_clockwise_with_builds_only() {
    let mut s = state6();
    // Ana (seat 0) ends her turn; Cem (2) and Emre (4) want to build.
    let cem_road = ready_to_build(&mut s, 2, 0);
    let emre_road = ready_to_build(&mut s, 4, 29);
    let bo_road = ready_to_build(&mut s, 1, 14);
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    assert_eq!(s.phase, Phase::SpecialBuilding { after: 0, last: 0 });
    assert_eq!(s.turn, 1, "the special building phase belongs to Ana's turn");
    // No trading, no card play, not the player who just ended the turn.
    let trade = Event::MaritimeTrade {
        player: 2,
        give: Bundle::known([4, 0, 0, 0, 0].into()),
        get: Bundle::known([0, 0, 0, 0, 1].into()),
    };
    let err = apply(&mut s.clone(), &trade, &mut facts).unwrap_err();
    assert!(err.0.contains("only building and buying happen"), "{err}");
    let err = apply(&mut s.clone(), &Event::PlayKnight { player: 3 }, &mut facts).unwrap_err();
    assert!(err.0.contains("only building and buying happen"), "{err}");
    let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: cem_road }, &mut facts).unwrap_err();
    assert!(err.0.contains("already ended the turn"), "{err}");
    // Cem builds, then Emre; Bo's chance has passed.
    apply(&mut s, &Event::BuildRoad { player: 2, at: cem_road }, &mut facts).unwrap();
    apply(&mut s, &Event::BuildRoad { player: 4, at: emre_road }, &mut facts).unwrap();
    let err = apply(&mut s.clone(), &Event::BuildRoad { player: 1, at: bo_road }, &mut facts).unwrap_err();
    assert!(err.0.contains("goes clockwise: Emre has built already, so Bo's chance has passed"), "{err}");
    // Only Bo, the next player, can end the phase: his roll begins turn 2.
    let err = apply(&mut s.clone(), &Event::Roll { player: 3, dice: [1, 2].into(), production: None }, &mut facts)
        .unwrap_err();
    assert!(err.0.contains("Bo plays next"), "{err}");
    apply(&mut s, &Event::Roll { player: 1, dice: [1, 2].into(), production: None }, &mut facts).unwrap();
    assert_eq!((s.turn, s.active, s.phase), (2, 1, Phase::Main));
    assert!(facts.contains(&Fact::TurnStarted { turn: 2, player: 1 }));
}

#[test]
fn without_the_extension_nobody_builds_after_the_turn() {
    let mut s = state(Options::default());
    s.rolled = true;
    let road = ready_to_build(&mut s, 2, 0);
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    let err = apply(&mut s, &Event::BuildRoad { player: 2, at: road }, &mut facts).unwrap_err();
    assert!(err.0.contains("out of turn"), "{err}");
}

#[test]
fn a_card_bought_in_the_special_building_phase_is_playable_in_the_buyers_turn() {
    let mut s = state6();
    s.players[1].hand.known = [0, 0, 1, 1, 1].into();
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    apply(&mut s, &Event::BuyDevelopment { player: 1, card: Some(DevCard::Knight) }, &mut facts).unwrap();
    apply(&mut s, &Event::PlayKnight { player: 1 }, &mut facts).unwrap();
    assert_eq!(s.phase, Phase::MoveRobber { knight: true });
}

#[test]
fn pieces_run_out_and_so_does_the_deck() {
    let mut s = state(Options::default());
    s.players[0].hand.known = [5, 5, 5, 5, 5].into();
    let mut facts = Vec::new();
    // Settlements: 5 on the board, none left.
    let v = s.board.hexes[0].corners[0];
    s.buildings[v as usize] = Some(Building { owner: 0, city: false });
    let e = s.board.hexes[0].sides[0];
    s.roads[e as usize] = Some(0);
    let target = s.board.edges[e as usize].ends[1];
    let road2 = s.board.hexes[0].sides[1];
    s.roads[road2 as usize] = Some(0);
    let far = s.board.edges[road2 as usize].ends[1];
    s.players[0].settlements = 5;
    let err = apply(&mut s.clone(), &Event::BuildSettlement { player: 0, at: far }, &mut facts).unwrap_err();
    assert!(err.0.contains("no settlements left"), "{err}");
    // Cities: 4 on the board, none left.
    s.players[0].cities = 4;
    let err = apply(&mut s.clone(), &Event::BuildCity { player: 0, at: v }, &mut facts).unwrap_err();
    assert!(err.0.contains("no cities left"), "{err}");
    // Roads: 15 on the board, none left.
    s.players[0].roads = 15;
    let next =
        s.board.vertices[target as usize].edges.iter().copied().find(|&x| s.roads[x as usize].is_none()).unwrap();
    let err = apply(&mut s.clone(), &Event::BuildRoad { player: 0, at: next }, &mut facts).unwrap_err();
    assert!(err.0.contains("no roads left"), "{err}");
    // The development deck.
    s.deck_left = 0;
    let err = apply(&mut s.clone(), &Event::BuyDevelopment { player: 0, card: None }, &mut facts).unwrap_err();
    assert!(err.0.contains("deck is empty"), "{err}");
}

#[test]
fn harbours_trade_at_their_rate_for_whoever_builds_on_them() {
    let mut s = state(Options::default());
    s.players[0].hand.known = [0, 0, 6, 0, 0].into();
    let mut facts = Vec::new();
    let three_for_one = Event::MaritimeTrade {
        player: 0,
        give: Bundle::known([0, 0, 3, 0, 0].into()),
        get: Bundle::known([0, 0, 0, 0, 1].into()),
    };
    let two_for_one = Event::MaritimeTrade {
        player: 0,
        give: Bundle::known([0, 0, 2, 0, 0].into()),
        get: Bundle::known([0, 0, 0, 0, 1].into()),
    };
    assert!(apply(&mut s.clone(), &three_for_one, &mut facts).is_err());
    // The 2:1 wool harbour is on 1:NE; a settlement on one of its vertices.
    let (edge, _) = *s.board.harbours.iter().find(|(_, h)| *h == Harbour::Special(Resource::Wool)).unwrap();
    let v = s.board.edges[edge as usize].ends[0];
    s.buildings[v as usize] = Some(Building { owner: 0, city: false });
    let mut t = s.clone();
    apply(&mut t, &two_for_one, &mut facts).unwrap();
    assert_eq!(t.players[0].hand.known, [0, 0, 4, 0, 1]);
    assert!(facts.iter().any(|f| matches!(f, Fact::Traded { partner: Partner::Market(HARBOUR_2), .. })));
    // The wool harbour does not trade ore 2:1.
    s.players[0].hand.known = [0, 0, 0, 0, 2].into();
    let ore = Event::MaritimeTrade {
        player: 0,
        give: Bundle::known([0, 0, 0, 0, 2].into()),
        get: Bundle::known([1, 0, 0, 0, 0].into()),
    };
    assert!(apply(&mut s, &ore, &mut facts).is_err());
}

#[test]
fn a_seven_and_the_robber_on_the_leader_are_key_moments() {
    let mut s = state(Options::default());
    // Bo leads with a city on hex 10's north corner; Ana and Cem have a settlement each.
    let (bo, ana, cem) = (s.board.hexes[10].corners[0], s.board.hexes[0].corners[0], s.board.hexes[18].corners[3]);
    s.buildings[bo as usize] = Some(Building { owner: 1, city: true });
    s.players[1].cities = 1;
    for (v, p) in [(ana, 0usize), (cem, 2)] {
        s.buildings[v as usize] = Some(Building { owner: p as Seat, city: false });
        s.players[p].settlements = 1;
    }
    s.players[1].hand.add(Resource::Ore, 1);
    let facts = roll(&mut s, 0, [3, 4]);
    assert!(facts.contains(&Fact::Moment { moment: "seven", player: Some(0) }));
    assert!(!roll(&mut s.clone(), 0, [3, 5]).iter().any(|f| matches!(f, Fact::Moment { .. })), "an 8 is no moment");
    let rob = |s: &mut State, victim: Seat| {
        let mut facts = Vec::new();
        let ev = Event::MoveRobber { player: 0, hex: 10, victim: Some(victim), stolen: Some(ResourceCard::Unknown) };
        apply(s, &ev, &mut facts).unwrap();
        facts
    };
    let facts = rob(&mut s.clone(), 1);
    assert!(facts.contains(&Fact::Moment { moment: "robbed_leader", player: Some(1) }), "{facts:?}");
    // Robbing a player who does not lead is no moment.
    let cem_hex = s.board.vertices[cem as usize].hexes[0];
    s.players[2].hand.add(Resource::Ore, 1);
    let mut facts = Vec::new();
    let ev = Event::MoveRobber { player: 0, hex: cem_hex, victim: Some(2), stolen: Some(ResourceCard::Unknown) };
    apply(&mut s, &ev, &mut facts).unwrap();
    assert!(!facts.iter().any(|f| matches!(f, Fact::Moment { .. })), "{facts:?}");
}

#[test]
fn a_settlement_refused_names_who_broke_the_rule_first_then_whose_building_is_in_the_way() {
    use crate::rules::build::check_free_vertex;
    let mut s = state(Options::default());
    let at = s.board.vertex("9:N").unwrap();
    s.buildings[at as usize] = Some(Building { owner: 0, city: false });
    let err = check_free_vertex(&s, 1, at).unwrap_err().0;
    assert!(err.starts_with("Bo cannot build a settlement at ") && err.contains("9:N"), "{err}");
    assert!(err.ends_with("Ana already has a settlement there"), "{err}");
    let next = s.board.vertices[at as usize].neighbours[0];
    let err = check_free_vertex(&s, 2, next).unwrap_err().0;
    assert!(err.starts_with("Cem's settlement at"), "{err}");
    assert!(err.contains("breaks the distance rule") && err.contains("Ana's settlement"), "{err}");
    assert!(check_free_vertex(&s, 0, at).unwrap_err().0.ends_with("their own settlement stands there"));
}

/// An unlimited bank (a JSettlers game's: `unlimited_bank`) may be as full as its count can say; what is
/// paid into it then leaves it full, never overflows. Seen first as a panic when a recorder asked what may
/// happen next after a robbery in such a game.
#[test]
fn paying_into_a_full_unlimited_bank_leaves_it_full() {
    let mut s = state(Options { unlimited_bank: true, ..Options::default() });
    let ana = s.board.hexes[10].corners[0];
    s.buildings[ana as usize] = Some(Building { owner: 0, city: false });
    roads(&mut s, 0, 10, &[0]);
    s.players[0].hand.known[Resource::Lumber] = 1;
    s.players[0].hand.known[Resource::Brick] = 1;
    s.bank[Resource::Lumber] = u8::MAX;
    s.bank[Resource::Brick] = u8::MAX;
    let edge = s.board.hexes[10].sides[1];
    apply(&mut s, &Event::BuildRoad { player: 0, at: edge }, &mut Vec::new()).unwrap();
    assert_eq!((s.bank[Resource::Lumber], s.bank[Resource::Brick]), (u8::MAX, u8::MAX));
    assert_eq!(s.players[0].hand.known[Resource::Lumber], 0);
}

/// The rulebook's end of the game: "Sadece sıranızda kazanabilirsiniz": ten points reached in another
/// player's turn (here a city built in the Special Building Phase) wait for the player's own turn, and
/// somebody else may win first.
#[test]
fn ten_points_in_the_special_building_phase_wait_for_the_builders_turn() {
    let mut s = state6();
    // Cem (seat 2): a settlement and 8 victory point cards, 9 points, and the cards for a city.
    ready_to_build(&mut s, 2, 0);
    s.players[2].dev.held[DevCard::VictoryPoint] = 8;
    s.players[2].hand.known = [0, 0, 0, 2, 3].into();
    let city = s.board.hexes[0].corners[0];
    assert_eq!(s.vp(2), 9);
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    let mut facts = Vec::new();
    apply(&mut s, &Event::BuildCity { player: 2, at: city }, &mut facts).unwrap();
    assert_eq!((s.vp(2), s.winner), (10, None), "ten points in Ana's turn: no win yet");
    assert!(facts.contains(&Fact::Moment { moment: "win_waits", player: Some(2) }), "{facts:?}");
    assert!(!facts.iter().any(|f| matches!(f, Fact::GameOver { .. })));
    // Bo's turn: Cem still waits, and the moment stays marked once, where the points were reached (the facts
    // of the game so far are handed to each event, as a timeline does).
    apply(&mut s, &Event::Roll { player: 1, dice: [1, 2].into(), production: None }, &mut facts).unwrap();
    assert_eq!(s.winner, None);
    let marked = facts.iter().filter(|f| matches!(f, Fact::Moment { moment: "win_waits", .. })).count();
    assert_eq!(marked, 1, "{facts:?}");
    // Had Bo ten points in his own turn, Bo would win first.
    let mut bo_first = s.clone();
    bo_first.players[1].dev.held[DevCard::VictoryPoint] = 10;
    let mut bo_facts = Vec::new();
    apply(&mut bo_first, &Event::RevealVictoryPoints { player: 1, count: Some(10) }, &mut bo_facts).unwrap();
    assert_eq!(bo_first.winner, Some(1));
    // Otherwise Cem's own turn begins with Cem's first event, and Cem has won.
    apply(&mut s, &Event::EndTurn { player: 1 }, &mut facts).unwrap();
    assert_eq!(s.winner, None, "the phase after Bo's turn is still not Cem's turn");
    let mut facts = Vec::new();
    apply(&mut s, &Event::Roll { player: 2, dice: [1, 2].into(), production: None }, &mut facts).unwrap();
    assert_eq!((s.winner, s.turn, s.active), (Some(2), 3, 2));
    assert!(facts.contains(&Fact::GameOver { winner: Some(2) }));
}

/// JSettlers' Special Building Phase lets the player whose turn just ended build too; ten points reached
/// there wait as well: the phase is nobody's own turn.
#[test]
fn in_jsettlers_special_building_the_player_whose_turn_ended_waits_too() {
    let mut s = state6();
    s.options.special_building = crate::state::SpecialBuildingRule::JSettlers;
    ready_to_build(&mut s, 0, 0);
    s.players[0].dev.held[DevCard::VictoryPoint] = 8;
    s.players[0].hand.known = [0, 0, 0, 2, 3].into();
    let city = s.board.hexes[0].corners[0];
    let mut facts = Vec::new();
    apply(&mut s, &Event::EndTurn { player: 0 }, &mut facts).unwrap();
    apply(&mut s, &Event::BuildCity { player: 0, at: city }, &mut facts).unwrap();
    assert_eq!((s.vp(0), s.winner), (10, None));
    apply(&mut s, &Event::Roll { player: 1, dice: [1, 2].into(), production: None }, &mut facts).unwrap();
    assert_eq!(s.winner, None, "Bo's turn, not Ana's");
}

/// A placement taken back in setup: the settlement goes back with the cards it paid, the others place, the
/// player places again after them, and whoever placed last begins.
#[test]
fn a_settlement_taken_back_in_setup_is_placed_again_after_the_others() {
    let spec: BoardSpec = serde_json::from_str(include_str!("../../tests/beginner-board.json")).unwrap();
    let mut s = State::new(
        Board::from_spec(&spec).unwrap(),
        Options::default(),
        almanac_core::Table::named(&["Ana", "Bo", "Cem"]),
    )
    .unwrap();
    let place = |s: &mut State, p: Seat, hex: usize| {
        let mut facts = Vec::new();
        let (v, e) = (s.board.hexes[hex].corners[0], s.board.hexes[hex].sides[0]);
        apply(s, &Event::BuildSettlement { player: p, at: v }, &mut facts).unwrap();
        apply(s, &Event::BuildRoad { player: p, at: e }, &mut facts).unwrap();
    };
    let first = s.board.hexes[0].corners[0];
    let mut facts = Vec::new();
    apply(&mut s, &Event::BuildSettlement { player: 0, at: first }, &mut facts).unwrap();
    let err = apply(&mut s.clone(), &Event::TakeBack { player: 0, at: first }, &mut facts).unwrap_err();
    assert!(err.0.contains("only a second-round settlement can be taken back"), "{err}");
    let road = s.board.hexes[0].sides[0];
    apply(&mut s, &Event::BuildRoad { player: 0, at: road }, &mut facts).unwrap();
    for (p, hex) in [(1, 2), (2, 7)] {
        place(&mut s, p, hex);
    }
    // Cem's second settlement pays its cards; then it is taken back.
    let bank = s.bank;
    let v = s.board.hexes[11].corners[0];
    let mut facts = Vec::new();
    apply(&mut s, &Event::BuildSettlement { player: 2, at: v }, &mut facts).unwrap();
    assert!(s.players[2].hand.total() > 0, "the second settlement pays");
    let elsewhere = s.board.hexes[16].corners[0];
    let err = apply(&mut s.clone(), &Event::TakeBack { player: 2, at: elsewhere }, &mut facts).unwrap_err();
    assert!(err.0.contains("only the settlement just placed"), "{err}");
    let mut facts = Vec::new();
    apply(&mut s, &Event::TakeBack { player: 2, at: v }, &mut facts).unwrap();
    assert_eq!((s.building(v), s.players[2].settlements, s.vp(2)), (None, 1, 1));
    assert_eq!((s.players[2].hand.total(), s.bank), (0, bank), "the cards went back to the bank");
    assert!(facts.contains(&Fact::Returned { player: 2, piece: "settlement" }), "{facts:?}");
    // Bo and Ana place; Cem's turn to place comes after them.
    let err = apply(&mut s.clone(), &Event::BuildSettlement { player: 2, at: v }, &mut facts).unwrap_err();
    assert!(err.0.contains("Bo's turn to place a settlement"), "{err}");
    place(&mut s, 1, 16);
    place(&mut s, 0, 18);
    assert_eq!(s.phase, Phase::Setup { step: 6, settlement: None });
    assert_eq!(s.active, 2);
    place(&mut s, 2, 11);
    assert!(s.players[2].hand.total() > 0, "the placement made again pays as a second one");
    // Cem placed last: Cem begins.
    assert_eq!((s.phase, s.turn, s.active), (Phase::BeforeRoll, 1, 2));
    let err = apply(&mut s.clone(), &Event::TakeBack { player: 2, at: v }, &mut facts).unwrap_err();
    assert!(err.0.contains("only one just placed in setup goes back"), "{err}");
}

/// A turn whose time ran out before the roll ends without one: nothing is produced, the next player's
/// turn begins. An ordinary end of the turn before the roll is still refused.
#[test]
fn a_time_out_before_the_roll_ends_the_turn_without_one() {
    let mut s = state(Options::default());
    s.phase = Phase::BeforeRoll;
    let mut facts = Vec::new();
    let err = apply(&mut s.clone(), &Event::EndTurn { player: 0 }, &mut facts).unwrap_err();
    assert!(err.0.contains("without rolling"), "{err}");
    let err = apply(&mut s.clone(), &Event::TimeOut { player: 1 }, &mut facts).unwrap_err();
    assert!(err.0.contains("out of turn"), "{err}");
    let hands: Vec<u32> = s.players.iter().map(|p| p.hand.total()).collect();
    apply(&mut s, &Event::TimeOut { player: 0 }, &mut facts).unwrap();
    assert_eq!((s.turn, s.active, s.phase), (2, 1, Phase::BeforeRoll));
    assert_eq!(s.players.iter().map(|p| p.hand.total()).collect::<Vec<_>>(), hands);
    assert!(!facts.iter().any(|f| matches!(f, Fact::Rolled { .. })));
}

/// A bank too short for Year of Plenty (the rulebook is silent; decided as the production rule decides
/// for a single player owed, who gets what is left): one card when the bank cannot give two of its kind or
/// has none of another kind; a full bank always gives two. catanatron played one such card (seed 100154
/// of `--players W,VP,W,VP`: one grain left in the bank, one grain taken).
#[test]
fn year_of_plenty_takes_what_a_short_bank_has_left() {
    let mut s = state(Options::default());
    s.players[0].dev.held[DevCard::YearOfPlenty] = 1;
    let mut facts = Vec::new();
    let one_grain = Bundle::known([0, 0, 0, 1, 0].into());
    let err = apply(&mut s.clone(), &Event::PlayYearOfPlenty { player: 0, take: one_grain }, &mut facts).unwrap_err();
    assert!(err.0.contains("takes 2 resource cards from the bank, not 1"), "{err}");
    // One grain left: the one grain is all two grain could give.
    let mut short = s.clone();
    short.bank[Resource::Grain] = 1;
    apply(&mut short, &Event::PlayYearOfPlenty { player: 0, take: one_grain }, &mut facts).unwrap();
    assert_eq!((short.players[0].hand.known[Resource::Grain], short.bank[Resource::Grain]), (1, 0));
    // No ore left: one lumber is all lumber and ore could give.
    let mut no_ore = s.clone();
    no_ore.bank[Resource::Ore] = 0;
    let one_lumber = Bundle::known([1, 0, 0, 0, 0].into());
    apply(&mut no_ore, &Event::PlayYearOfPlenty { player: 0, take: one_lumber }, &mut facts).unwrap();
    // An empty take needs an empty bank.
    let none = Bundle::known([0, 0, 0, 0, 0].into());
    assert!(apply(&mut s.clone(), &Event::PlayYearOfPlenty { player: 0, take: none }, &mut facts).is_err());
}
