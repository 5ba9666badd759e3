//! The browser's rules answer as the server does: the same game read from the same log, an entry refused
//! with the rule's words and nothing changed, the same "what may happen next" and state.

use almanac_browser_rules::{events, next, open, push, state};
use serde_json::Value;

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../data/samples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn ok(answer: String) -> Value {
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert!(v.get("error").is_none(), "{v}");
    v["ok"].clone()
}

#[test]
fn the_browsers_rules_judge_entries_and_say_what_may_happen_next_as_the_server_does() {
    let log = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = log.lines().collect();
    // The first 30 events, then the next ones one by one.
    assert_eq!(ok(open(&lines[..31].join("\n"))), 30);
    let server = almanac_engine::read_log(&lines[..31].join("\n")).unwrap();
    assert_eq!(ok(next())["open"], serde_json::to_value(server.next()).unwrap());
    let before = ok(state());
    assert_eq!(before["seq"], 30);
    // An entry out of turn: the rule's words, and nothing changed.
    let refused: Value = serde_json::from_str(&push(r#"{"type":"build_city","player":"Can","at":"0:N"}"#)).unwrap();
    assert_eq!(refused["error"], "Can cannot build a city at 0:N: a city replaces a settlement, and 0:N is empty");
    assert_eq!(ok(state()), before);
    for (k, line) in lines[31..41].iter().enumerate() {
        assert_eq!(ok(push(line)), 31 + k);
    }
    let server = almanac_engine::read_log(&lines[..41].join("\n")).unwrap();
    assert_eq!(ok(next())["open"], serde_json::to_value(server.next()).unwrap());
    // The last entries, numbered as the game numbers them, in the replay's words.
    let rows = ok(events(39));
    let seqs: Vec<u64> = rows.as_array().unwrap().iter().map(|r| r["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [39, 40]);
    assert_eq!(rows[1]["text"], server.event_words(39, 40)[0]);
    // A withdrawal: the state is as before the entry.
    let at_39 = ok(state());
    ok(push(r#"{"type":"withdraw","seq":40}"#));
    let rows = ok(events(40));
    assert_eq!(rows[0]["withdrawn_by"], 41);
    assert_ne!(ok(state())["seq"], at_39["seq"]);
}
