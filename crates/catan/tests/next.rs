//! What may happen next at a Catan table, by the rulebook: the first settlement on any free corner, its
//! road on an edge touching it, the next settlement two edges away at least (the distance rule), and after
//! a 7 the players holding more than seven cards discarding before the robber moves.

use almanac_catan::Catan;
use almanac_core::next::Open;
use almanac_core::{read_events, Envelope, Game, Timeline};
use serde_json::Value;

fn sample() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-club-game.jsonl")).unwrap()
}

/// The game after the sample's first `n` events.
fn after(n: usize) -> Timeline<Catan> {
    let text = sample();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let (envelope, header) = (Envelope::parse(lines[0]).unwrap(), lines[0]);
    read_events::<Catan>(envelope, header, &lines.join("\n")).unwrap()
}

/// The `at` of each legal place of `kind` in the decision.
fn places(open: &Open, kind: &str) -> Vec<String> {
    let choices = open.choices.iter().find(|c| c.kind == kind).map(|c| c.events.clone()).unwrap_or_default();
    choices
        .iter()
        .map(|c| serde_json::from_str::<Value>(&c.line).unwrap()["at"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn setup_offers_every_free_corner_then_a_road_touching_the_settlement_then_the_distance_rule() {
    let game = after(0);
    let open = game.next();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Ayşe", ["build_settlement"].as_slice()));
    let board = &game.last().board;
    assert_eq!(places(&open[0], "build_settlement").len(), board.vertices.len(), "an empty board: every corner");

    // Ayşe's settlement on 9:S: her road goes on an edge that touches it, and only there.
    let game = after(1);
    let open = game.next();
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Ayşe", ["build_road"].as_slice()));
    let corner = board.vertices.iter().find(|v| v.name == "9:S").unwrap();
    let mut touching: Vec<String> = corner.edges.iter().map(|&e| board.edges[e as usize].name.to_string()).collect();
    let mut offered = places(&open[0], "build_road");
    touching.sort();
    offered.sort();
    assert_eq!(offered, touching);

    // Mehmet's first settlement: any corner but hers and its neighbours.
    let game = after(2);
    let open = game.next();
    assert_eq!((open[0].player.as_str(), open[0].types.as_slice()), ("Mehmet", ["build_settlement"].as_slice()));
    let offered = places(&open[0], "build_settlement");
    assert_eq!(offered.len(), board.vertices.len() - 1 - corner.neighbours.len());
    assert!(!offered.contains(&"9:S".to_string()));
    for &n in &corner.neighbours {
        assert!(
            !offered.contains(&board.vertices[n as usize].name.to_string()),
            "{} is next to Ayşe's",
            board.vertices[n as usize].name
        );
    }
}

#[test]
fn after_a_seven_those_holding_more_than_seven_discard_and_only_then_the_robber_moves() {
    let text = sample();
    // The event before the sample's first discard is the 7.
    let first = text.lines().position(|l| l.contains(r#""type":"discard""#)).unwrap();
    let game = after(first - 1);
    let open = game.next();
    let discarding: Vec<(&str, &[&str])> = open.iter().map(|o| (o.player.as_str(), o.types.as_slice())).collect();
    assert_eq!(discarding, [("Zeynep", ["discard"].as_slice()), ("Can", ["discard"].as_slice())]);
    // Each counts out half their hand, rounded down, of the cards they hold.
    let state = game.last();
    for o in &open {
        let hand = &state.players[o.seat as usize].hand;
        let form = &o.choices[0].forms[0];
        let count = &form.counts[0];
        assert_eq!(count.field, "cards");
        assert_eq!((count.least, count.most), (hand.total() / 2, hand.total() / 2), "{}", o.player);
        for m in &count.cards {
            let r = almanac_catan::resources::Resource::ALL.into_iter().find(|r| r.name() == m.card).unwrap();
            assert_eq!((m.least, m.most), (0, hand.known[r] as u32), "{}'s {}", o.player, m.card);
        }
        assert!(hand.total() > 7);
    }
    // Both discarded: the roller moves the robber, to any hex but the one it stands on.
    let game = after(first + 1);
    let open = game.next();
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].types, ["move_robber"]);
    let hexes: std::collections::BTreeSet<u64> = open[0].choices[0]
        .events
        .iter()
        .map(|c| serde_json::from_str::<Value>(&c.line).unwrap()["hex"].as_u64().unwrap())
        .collect();
    assert_eq!(hexes.len(), game.last().board.hexes.len() - 1);
    assert!(!hexes.contains(&(game.last().robber as u64)));
}

#[test]
fn a_trade_is_counted_out_of_the_two_hands_and_the_bank_takes_only_the_rates_a_player_has() {
    let text = sample();
    let first = text.lines().position(|l| l.contains(r#""type":"trade""#)).unwrap();
    let game = after(first - 1);
    let state = game.last();
    let open = game.next();
    let active = open.iter().find(|o| o.seat == state.active).unwrap();
    let trade = active.choices.iter().find(|c| c.kind == "trade").unwrap();
    // One form per other player, each side bounded by the hand that gives it.
    assert_eq!(trade.forms.len(), state.players.len() - 1);
    for form in &trade.forms {
        let line: Value = serde_json::from_str(&form.line).unwrap();
        let with = state.table.seat_of(line["with"].as_str().unwrap()).unwrap() as usize;
        assert_ne!(with, state.active as usize);
        for (count, seat) in form.counts.iter().zip([state.active as usize, with]) {
            let hand = &state.players[seat].hand;
            assert_eq!((count.least, count.most), (1, hand.total()), "{}", count.field);
            let most: u32 = count.cards.iter().map(|m| m.most).sum();
            assert_eq!(most, hand.total());
        }
    }
    // The others may each record a trade with the active player only.
    for o in open.iter().filter(|o| o.seat != state.active) {
        let forms = &o.choices.iter().find(|c| c.kind == "trade").unwrap().forms;
        assert_eq!(forms.len(), 1);
        let line: Value = serde_json::from_str(&forms[0].line).unwrap();
        assert_eq!(line["with"], active.player.as_str());
    }
    // With the bank: every trade offered gives 2, 3 or 4 of one resource for one of another (which rates
    // the player's harbours allow is the rules' to say when they try each).
    if let Some(bank) = active.choices.iter().find(|c| c.kind == "maritime_trade") {
        for c in &bank.events {
            let line: Value = serde_json::from_str(&c.line).unwrap();
            let give = line["give"].as_object().unwrap();
            assert_eq!(give.len(), 1);
            let (r, n) = give.iter().next().unwrap();
            assert!([2, 3, 4].contains(&n.as_u64().unwrap()));
            assert_ne!(line["get"].as_object().unwrap().keys().next().unwrap(), r);
        }
    }
}

#[test]
fn the_robber_robs_someone_beside_its_hex_of_a_card_they_may_hold_or_an_unseen_one() {
    let text = sample();
    let first = text.lines().position(|l| l.contains(r#""type":"move_robber""#) && l.contains("stolen")).unwrap();
    let game = after(first - 1);
    let state = game.last();
    let open = game.next();
    let robber = open[0].choices.iter().find(|c| c.kind == "move_robber").unwrap();
    let lines: Vec<Value> = robber.events.iter().map(|c| serde_json::from_str(&c.line).unwrap()).collect();
    let actual: Value = serde_json::from_str(text.lines().nth(first).unwrap()).unwrap();
    let here: Vec<&Value> =
        lines.iter().filter(|l| l["hex"] == actual["hex"] && l["victim"] == actual["victim"]).collect();
    let victim = state.table.seat_of(actual["victim"].as_str().unwrap()).unwrap() as usize;
    let hand = &state.players[victim].hand;
    let mut cards: Vec<&str> = here.iter().map(|l| l["stolen"].as_str().unwrap()).collect();
    cards.sort();
    let mut held: Vec<&str> = almanac_catan::resources::Resource::ALL
        .into_iter()
        .filter(|&r| hand.known[r] > 0 || hand.unknown > 0)
        .map(|r| r.name())
        .chain(["unknown"])
        .collect();
    held.sort();
    assert_eq!(cards, held, "the cards {} may lose", actual["victim"]);
    assert!(here.iter().any(|l| l["stolen"] == actual["stolen"]));
}

/// The Helpers sample after its first `n` events.
fn helpers_after(n: usize) -> Timeline<Catan> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-helpers.jsonl"))
        .unwrap();
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let (envelope, header) = (Envelope::parse(lines[0]).unwrap(), lines[0]);
    read_events::<Catan>(envelope, header, &lines.join("\n")).unwrap()
}

#[test]
fn a_helper_is_offered_only_when_it_may_be_used_with_the_options_the_rules_accept() {
    // Before the sample's first use (Can's Nassir, event 28): Can's use is a form whose resource pick lists
    // only resources some opponent can give, and whose last pick is what comes after (A side up: flip, or
    // swap for each helper on display).
    let game = helpers_after(27);
    let open = game.next();
    let can = open.iter().find(|o| o.player == "Can").unwrap();
    let forms = &can.choices.iter().find(|c| c.kind == "use_helper").unwrap().forms;
    assert_eq!(forms.len(), 1);
    let form = &forms[0];
    assert_eq!(form.words, "uses Nassir");
    assert_eq!(form.picks[0].words, "The resource");
    let then = form.picks.last().unwrap();
    assert_eq!(then.words, "Then");
    assert_eq!(then.options[0].words, "then turns it to its B side");
    let state = game.last();
    let display = &state.helpers.as_ref().unwrap().display;
    assert_eq!(then.options.len(), 1 + display.len());
    // Any resource may be named (an opponent without it gives nothing).
    let named: Vec<&str> = form.picks[0].options.iter().map(|o| o.words.as_str()).collect();
    assert_eq!(named, ["lumber", "brick", "wool", "grain", "ore"]);
    // The others' helpers, but for Marianne and Sean, wait for their own turns.
    let helpers = state.helpers.as_ref().unwrap();
    let waiting: Vec<&str> = open
        .iter()
        .filter(|o| {
            o.player != "Can" && !almanac_catan::helpers::any_turn(helpers.held[o.seat as usize].unwrap().helper)
        })
        .inspect(|o| assert!(!o.types.contains(&"use_helper"), "{} uses a helper out of turn", o.player))
        .map(|o| o.player.as_str())
        .collect();
    assert!(!waiting.is_empty());
    // Right after the use, it is not offered again in that turn (once per turn).
    let game = helpers_after(28);
    let open = game.next();
    let can = open.iter().find(|o| o.player == "Can").unwrap();
    assert!(!can.types.contains(&"use_helper"), "{:?}", can.types);
}

/// Before event `i` of the club sample, a bank trade of two cards at once its active player could make:
/// each resource at each rate, given for two cards of others (the rules say which they accept).
fn two_card_bank_trade(game: &Timeline<Catan>, i: usize) -> Option<String> {
    let names = ["lumber", "brick", "wool", "grain", "ore"];
    let open = game.next();
    let player = open.iter().find(|o| o.types.contains(&"maritime_trade"))?.player.clone();
    for rate in 2..=4 {
        for give in names {
            for (k, a) in names.iter().enumerate().filter(|(_, a)| **a != give) {
                for b in names[k..].iter().filter(|b| **b != give) {
                    let get = if a == b { serde_json::json!({*a: 2}) } else { serde_json::json!({*a: 1, *b: 1}) };
                    let line = serde_json::json!({"type": "maritime_trade", "player": player,
                        "give": {give: 2 * rate}, "get": get})
                    .to_string();
                    let mut copy = game.clone();
                    if copy.push_line(i + 1, &line).is_ok() {
                        return Some(line);
                    }
                }
            }
        }
    }
    None
}

#[test]
fn several_cards_from_the_bank_in_one_trade_fill_its_form() {
    let text = sample();
    let lines: Vec<&str> = text.lines().collect();
    let mut found = 0;
    for i in 1..lines.len() {
        let game = after(i - 1);
        let Some(line) = two_card_bank_trade(&game, i) else { continue };
        found += 1;
        // The form is there, and the trade is within its bounds.
        let trade: Value = serde_json::from_str(&line).unwrap();
        let open = game.next();
        let mine = open.iter().find(|o| o.player == trade["player"]).unwrap();
        let forms = &mine.choices.iter().find(|c| c.kind == "maritime_trade").unwrap().forms;
        assert_eq!(forms.len(), 1, "before event {i}");
        for count in &forms[0].counts {
            for (card, n) in trade[count.field].as_object().unwrap() {
                let bound = count.cards.iter().find(|b| b.card == *card).unwrap();
                assert!((bound.least..=bound.most).contains(&(n.as_u64().unwrap() as u32)), "{line}: {card}");
            }
        }
        if found == 5 {
            break;
        }
    }
    assert_eq!(found, 5, "moments when a player could take two cards from the bank at once");
}

/// A trade is offered only while one may be made: in the turn's main part, never before the roll nor in
/// the Special Building Phase between turns (where the next player's trade, before their roll, would be
/// refused). Over the six-player sample, at every entry.
#[test]
fn a_trade_is_offered_only_in_the_main_part_of_a_turn() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/samples/catan-six-players.jsonl"))
            .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (envelope, header) = (Envelope::parse(lines[0]).unwrap(), lines[0]);
    let game = read_events::<Catan>(envelope, header, &text).unwrap();
    let mut offered_in_main = 0;
    for n in 0..lines.len() - 1 {
        let state = game.state_after(n);
        let main = matches!(state.phase, almanac_catan::state::Phase::Main);
        let (envelope, header) = (Envelope::parse(lines[0]).unwrap(), lines[0]);
        let at = read_events::<Catan>(envelope, header, &lines[..=n].join("\n")).unwrap();
        for open in at.next() {
            for kind in ["trade", "maritime_trade"] {
                if open.types.contains(&kind) {
                    assert!(main, "after event {n} ({:?}) {} is offered {kind}", state.phase, open.player);
                    offered_in_main += 1;
                }
            }
        }
    }
    assert!(offered_in_main > 50, "{offered_in_main}");
}

/// A roll is offered as the table says it: its total, a key each from 2 to 12 (a recorder's pad), then the
/// faces for a table that notes them, each pair once; the first roll of a turn ends nothing.
#[test]
fn a_roll_is_its_total_on_a_pad_of_eleven_keys_then_each_pair_of_faces_once() {
    let text = sample();
    let at = text.lines().skip(1).position(|l| l.contains(r#""type":"roll""#)).unwrap();
    let game = after(at);
    let open = game.next();
    let rolls = open[0].choices.iter().find(|c| c.kind == "roll").expect("a roll is open");
    let keys: Vec<&str> = rolls.events.iter().filter_map(|c| c.shown.key.as_deref()).collect();
    assert_eq!(keys, ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    let faces: Vec<Value> = rolls
        .events
        .iter()
        .filter(|c| c.shown.key.is_none())
        .map(|c| serde_json::from_str::<Value>(&c.line).unwrap()["dice"].clone())
        .collect();
    assert_eq!(faces.len(), 21, "{faces:?}");
    assert!(faces.iter().all(|d| d[0].as_u64() <= d[1].as_u64()), "{faces:?}");
    assert!(rolls.events.iter().all(|c| !c.ends));
}

/// A place is named as a table names it, after its code: a corner by the numbers and yields of its hexes,
/// the likeliest first ("9:S (the 6 grain, 8 ore, 3 wool corner)"), an edge by the hexes it runs between.
#[test]
fn a_place_is_named_by_its_hexes_numbers_and_yields() {
    let text = sample();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let hex = |i: usize| {
        let h = &header["board"]["hexes"][i];
        let r = match h["terrain"].as_str().unwrap() {
            "forest" => "lumber",
            "hills" => "brick",
            "pasture" => "wool",
            "fields" => "grain",
            "mountains" => "ore",
            other => return other.to_string(),
        };
        format!("{} {r}", h["number"])
    };
    let game = after(0);
    let settlements = game.next()[0].choices[0].events.clone();
    let on_9 = settlements.iter().find(|c| c.line.contains(r#""at":"9:S""#)).unwrap();
    assert!(on_9.words.starts_with("builds a settlement at 9:S (the "), "{}", on_9.words);
    assert!(on_9.words.contains(&hex(9)), "{} names hex 9, {}", on_9.words, hex(9));
    assert!(on_9.words.ends_with(" corner)") || on_9.words.contains(" corner, by the "), "{}", on_9.words);
    let game = after(1);
    let roads = game.next()[0].choices[0].events.clone();
    assert!(roads.iter().all(|c| c.words.contains(" (between the ") || c.words.contains(" (by the ")), "{roads:?}");
    // The robber goes to a hex named so too: "the 6 grain hex (4)".
    let robber = text.lines().position(|l| l.contains(r#""type":"move_robber""#)).unwrap();
    let game = after(robber - 1);
    let moves = game.next()[0].choices.iter().find(|c| c.kind == "move_robber").unwrap().events.clone();
    assert!(!moves.is_empty());
    for c in &moves {
        let to: Value = serde_json::from_str(&c.line).unwrap();
        let h = to["hex"].as_u64().unwrap() as usize;
        let named = format!("moves the robber to the {} hex ({h})", hex(h));
        assert!(c.words.starts_with(&named), "{} names hex {h} as {named}", c.words);
    }
}
