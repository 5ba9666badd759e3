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

/// The catanatron records we keep, read.
fn catanatron_games() -> Vec<Timeline<Catan>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/catanatron");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let log = almanac_catan::import::catanatron::to_almanac(&std::fs::read_to_string(p).unwrap()).unwrap();
            let first = log.lines().next().unwrap();
            read_events::<Catan>(Envelope::parse(first).unwrap(), first, &log).unwrap()
        })
        .collect()
}

/// A seat's count of `r` in `q`'s hand, as this test keeps it from the facts: every card a steal moved
/// that the seat did not see (it was neither thief nor victim) replaced by what the victim's hand then
/// held of `r`, in proportion; forgotten once a hand is empty.
struct Ledger {
    /// (thief, victim, the card's resource index, the victim's hand by resource then)
    steals: Vec<(u8, u8, usize, [f64; 5])>,
}

impl Ledger {
    fn counted(&self, s: &almanac_catan::state::State, by: u8, q: u8, r: usize) -> f64 {
        let mut n = f64::from(s.players[q as usize].hand.known[almanac_catan::resources::Resource::ALL[r]]);
        for &(thief, victim, card, shares) in &self.steals {
            if by == thief || by == victim {
                continue;
            }
            let unseen = f64::from(u8::from(card == r)) - shares[r];
            if thief == q {
                n -= unseen;
            }
            if victim == q {
                n += unseen;
            }
        }
        n.max(0.0)
    }
}

#[test]
fn a_monopoly_is_offered_only_as_its_player_could_count_the_hands() {
    use almanac_catan::resources::Resource;
    use almanac_core::{cause, Fact};
    let (mut offered, mut withheld) = (0, 0);
    for g in catanatron_games() {
        let mut ledger = Ledger { steals: Vec::new() };
        let holds_monopoly = |i: usize| {
            let s = g.state_after(i);
            s.players[s.active as usize].dev.held[almanac_catan::development::DevCard::Monopoly] > 0
        };
        let weighed = g.weigh(&holds_monopoly, &|p, seat| p.scores[seat as usize] / 20.0);
        let mut next = weighed.iter().peekable();
        for i in 0..g.event_count() {
            let before = g.state_after(i);
            while let Some(w) = next.next_if(|w| w.event == i) {
                let monopolies: Vec<Resource> = w
                    .alternatives
                    .iter()
                    .filter(|a| !a.chosen && a.line.contains("play_monopoly"))
                    .map(|a| {
                        let v: serde_json::Value = serde_json::from_str(&a.line).unwrap();
                        *Resource::ALL.iter().find(|r| r.name() == v["resource"]).unwrap()
                    })
                    .collect();
                for r in Resource::ALL {
                    let others = || (0..before.players.len() as u8).filter(|&q| q != w.seat);
                    let held: f64 = others().map(|q| f64::from(before.players[q as usize].hand.known[r])).sum();
                    let counted: f64 = others().map(|q| ledger.counted(&before, w.seat, q, r as usize)).sum();
                    // (The rules keep their count in single precision: a half card exactly is left alone.)
                    if ((held - counted).abs() - 0.5).abs() < 1e-3 {
                        continue;
                    }
                    if (held - counted).abs() >= 0.5 {
                        assert!(
                            !monopolies.contains(&r),
                            "event {i}: monopoly on {r} offered, {held} held, {counted} seen"
                        );
                        withheld += 1;
                    } else if monopolies.contains(&r) {
                        offered += 1;
                    } else {
                        // Where any monopoly was offered, every one the player could count was.
                        let chosen = w.chosen().unwrap().line.contains(&format!("\"resource\":\"{}\"", r.name()));
                        assert!(monopolies.is_empty() || chosen, "event {i}: monopoly on {r} withheld, {held} held");
                    }
                }
            }
            for f in g.event_facts(i) {
                if let Fact::Gained { player, item, from: Some(victim), cause: cause::STEAL | "helper", .. } = f {
                    if let Some(r) = Resource::ALL.iter().position(|r| r.name() == *item) {
                        let hand = before.players[*victim as usize].hand;
                        let total = f64::from(hand.total() as u16);
                        let shares = Resource::ALL.map(|k| f64::from(hand.known[k]) / total);
                        ledger.steals.push((*player, *victim, r, shares));
                    }
                }
            }
            let after = g.state_after(i + 1);
            for q in 0..after.players.len() as u8 {
                if after.players[q as usize].hand.total() == 0 {
                    ledger.steals.retain(|&(t, v, _, _)| t != q && v != q);
                }
            }
        }
    }
    assert!(offered > 0 && withheld > 0, "{offered} monopolies offered, {withheld} withheld");
}
