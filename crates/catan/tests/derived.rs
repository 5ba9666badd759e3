//! What a roll derived, in words (the recorder's last entries, the API's event rows), held to the players'
//! hands: the cards each player's production words name are the cards their hand gained over the roll.

use almanac_catan::resources::Resource;
use almanac_catan::Catan;
use almanac_core::derived::derived;
use almanac_core::{read_events, Envelope, Game, Timeline};
use serde_json::Value;

fn club_game() -> (Timeline<Catan>, Vec<String>) {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-club-game.jsonl"))
            .unwrap();
    let (envelope, header) = (Envelope::parse(text.lines().next().unwrap()).unwrap(), text.lines().next().unwrap());
    let game = read_events::<Catan>(envelope, header, &text).unwrap();
    (game, text.lines().skip(1).map(str::to_string).collect())
}

/// "Ayşe 2 grain, 1 ore" → ("Ayşe", [(grain, 2), (ore, 1)]).
fn read_words(words: &str, names: &[String]) -> (usize, [u32; 5]) {
    let seat = names.iter().position(|n| words.starts_with(&format!("{n} "))).expect("a player's name first");
    let mut got = [0; 5];
    for part in words[names[seat].len() + 1..].split(", ") {
        let (n, item) = part.split_once(' ').unwrap();
        let r = Resource::ALL.iter().position(|r| r.name() == item).unwrap_or_else(|| panic!("an item: {item}"));
        got[r] += n.parse::<u32>().unwrap();
    }
    (seat, got)
}

#[test]
fn a_rolls_production_in_words_is_what_each_hand_gained() {
    let (game, lines) = club_game();
    let names: Vec<String> = game.envelope().players.iter().map(|p| p.name.clone()).collect();
    let (mut rolls_that_produced, mut sevens) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        let event: Value = serde_json::from_str(line).unwrap();
        let production = derived(&game, i).production;
        if event["type"] != "roll" {
            assert!(production.is_empty(), "event {}: only a roll produces: {production:?}", i + 1);
            continue;
        }
        let (before, after) = (game.state_after(i), game.state_after(i + 1));
        let mut said = vec![[0u32; 5]; names.len()];
        for words in &production {
            let (seat, got) = read_words(words, &names);
            said[seat] = got;
        }
        for seat in 0..names.len() {
            let gained: Vec<u32> = Resource::ALL
                .iter()
                .map(|&r| (after.players[seat].hand.known[r] - before.players[seat].hand.known[r]) as u32)
                .collect();
            assert_eq!(said[seat].to_vec(), gained, "event {}: {}'s production in {production:?}", i + 1, names[seat]);
        }
        let total: u64 = event["dice"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).sum();
        if total == 7 {
            assert!(production.is_empty(), "event {}: a 7 produces nothing", i + 1);
            sevens += 1;
        } else if !production.is_empty() {
            rolls_that_produced += 1;
        }
    }
    assert!(rolls_that_produced > 20, "the sample's rolls that produced: {rolls_that_produced}");
    assert!(sevens > 0, "the sample's sevens");
}

/// How much a record saw: the full record of the club game names no card it did not see; the spectator's
/// record of the same game names as many as the steals and face-down purchases it could not see, and
/// withdrawing an entry takes its unseen cards back out.
#[test]
fn a_full_record_sees_every_card_and_a_spectators_does_not() {
    let read = |name: &str| {
        let path = format!("{}/../../data/samples/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let (envelope, header) = (Envelope::parse(text.lines().next().unwrap()).unwrap(), text.lines().next().unwrap());
        read_events::<Catan>(envelope, header, &text).unwrap()
    };
    let (full, observer) = (read("catan-club-game.jsonl"), read("catan-club-game-observer.jsonl"));
    assert_eq!(full.fingerprint(), observer.fingerprint(), "one game");
    assert_eq!(full.unseen(), 0);
    // Counted again from the facts themselves: every card of an unseen kind, in gains, losses, spending and
    // trades, once: a card stolen is lost by one player and gained by another (the loss names where it went).
    let unseen = ["unknown", "unknown_development"];
    let mut expected = 0u64;
    for row in observer.fact_rows(0) {
        let passed_on = row.kind == almanac_core::FactKind::Lost && row.other.is_some();
        if row.item.as_deref().is_some_and(|i| unseen.contains(&i)) && !passed_on {
            expected += row.count.unwrap_or(1) as u64;
        }
    }
    assert!(expected > 0);
    assert_eq!(observer.unseen(), expected);
    // A withdrawal takes out the facts of the entry it withdraws, and with them its unseen cards.
    let mut game = read("catan-club-game-observer.jsonl");
    let last_unseen = (0..game.event_count())
        .rev()
        .find(|&i| game.event_facts(i).iter().any(|f| f.row(1, 0).item.as_deref().is_some_and(|i| unseen.contains(&i))))
        .unwrap();
    game.truncate(last_unseen + 1);
    let before = game.unseen();
    game.push_line(last_unseen + 3, &almanac_core::withdrawal::line(last_unseen as u64 + 1)).unwrap();
    assert!(game.unseen() < before, "{} then {}", before, game.unseen());
}
