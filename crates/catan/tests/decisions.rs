//! A decision against the alternatives the rules allowed: the first settlement against every corner of
//! the board, a robber's move against every hex and victim (what is stolen drawn, not chosen), a
//! development card bought valued over the cards the deck may still hold.

use almanac_catan::Catan;
use almanac_core::decisions::Decided;
use almanac_core::{read_events, Envelope, Game, Timeline};

fn game(name: &str) -> Timeline<Catan> {
    let text = std::fs::read_to_string(format!("{}/../../data/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let first = text.lines().next().unwrap();
    read_events::<Catan>(Envelope::parse(first).unwrap(), first, &text).unwrap()
}

fn of_type<'a>(d: &'a Decided, kind: &str) -> Vec<&'a almanac_core::decisions::Alternative> {
    d.alternatives.iter().filter(|a| a.line.contains(&format!("\"type\":\"{kind}\""))).collect()
}

#[test]
fn the_first_settlement_is_weighed_against_every_corner_of_the_board() {
    let g = game("catan-club-game.jsonl");
    let d = g.decision(0).expect("the first settlement is a decision");
    assert_eq!(d.seat, 0);
    // Every corner of an empty board is free: the rulebook's first settlement may stand on any.
    let header: serde_json::Value = serde_json::from_str(g.header_line()).unwrap();
    let board = almanac_catan::Board::from_spec(&serde_json::from_value(header["board"].clone()).unwrap()).unwrap();
    let corners = of_type(&d, "build_settlement");
    assert_eq!(corners.len(), board.vertices.len(), "one alternative per corner");
    assert_eq!(d.alternatives.len(), corners.len(), "nothing else is open: the set-up begins with a settlement");
    let chosen: Vec<_> = d.alternatives.iter().filter(|a| a.chosen).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].line, g.event_text(0));
    assert!(d.alternatives.iter().all(|a| a.outcomes.len() == 1 && a.outcomes[0].probability == 1.0));
    // The second settlement keeps the distance rule: fewer corners, and none next to the first.
    let second = (1..g.event_count()).find(|&i| g.event_text(i).contains("build_settlement")).unwrap();
    let later = g.decision(second).expect("a decision");
    let free = of_type(&later, "build_settlement").len();
    assert!(free < corners.len() - 1, "{free} corners after one settlement");
}

#[test]
fn a_robbers_move_is_a_choice_of_hex_and_victim_and_what_is_stolen_is_drawn() {
    let g = game("catan-club-game.jsonl");
    let i = (0..g.event_count()).find(|&i| g.event_text(i).contains("\"stolen\":\"lumber\"")).unwrap();
    let d = g.decision(i).expect("moving the robber is a decision");
    let moves = of_type(&d, "move_robber");
    assert_eq!(moves.len(), d.alternatives.len(), "after a 7 only the robber may move");
    let mut seen = std::collections::BTreeSet::new();
    for m in &moves {
        let line: serde_json::Value = serde_json::from_str(&m.line).unwrap();
        assert!(
            seen.insert((line["hex"].to_string(), line["victim"].to_string())),
            "{}: one alternative per hex and victim",
            m.line
        );
        assert!(line["stolen"].is_null() || line["stolen"] == "unknown", "{}", m.line);
    }
    let chosen = d.alternatives.iter().find(|a| a.chosen).expect("the move made is among them");
    assert!(chosen.line.contains("\"hex\":16") && chosen.line.contains("\"victim\":\"Zeynep\""), "{}", chosen.line);
    // Not where the robber stands: it must move.
    let robber_before = g.view_after(i);
    let json = serde_json::to_value(&robber_before).unwrap();
    let standing = json["robber"].clone();
    assert!(standing.is_u64(), "the view says where the robber stands: {standing}");
    assert!(moves.iter().all(|m| serde_json::from_str::<serde_json::Value>(&m.line).unwrap()["hex"] != standing));
}

#[test]
fn a_development_card_bought_is_valued_over_the_cards_the_deck_may_hold() {
    let g = game("catan-club-game.jsonl");
    let Some(i) = (0..g.event_count()).find(|&i| g.event_text(i).contains("buy_development")) else {
        panic!("the sample buys a development card")
    };
    let d = g.decision(i).expect("buying a card is a decision");
    let buys = of_type(&d, "buy_development");
    assert_eq!(buys.len(), 1, "one decision, whichever card it draws");
    let outcomes = &buys[0].outcomes;
    let total: f64 = outcomes.iter().map(|o| o.probability).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // The base game's deck: 14 knights, 5 victory points, 2 of each progress card (25), less what was seen drawn.
    assert!(outcomes.iter().filter(|o| o.probability > 0.0).count() >= 2, "{outcomes:?}");
    assert!(buys[0].chosen && buys[0].words.contains("development"), "{}", buys[0].words);
}
