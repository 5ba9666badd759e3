//! The toy game of `crates/toy-game`, added as ARCHITECTURE.md's "Adding a game" says, through every layer:
//! its log uploaded to the real server (on a free port, with a real SQLite file), validated and replayed by
//! the engine, its states served, its chart and replay page drawn, its drawing script served. The tests'
//! build registers it (the server's dev-dependency on the engine with `toy-game`).

mod support;

use support::{spawn_app, TestApp};

fn race() -> String {
    std::fs::read_to_string(support::root().join("crates/toy-game/sample.jsonl")).unwrap()
}

fn upload(app: &TestApp, body: &str) -> (u16, serde_json::Value) {
    app.post("/api/games?format=almanac&publish=true", body.as_bytes())
}

#[test]
fn a_toy_game_added_by_the_steps_is_replayed_by_the_engine_and_drawn_by_the_server() {
    let app = spawn_app(200_000);
    let (status, body) = upload(&app, &race());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();

    // Replayed: the state after each step is the race's, and the last names the winner.
    let (status, after_three) = app.get_json(&format!("/api/games/{id}/state?seq=3"));
    assert_eq!(status, 200, "{after_three}");
    let squares: Vec<u64> =
        after_three["players"].as_array().unwrap().iter().map(|p| p["square"].as_u64().unwrap()).collect();
    assert_eq!(squares, [6, 2], "{after_three}");
    assert_eq!((after_three["active"].as_str(), after_three["goal"].as_u64()), (Some("Bo"), Some(10)));
    let (_, last) = app.get_json(&format!("/api/games/{id}/state"));
    assert_eq!((last["winner"].as_str(), last["phase"].as_str()), (Some("Bo"), Some("over")), "{last}");

    // The rules refuse what they forbid, and the upload stores nothing.
    let mut illegal = race().lines().take(2).collect::<Vec<_>>().join("\n");
    illegal.push_str("\n{\"type\":\"step\",\"player\":\"Bo\",\"by\":4}\n");
    let (status, refused) = upload(&app, &illegal);
    assert_eq!(status, 422, "{refused}");
    assert!(refused.to_string().contains("a step is 1 to 3 squares, not 4"), "{refused}");
    let (status, wrong_type) = upload(&app, "{\"format\":\"almanac/1\",\"ruleset\":\"ten-squares\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]}\n{\"type\":\"jump\",\"player\":\"A\"}");
    assert_eq!(status, 400, "{wrong_type}");
    assert!(wrong_type["error"].as_str().unwrap().contains("(known: step)"), "{wrong_type}");

    // Drawn: the score chart of its facts, the replay page, the game's drawing script and its words.
    let (status, content_type, vp) = app.get_text(&format!("/api/games/{id}/charts/vp.svg"));
    assert_eq!((status, content_type.as_str()), (200, "image/svg+xml"), "{vp}");
    assert!(vp.contains("Ayşe") && vp.contains("Bo") && vp.contains("squares"), "{vp}");
    let (status, _, page) = app.get_text(&format!("/games/{id}"));
    assert_eq!(status, 200);
    assert!(page.contains("A race to ten") && page.contains("/static/rulesets/ten-squares.js"), "{page}");
    let (status, events) = app.get_json(&format!("/api/games/{id}/events"));
    assert_eq!(status, 200);
    assert!(
        events.to_string().contains("moves 3 squares"),
        "the event list tells the steps in the game's words: {events}"
    );
    let (status, _, script) = app.get_text("/static/rulesets/ten-squares.js");
    assert_eq!(status, 200);
    assert!(script.contains("Almanac.register('ten-squares'"), "{script}");
}
