//! The HTTP API against the real server on a free port, with a real SQLite file.

mod support;

use almanac_service::GAMES;
use serde_json::{json, Value};
use support::{sample, spawn_app, TestApp};

fn catanatron(name: &str) -> String {
    std::fs::read_to_string(support::root().join("tests/data/catanatron").join(name)).unwrap()
}

fn upload(app: &TestApp, body: &str, format: &str) -> (u16, Value) {
    // Published, so that the reads below (without a token) see it; privacy has tests of its own.
    app.post(&format!("/api/games?format={format}&publish=true"), body.as_bytes())
}

/// The state at `path` (a `/state` URL) without what names the game and the moment: what two games at the
/// same position share. A state that is not one fails here (a comparison of two nothings proves nothing).
fn position_at(app: &TestApp, path: &str) -> Value {
    let (status, mut state) = app.get_json(path);
    assert!(status == 200 && state["players"].is_array(), "{path}: {status} {state}");
    let fields = state.as_object_mut().unwrap();
    fields.remove("game");
    fields.remove("seq");
    state
}

fn game_count(app: &TestApp) -> usize {
    app.get_json("/api/games?limit=1000").1["games"].as_array().unwrap().len()
}

#[test]
fn upload_new_duplicate_illegal_malformed_and_too_large() {
    let app = spawn_app(200_000);
    let club = sample("catan-club-game.jsonl");
    let (status, body) = upload(&app, &club, "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, again) = upload(&app, &club, "almanac");
    assert_eq!((status, again["id"].as_str().unwrap()), (200, id.as_str()));

    // An illegal event on line 20: 422, the line, and nothing stored.
    let mut lines: Vec<&str> = club.lines().collect();
    lines[19] = r#"{"type":"roll","player":"Ayşe","dice":[3,4]}"#;
    let (status, err) = upload(&app, &lines.join("\n"), "auto");
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["line"], 20);
    assert!(err["error"].as_str().unwrap().contains("out of turn"), "{err}");

    // Malformed: 400 with the line.
    let (status, err) = upload(&app, &format!("{}\n{{\"type\":", lines[0]), "almanac");
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["line"], 2);
    let (status, err) = upload(&app, "", "auto");
    assert_eq!(status, 400, "{err}");
    let (status, err) = upload(&app, "{}", "nonsense");
    assert_eq!(status, 400, "{err}");
    assert!(err["error"].as_str().unwrap().contains("unknown format"));

    // Over the limit (200 kB here): 413.
    let big = catanatron("catanatron-2.json");
    assert!(big.len() > 200_000);
    let (status, err) = upload(&app, &big, "catanatron");
    assert_eq!(status, 413, "{err}");
    assert_eq!(game_count(&app), 1, "nothing stored on any error");
}

#[test]
fn list_summary_events_state_and_stats_of_a_catanatron_game() {
    let app = spawn_app(16 << 20);
    let text = catanatron("catanatron-3.json");
    let dump: Value = serde_json::from_str(&text).unwrap();
    let (status, body) = upload(&app, &text, "catanatron");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    upload(&app, &sample("catan-club-game.jsonl"), "auto");

    // The list, newest first, with filters.
    let (_, list) = app.get_json("/api/games");
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1]["id"], id.as_str());
    // catanatron's seats are named by their programs (colours are drawn anew each game): its colours in seat
    // order tell which seat catanatron's numbers are of.
    let seating: Vec<&str> = dump["game"]["seating"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    let (_, only) = app.get_json("/api/games?player=VictoryPointPlayer");
    assert_eq!(only["games"].as_array().unwrap().len(), 1);
    let (_, paged) = app.get_json("/api/games?limit=1&offset=1");
    assert_eq!(paged["games"][0]["id"], id.as_str());
    let (_, none) = app.get_json("/api/games?ruleset=carcassonne");
    assert!(none["games"].as_array().unwrap().is_empty());

    // Summary.
    let (status, game) = app.get_json(&format!("/api/games/{id}"));
    assert_eq!(status, 200);
    let winner = seating.iter().position(|c| dump["final"]["winner"] == *c).unwrap();
    assert_eq!(game["winner"], game["players"][winner]["name"]);
    assert_eq!(game["events"], dump["events"].as_array().unwrap().len());
    assert_eq!(game["header"]["ruleset"], "catan");
    for (p, colour) in game["players"].as_array().unwrap().iter().zip(&seating) {
        assert_eq!(p["vp"], dump["final"]["players"][colour]["vp_actual"]);
    }

    // Events by range.
    let (_, events) = app.get_json(&format!("/api/games/{id}/events?from=10&to=14"));
    let events = events["events"].as_array().unwrap();
    assert_eq!(events.iter().map(|e| e["seq"].as_u64().unwrap()).collect::<Vec<_>>(), [10, 11, 12, 13, 14]);
    assert!(events[0]["event"]["type"].is_string());

    // State at the end, by turn and by event.
    let (_, end) = app.get_json(&format!("/api/games/{id}/state"));
    for (p, colour) in end["players"].as_array().unwrap().iter().zip(&seating) {
        let theirs = &dump["final"]["players"][colour];
        assert_eq!((&p["vp"], &p["vp_public"]), (&theirs["vp_actual"], &theirs["vp_public"]));
    }
    let (_, t10) = app.get_json(&format!("/api/games/{id}/state?turn=10"));
    assert_eq!(t10["phase"], "roll");
    assert_eq!(t10["turn"], 11, "the end of turn 10: turn 11 is about to start");
    let (_, s0) = app.get_json(&format!("/api/games/{id}/state?seq=0"));
    assert_eq!(s0["seq"], 0);
    // Past the end clamps to the end, as a turn past the end does.
    let (status, past) = app.get_json(&format!("/api/games/{id}/state?seq=999999"));
    let (_, last) = app.get_json(&format!("/api/games/{id}/state"));
    assert_eq!(status, 200, "{past}");
    assert_eq!(past, last);
    let (status, err) = app.get_json("/api/games/nope/state");
    assert_eq!(status, 404, "{err}");

    // Stats: production as catanatron counted it.
    let (_, stats) = app.get_json(&format!("/api/games/{id}/stats"));
    for (p, colour) in stats["players"].as_array().unwrap().iter().zip(&seating) {
        let theirs = &dump["summary"]["production_from_rolls"][colour];
        for (c, ours) in [("WOOD", "lumber"), ("BRICK", "brick"), ("SHEEP", "wool"), ("WHEAT", "grain"), ("ORE", "ore")]
        {
            assert_eq!(p["production"][ours].as_i64().unwrap_or(0), theirs[c].as_i64().unwrap_or(0));
        }
    }
}

#[test]
fn every_chart_is_well_formed_svg() {
    let app = spawn_app(16 << 20);
    let (_, body) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    let id = body["id"].as_str().unwrap();
    for chart in ["vp", "production", "trades", "dice"] {
        let (status, content_type, svg) = app.get_text(&format!("/api/games/{id}/charts/{chart}.svg"));
        assert_eq!(status, 200, "{chart}");
        assert_eq!(content_type, "image/svg+xml");
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{chart}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }
    let (status, _, vp) = app.get_text(&format!("/api/games/{id}/charts/vp.svg"));
    assert_eq!(status, 200);
    assert!(vp.contains("data-turn=\"147\""), "a click target for the last turn");
    let (status, _, _) = app.get_text(&format!("/api/games/{id}/charts/pie.svg"));
    assert_eq!(status, 404);
}

#[test]
fn a_replay_loads_each_chart_once_compressed_and_a_browser_holding_one_revalidates_it_without_a_body() {
    let app = spawn_app(16 << 20);
    let (_, body) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    let id = body["id"].as_str().unwrap();
    // The page's chart images are for readers without scripts only: a browser running them fetches each
    // chart once, to inline it.
    let (_, _, page) = app.get_text(&format!("/games/{id}"));
    let images = page.matches("<img src=\"/api/games/").count();
    let hidden = page.matches("<noscript><img src=\"/api/games/").count();
    assert!(images > 0 && images == hidden, "{images} chart images, {hidden} of them inside noscript");
    for path in [format!("/api/games/{id}/charts/vp.svg"), "/static/replay.js".to_string()] {
        let gzip = app.send("GET", &path, None, &[("accept-encoding", "gzip")]);
        assert_eq!((gzip.status, gzip.header("content-encoding")), (200, Some("gzip")), "{path}");
        let tag = gzip.header("etag").unwrap_or_else(|| panic!("{path}: no ETag")).to_string();
        let again = app.send("GET", &path, None, &[("if-none-match", tag.as_str())]);
        assert_eq!((again.status, again.body.len()), (304, 0), "{path}: revalidated with its tag");
        let other = app.send("GET", &path, None, &[("if-none-match", "W/\"0000\"")]);
        assert_eq!(other.status, 200, "{path}: another tag gets the body");
    }
    let chart = app.send("GET", &format!("/api/games/{id}/charts/vp.svg"), None, &[]);
    assert_eq!(chart.header("cache-control"), Some("private, no-cache"), "a club's chart stays out of shared caches");
}

#[test]
fn a_seat_has_one_colour_in_the_replay_and_on_the_charts() {
    let app = spawn_app(16 << 20);
    let (_, body) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    let id = body["id"].as_str().unwrap();
    let (_, game) = app.get_json(&format!("/api/games/{id}"));
    let colours: Vec<String> =
        game["colours"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    assert_eq!(colours.len(), game["header"]["players"].as_array().unwrap().len());
    // The header names red, blue, white and orange: the pieces' own colours, one each.
    assert_eq!(colours.iter().collect::<std::collections::BTreeSet<_>>().len(), colours.len(), "{colours:?}");
    let (_, _, vp) = app.get_text(&format!("/api/games/{id}/charts/vp.svg"));
    let vp = vp.to_lowercase();
    for (seat, colour) in colours.iter().enumerate() {
        let named = game["header"]["players"][seat]["color"].as_str().unwrap();
        // A white line would vanish on the chart's white: it is drawn darker there; every other is the same.
        if named != "white" {
            assert!(vp.contains(colour.as_str()), "seat {seat} ({named}, {colour}) is another colour on the chart");
        }
    }
    // The game's items come with their declared colours, for its drawing.
    let items = game["items"].as_array().unwrap();
    assert!(!items.is_empty() && items.iter().all(|i| i["id"].is_string() && i["label"].is_string()), "{items:?}");
}

#[test]
fn live_recording_appends_and_a_stale_writer_gets_409() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..21].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let next = |from: usize, to: usize| -> Vec<Value> {
        lines[from..to].iter().map(|l| serde_json::from_str(l).unwrap()).collect()
    };

    let (status, ok) =
        app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 20, "events": next(21, 26)}));
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok["seq"], 25);
    // A second writer still believing in 20 events is refused, and nothing is appended.
    let (status, err) =
        app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 20, "events": next(21, 26)}));
    assert_eq!(status, 409, "{err}");
    // An append of no events changes nothing and says where the log stands, on either store; a stale one is
    // still stale.
    let (status, ok) = app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 25, "events": []}));
    assert_eq!((status, &ok["seq"]), (200, &json!(25)), "{ok}");
    let (status, err) = app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 20, "events": []}));
    assert_eq!(status, 409, "{err}");
    // An illegal event: 422 naming its line in the log; nothing appended.
    let (status, err) = app.post_json(
        &format!("/api/games/{id}/events"),
        &json!({"expected_seq": 25, "events": [serde_json::from_str::<Value>(lines[26]).unwrap(), {"type": "roll", "player": "Ayşe", "dice": [6, 6]}]}),
    );
    assert_eq!(status, 422, "{err}");
    assert_eq!(err["line"], 28);
    let (_, game) = app.get_json(&format!("/api/games/{id}"));
    assert_eq!(game["events"], 25);
    let (_, state) = app.get_json(&format!("/api/games/{id}/state"));
    assert_eq!(state["seq"], 25, "the cached replay moved on too");
    // The game in memory took the good event of the refused append back: the next append goes on from 25.
    let (status, ok) =
        app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 25, "events": next(26, 31)}));
    assert_eq!((status, &ok["seq"]), (200, &json!(30)), "{ok}");
    let (_, _, log) = app.get_text(&format!("/api/games/{id}/log"));
    assert_eq!(log.trim_end(), lines[..31].join("\n"), "the stored log is the sample's first 30 events");
    let (_, whole) = upload(&app, &lines[..31].join("\n"), "auto");
    assert_ne!(whole["id"].as_str(), Some(id.as_str()), "{whole}: a game of its own");
    assert_eq!(
        position_at(&app, &format!("/api/games/{id}/state")),
        position_at(&app, &format!("/api/games/{}/state", whole["id"].as_str().unwrap())),
        "the replay of the appended game is the replay of the same log read whole"
    );
}

#[test]
fn a_withdrawn_entry_is_listed_struck_and_counts_nowhere() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..21].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let post = |expected: u64, events: Value| {
        app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": expected, "events": events}))
    };
    // Event 21 is made, then withdrawn by a line of its own.
    let (status, ok) = post(20, json!([serde_json::from_str::<Value>(lines[21]).unwrap()]));
    assert_eq!((status, &ok["seq"]), (200, &json!(21)), "{ok}");
    let (status, ok) = post(21, json!([{"type": "withdraw", "seq": 21}]));
    assert_eq!((status, &ok["seq"]), (200, &json!(22)), "{ok}");
    // A withdrawal the rule does not allow is refused in its words, and nothing is appended.
    let (status, err) = post(22, json!([{"type": "withdraw", "seq": 5}]));
    assert_eq!((status, &err["line"]), (422, &json!(24)), "{err}");
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("only the last entry still in effect can be withdrawn: that is event 20"),
        "{err}"
    );
    let (status, err) = post(22, json!([{"type": "withdraw", "seq": 22}]));
    assert_eq!(status, 422, "{err}");
    assert!(err["error"].as_str().unwrap().contains("cannot be withdrawn"), "{err}");
    // The list keeps both lines and says which took which back.
    let (_, page) = app.get_json(&format!("/api/games/{id}/events?from=20"));
    let events = page["events"].as_array().unwrap();
    assert_eq!(events.len(), 3, "{page}");
    assert_eq!((&events[1]["seq"], &events[1]["withdrawn_by"]), (&json!(21), &json!(22)), "{page}");
    // The withdrawal says what it took back, in the withdrawn entry's own words.
    let took_back = format!("takes back event 21: {}", events[1]["text"].as_str().unwrap());
    assert_eq!((&events[2]["withdraws"], &events[2]["text"]), (&json!(21), &json!(took_back)), "{page}");
    assert!(events[0].get("withdrawn_by").is_none() && events[0].get("withdraws").is_none(), "{page}");
    // The game is as if event 21 had not been made: right after the withdrawal, as after event 20; and
    // grown as the sample goes on, its state and its stats are those of the sample's first 30 events.
    let at = |seq: u64| position_at(&app, &format!("/api/games/{id}/state?seq={seq}"));
    assert_eq!(at(22), at(20));
    assert_ne!(at(21), at(20), "event 21 changed the game before it was withdrawn");
    let rest: Vec<Value> = lines[21..31].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (status, ok) = post(22, json!(rest));
    assert_eq!((status, &ok["seq"]), (200, &json!(32)), "{ok}");
    let (_, whole) = upload(&app, &lines[..31].join("\n"), "auto");
    let other = whole["id"].as_str().unwrap();
    assert_ne!(other, id);
    assert_eq!(
        position_at(&app, &format!("/api/games/{id}/state")),
        position_at(&app, &format!("/api/games/{other}/state"))
    );
    let (_, stats) = app.get_json(&format!("/api/games/{id}/stats"));
    let (_, fresh) = app.get_json(&format!("/api/games/{other}/stats"));
    assert!(stats["players"].as_array().is_some_and(|p| !p.is_empty()), "{stats}");
    assert_eq!((&stats["players"], &stats["dice"]), (&fresh["players"], &fresh["dice"]), "{stats}");
    // The numbers the questions across games read leave the withdrawn entry out too: asked once the game
    // ends, and of the sample uploaded whole to another server.
    let ask = |app: &TestApp, metric: &str| {
        let (status, answer) = app.get_json(&format!("/api/questions?metric={metric}&by=player"));
        assert_eq!(status, 200, "{answer}");
        // Each player's value (the player ids are each server's own).
        let groups = answer["groups"].as_array().cloned().unwrap_or_default();
        groups.iter().map(|g| (g["label"].to_string(), g["value"].to_string())).collect::<Vec<_>>()
    };
    let rest: Vec<Value> = lines[31..].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (status, ok) = post(32, json!(rest));
    assert_eq!((status, &ok["seq"]), (200, &json!(lines.len() as u64 + 1)), "{ok}");
    let alone = spawn_app(16 << 20);
    let (status, body) = upload(&alone, &club, "auto");
    assert_eq!(status, 201, "{body}");
    for metric in ["production_per_turn", "score", "trades_per_turn"] {
        let (here, there) = (ask(&app, metric), ask(&alone, metric));
        assert_eq!(here.len(), 4, "{metric}: {here:?}");
        assert_eq!(here, there, "{metric}");
    }
}

#[test]
fn next_says_whose_decision_it_is_and_a_place_it_offers_is_accepted() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..2].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    // Ayşe placed her first settlement: her road is next, on an edge touching it.
    let (status, next) = app.get_json(&format!("/api/games/{id}/next"));
    assert_eq!(status, 200, "{next}");
    assert_eq!((&next["seq"], &next["recorder"]), (&json!(1), &json!(true)), "{next}");
    let open = next["open"].as_array().unwrap();
    assert_eq!(open.len(), 1, "{next}");
    assert_eq!((&open[0]["player"], &open[0]["types"]), (&json!("Ayşe"), &json!(["build_road"])), "{next}");
    let roads = open[0]["choices"][0]["events"].as_array().unwrap();
    assert!((2..=3).contains(&roads.len()), "{next}");
    assert!(roads[0]["words"].as_str().unwrap().starts_with("builds a road at "), "{next}");
    // A place offered is accepted as the next event; then it is Mehmet's settlement.
    let road: Value = serde_json::from_str(roads[0]["line"].as_str().unwrap()).unwrap();
    let (status, ok) = app.post_json(&format!("/api/games/{id}/events"), &json!({"expected_seq": 1, "events": [road]}));
    assert_eq!(status, 200, "{ok}");
    let (_, next) = app.get_json(&format!("/api/games/{id}/next"));
    assert_eq!((&next["seq"], &next["open"][0]["player"]), (&json!(2), &json!("Mehmet")), "{next}");
    assert_eq!(next["open"][0]["types"], json!(["build_settlement"]));
    // Of a game that does not exist, nothing.
    let (status, _) = app.get_json("/api/games/0000000000000000/next");
    assert_eq!(status, 404);
}

/// A spectator follows a live game: the stream says how many events it has, and again after each append;
/// a stranger cannot follow a private game.
#[test]
fn a_spectator_follows_each_append_and_a_stranger_no_private_game() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..11].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, spectator) = support::Spectator::follow(&app, &id, None);
    let mut spectator = spectator.unwrap_or_else(|| panic!("{status}"));
    assert_eq!(spectator.next_count(), 10);
    for (k, line) in lines[11..14].iter().enumerate() {
        let (status, ok) = app.append(&id, 10 + k, &[line]);
        assert_eq!(status, 200, "{ok}");
        assert_eq!(spectator.next_count(), 11 + k as u64);
    }
    // A private game: the public is told there is none; its club follows it.
    let (status, body) = app.post("/api/games", lines[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let private = body["id"].as_str().unwrap();
    assert_eq!(support::Spectator::follow(&app, private, None).0, 404);
    let (status, mut own) = support::Spectator::follow(&app, private, Some(&app.token));
    assert_eq!((status, own.as_mut().map(|s| s.next_count())), (200, Some(0)));
}

/// Behind the reverse proxy `serve` is told to trust, the limits per address count the clients the proxy
/// names (`X-Forwarded-For`, or RFC 7239's `Forwarded`), not the proxy: a hundred followers from a hundred
/// clients are served, while one client gets the per-address cap (two here). A follower that closes its connection frees its place then, not at a heartbeat (an
/// hour away here). Without a trusted proxy, the headers are anyone's to write and change nothing.
#[test]
fn behind_a_trusted_proxy_the_limits_count_the_clients_it_names() {
    let limits = almanac_server::Limits {
        streams_per_address: 2,
        stream_heartbeat: std::time::Duration::from_secs(3600),
        writes_per_minute: 3,
        ..Default::default()
    };
    let app = support::spawn_app_behind(&["127.0.0.1"], limits.clone());
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..11].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let follow = |header: &str| support::Spectator::follow_with(&app, &id, None, &[header]);

    let ana = "X-Forwarded-For: 198.51.100.1";
    let (first, second) = (follow(ana), follow(ana));
    assert_eq!((first.0, second.0), (200, 200));
    let (status, _) = follow(ana);
    assert_eq!(status, 503, "a third stream from one client behind the proxy");
    // Other clients of the same proxy, named either way, have places of their own.
    let (status, mut ben) = follow("X-Forwarded-For: 198.51.100.2");
    assert_eq!(status, 200);
    assert_eq!(ben.as_mut().map(|s| s.next_count()), Some(10));
    let (status, _) = follow("Forwarded: for=198.51.100.3;proto=https");
    assert_eq!(status, 200);
    // A client cannot get places by naming others before itself: the proxy's last word counts.
    let (status, _) = follow("X-Forwarded-For: 192.0.2.9, 198.51.100.1");
    assert_eq!(status, 503);
    // A hundred more clients, each its own follower, all kept open at once.
    let hundred: Vec<_> = (0..100).map(|k| follow(&format!("X-Forwarded-For: 203.0.113.{k}"))).collect();
    let served = hundred.iter().filter(|(status, s)| *status == 200 && s.is_some()).count();
    assert_eq!(served, 100, "{:?}", hundred.iter().map(|(status, _)| status).collect::<Vec<_>>());
    drop(hundred);

    // A follower that goes frees its place when its connection closes (the heartbeat is an hour away).
    drop(first);
    let started = std::time::Instant::now();
    loop {
        match follow(ana) {
            (200, Some(_)) => break,
            (status, _) => assert_eq!(status, 503),
        }
        assert!(started.elapsed() < support::PATIENCE, "the place comes free when the connection closes");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    // Writes a minute are counted per client too: the address pays for every attempt, a bad token's too.
    let attempt = |client: &str| {
        let headers = [("authorization", "Bearer not-a-token"), ("x-forwarded-for", client)];
        app.send("POST", "/api/games", Some(lines[0].as_bytes()), &headers).status
    };
    let spent: Vec<u16> = (0..4).map(|_| attempt("198.51.100.4")).collect();
    assert_eq!(spent, [401, 401, 401, 429]);
    assert_eq!(attempt("198.51.100.5"), 401, "another client's writes are its own");

    // A server that trusts no proxy reads no such header: the third stream from loopback is refused.
    let open = support::spawn_app_with(16 << 20, limits);
    let (status, body) = upload(&open, &lines[..11].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let claims = ["X-Forwarded-For: 198.51.100.1", "X-Forwarded-For: 198.51.100.2", "Forwarded: for=198.51.100.3"];
    // Each stream kept open while the next is asked for.
    let streams: Vec<_> = claims.iter().map(|h| support::Spectator::follow_with(&open, &id, None, &[h])).collect();
    assert_eq!(streams.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [200, 200, 503]);
}

/// Streams hold connections, so they have limits: a few per client address (more are answered 503 with
/// `Retry-After`, and a place comes free when a follower goes), an end after a while without an entry, and
/// an end as soon as the game is no longer the follower's to see.
#[test]
fn streams_are_limited_end_when_idle_and_end_when_their_game_is_made_private() {
    let limits = almanac_server::Limits {
        streams_per_address: 2,
        stream_heartbeat: std::time::Duration::from_millis(200),
        stream_idle: std::time::Duration::from_secs(4),
        writes_per_minute: 0,
        ..Default::default()
    };
    let app = support::spawn_app_with(16 << 20, limits);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, &lines[..11].join("\n"), "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/stream");

    let (_, first) = support::Spectator::follow(&app, &id, None);
    let (_, second) = support::Spectator::follow(&app, &id, None);
    let (mut first, second) = (first.expect("the first stream"), second.expect("the second stream"));
    assert_eq!(first.next_count(), 10);
    let refused = app.send("GET", &path, None, &[]);
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("10"));
    assert!(refused.body.contains("2 games at once"), "{}", refused.body);
    // A follower that goes gives its place back (when its connection closes).
    let follow_when_free = |token: Option<&str>| {
        let started = std::time::Instant::now();
        loop {
            match support::Spectator::follow(&app, &id, token) {
                (200, Some(s)) => return s,
                (status, _) => assert_eq!(status, 503),
            }
            assert!(started.elapsed() < support::PATIENCE, "the place comes free");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    drop(second);
    let mut third = follow_when_free(None);
    assert_eq!(third.next_count(), 10);

    // Made private: the public's stream ends at once, the club's own goes on.
    drop(first);
    let mut own = follow_when_free(Some(&app.token));
    assert_eq!(own.next_count(), 10);
    let (status, body) = app.post_json(&format!("/api/games/{id}/publish"), &json!({"published": false}));
    assert_eq!(status, 200, "{body}");
    assert_eq!(third.ending().as_deref(), Some("gone"));
    assert_eq!(support::Spectator::follow(&app, &id, None).0, 404);

    // A quiet stream gets its heartbeat however busy the other games are (each append to another game is
    // heard, and must not put the heartbeat off).
    let (status, body) = upload(&app, &lines[..11].join("\n").replace("Thursday league", "Another table"), "auto");
    assert_eq!(status, 201, "{body}");
    let other = body["id"].as_str().unwrap().to_string();
    std::thread::scope(|scope| {
        let busy = scope.spawn(|| {
            for k in 0..25 {
                assert_eq!(app.append(&other, 10 + k, &[lines[11 + k]]).0, 200);
                std::thread::sleep(std::time::Duration::from_millis(60));
            }
        });
        own.until_line(": still here");
        assert!(!busy.is_finished(), "the heartbeat came while the other game was busy");
        busy.join().unwrap();
    });

    // An entry keeps a stream alive; without one for `stream_idle` it ends, saying so.
    let (status, ok) = app.append(&id, 10, &[lines[11]]);
    assert_eq!(status, 200, "{ok}");
    assert_eq!(own.next_count(), 11);
    assert_eq!(own.ending().as_deref(), Some("idle"));
    assert_eq!(support::Spectator::follow(&app, &id, None).0, 404);
}

/// A server with the club's game published and a catan model trained on it.
fn trained_server() -> TestApp {
    let app = spawn_app(16 << 20);
    support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    app
}

/// Each player's chance at turn 10, as the questions across games answer it, by player.
fn chances_at_turn_ten(app: &TestApp) -> Vec<(Value, Value)> {
    let (status, answer) = app.get_json("/api/questions?metric=chance_at_turn&arg=10&by=player&ruleset=catan&bots=yes");
    assert_eq!(status, 200, "{answer}");
    answer["groups"].as_array().unwrap().iter().map(|g| (g["label"].clone(), g["value"].clone())).collect()
}

/// A second catan model kept beside the first (its weights tripled), as a training cut short leaves it:
/// kept, and no game derived with it.
fn second_model_kept(app: &TestApp) {
    let mut store = almanac_store::Store::open(&app.db).unwrap();
    let first = store.model("catan").unwrap().unwrap();
    let mut body: Value = serde_json::from_str(&first.body).unwrap();
    for w in body["weights"].as_array_mut().unwrap() {
        *w = json!(w.as_f64().unwrap() * 3.0);
    }
    store.save_model(&almanac_store::WinModel { body: body.to_string(), ..first }).unwrap();
}

/// Training is one act: a training cut short after its model was kept (`almanac train` killed before it had
/// derived every game with it) leaves games whose numbers name the older model; the next server derives them,
/// and its chance questions then answer what a whole training would have left.
#[test]
fn a_training_cut_short_is_finished_by_the_next_server() {
    let app = trained_server();
    let groups = chances_at_turn_ten;
    let before = groups(&app);
    assert!(!before.is_empty());
    // Kept while no server runs (a running one would take it up by itself: the next test).
    app.stop();
    second_model_kept(&app);
    {
        let store = almanac_store::Store::open(&app.db).unwrap();
        let due = almanac_service::games_to_reproject(&store, Some("catan"), false).unwrap();
        assert!(!due.is_empty(), "the games' numbers name the older model");
    }
    // The next server derives them in the background, and says when it is done.
    app.start_again();
    let started = std::time::Instant::now();
    while app.get_json("/api/status").1["derivation"] != Value::Null {
        assert!(started.elapsed() < support::PATIENCE, "the games are derived again");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let after = groups(&app);
    assert_ne!(after, before, "the chances are the new model's");
    // What a whole training leaves: every game derived with the newest model.
    {
        let mut store = almanac_store::Store::open(&app.db).unwrap();
        assert!(almanac_service::games_to_reproject(&store, Some("catan"), false).unwrap().is_empty());
        let all = almanac_service::games_to_reproject(&store, Some("catan"), true).unwrap();
        let report = almanac_service::reproject(&mut store, &all, |_| {});
        assert!(report.failed.is_empty());
    }
    assert_eq!(groups(&app), after, "the chance questions agree with a whole training");
    // A live game (not over: no chance numbers yet) is not due for its model, however it grows.
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = app.post("/api/games", lines[..11].join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let (status, ok) = app.append(body["id"].as_str().unwrap(), 10, &[lines[11]]);
    assert_eq!(status, 200, "{ok}");
    let store = almanac_store::Store::open(&app.db).unwrap();
    assert_eq!(almanac_service::games_to_reproject(&store, Some("catan"), false).unwrap(), Vec::<String>::new());
}

/// A model trained elsewhere while a server runs (another server, or `almanac train` on its database, cut
/// short before it derived a game): the running server finds it by itself, marks the games whose numbers
/// name the older model, and derives them, without a restart; its chance questions then answer the new model.
#[test]
fn a_model_trained_elsewhere_is_taken_up_by_a_running_server() {
    let app = trained_server();
    let before = chances_at_turn_ten(&app);
    assert!(!before.is_empty());
    let due = || {
        let store = almanac_store::Store::open(&app.db).unwrap();
        almanac_service::games_to_reproject(&store, Some("catan"), false).unwrap()
    };
    second_model_kept(&app);
    let started = std::time::Instant::now();
    while !due().is_empty() {
        assert!(started.elapsed() < support::PATIENCE, "the running server derives the games again");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let started = std::time::Instant::now();
    while app.get_json("/api/status").1["derivation"] != Value::Null {
        assert!(started.elapsed() < support::PATIENCE, "the server says it is done");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_ne!(
        chances_at_turn_ten(&app),
        before,
        "the chances are the new model's, on the server that never restarted"
    );
}

/// A stored model that does not read back (a part of the wrong size; weights each finite that add up to no
/// number) gives no chances, and says why; `train` never keeps one.
#[test]
fn a_model_that_does_not_read_back_is_no_chances_and_says_why() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(&app, &["catan-club-game.jsonl"]);
    support::train(&app, "catan");
    let mut store = almanac_store::Store::open(&app.db).unwrap();
    let kept = store.model("catan").unwrap().unwrap();
    let mut short: Value = serde_json::from_str(&kept.body).unwrap();
    short["weights"].as_array_mut().unwrap().pop();
    let mut huge: Value = serde_json::from_str(&kept.body).unwrap();
    huge["weights"].as_array_mut().unwrap().iter_mut().for_each(|w| *w = json!(1e308));
    for (body, why) in [(short, "numbers, not"), (huge, "add up to more")] {
        store.save_model(&almanac_store::WinModel { body: body.to_string(), ..kept.clone() }).unwrap();
        let started = std::time::Instant::now();
        let (status, answer) = loop {
            let (status, answer) = app.get_json(&format!("/api/games/{}/chances", ids[0]));
            let refused = answer["error"].as_str().is_some_and(|e| e.contains(why));
            if refused || started.elapsed() > support::PATIENCE {
                break (status, answer);
            }
            // The server keeps a model a few seconds.
            std::thread::sleep(std::time::Duration::from_millis(200));
        };
        assert_eq!(status, 404, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains("does not read back") && error.contains("weights") && error.contains(why), "{error}");
        assert!(!answer.to_string().contains("null"), "{answer}");
    }
}

#[test]
fn uploaded_names_are_escaped_everywhere() {
    let app = spawn_app(16 << 20);
    let evil = "<script>alert(1)</script>";
    let club = sample("catan-club-game.jsonl")
        .replace("Ayşe", evil)
        .replace("Thursday league", "<img src=x onerror=alert(2)>");
    let (status, body) = upload(&app, &club, "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap();
    for page in ["/".to_string(), format!("/games/{id}"), format!("/api/games/{id}/charts/vp.svg")] {
        let (status, _, html) = app.get_text(&page);
        assert_eq!(status, 200, "{page}");
        assert!(!html.contains("<script>alert(1)"), "{page} carries the name unescaped");
        assert!(!html.contains("<img src=x"), "{page} carries the title unescaped");
    }
    let (_, _, index) = app.get_text("/");
    assert!(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the name is shown, escaped");
}

/// The API's routes as the server's code registers them: (method, path) of every `route("/api/...")` and
/// `resource("/api/...")` with its `.route(web::method())`s, read from the source.
fn served_api_routes() -> std::collections::BTreeSet<(String, String)> {
    let mut routes = std::collections::BTreeSet::new();
    let dir = support::root().join("crates/server/src");
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        // Each registration opens with its path; the methods named up to the next one are its own.
        let mut path: Option<String> = None;
        let mut rest = text.as_str();
        while let Some(at) = ["route(\"", "resource(\"", "web::get()", "web::post()", "web::delete()", "web::put()"]
            .iter()
            .filter_map(|m| rest.find(m).map(|i| (i, *m)))
            .min()
        {
            let (i, marker) = at;
            rest = &rest[i + marker.len()..];
            if marker.ends_with('"') {
                let end = rest.find('"').unwrap();
                path = Some(rest[..end].to_string());
            } else if let Some(p) = path.as_ref().filter(|p| p.starts_with("/api/")) {
                let method = marker.trim_start_matches("web::").trim_end_matches("()");
                routes.insert((method.to_string(), p.clone()));
            }
        }
    }
    routes
}

#[test]
fn every_api_route_served_is_documented_and_every_documented_route_is_served() {
    let app = spawn_app(16 << 20);
    let (status, doc) = app.get_json("/api/openapi.json");
    assert_eq!(status, 200);
    let documented: std::collections::BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| ops.as_object().unwrap().keys().map(move |m| (m.clone(), path.clone())))
        .collect();
    let served = served_api_routes();
    assert!(served.len() >= 20, "the route table was read: {served:?}");
    let undocumented: Vec<_> = served.difference(&documented).collect();
    let unserved: Vec<_> = documented.difference(&served).collect();
    assert!(undocumented.is_empty(), "served and not in the OpenAPI document: {undocumented:?}");
    assert!(unserved.is_empty(), "in the OpenAPI document and not served: {unserved:?}");
    // And the server itself answers each one (a route it lacks answers "no route").
    let auth = format!("Bearer {}", app.token);
    for (method, path) in &documented {
        let url = path
            .replace("{id}", if path.starts_with("/api/players") { "4294967296" } else { "0000000000000000" })
            .replace("{other}", "4294967297")
            .replace("{chart}", "vp.svg");
        let headers = [("authorization", auth.as_str()), ("content-type", "application/json")];
        let body = (method != "get").then_some(&b"{}"[..]);
        let reply = app.send(&method.to_uppercase(), &url, body, &headers);
        assert!(!reply.body.contains("no route"), "{method} {url}: {} {}", reply.status, reply.body);
    }
}

#[test]
fn a_jcloisterzone_game_uploads_replays_and_charts() {
    let app = spawn_app(16 << 20);
    let jcz =
        std::fs::read_to_string(support::root().join("tests/data/jcloisterzone/city-and-road-scoring.jcz")).unwrap();
    let (status, body) = upload(&app, &jcz, "jcz");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, again) = upload(&app, &jcz, "auto");
    assert_eq!((status, again["id"].as_str().unwrap()), (200, id.as_str()), "the format is detected");
    let (_, state) = app.get_json(&format!("/api/games/{id}/state"));
    let vp: Vec<(String, i64)> = state["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p["vp"].as_i64().unwrap()))
        .collect();
    assert_eq!(vp, [("David".to_string(), 7), ("Wendy".to_string(), 16)]);
    for chart in ["vp", "score"] {
        let (status, _, svg) = app.get_text(&format!("/api/games/{id}/charts/{chart}.svg"));
        assert_eq!(status, 200);
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{chart}: {e}"));
    }
    let (status, _, page) = app.get_text(&format!("/games/{id}"));
    assert_eq!(status, 200);
    assert!(page.contains("data-ruleset=\"carcassonne\"") && page.contains("data-chart=\"score\""));
    assert!(!page.contains("data-chart=\"dice\""), "no dice in Carcassonne");
}

#[test]
fn events_read_in_words_and_a_prefix_finds_the_game() {
    let app = spawn_app(16 << 20);
    let (_, body) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    let id = body["id"].as_str().unwrap().to_string();
    let (_, events) = app.get_json(&format!("/api/games/{}/events?from=1&to=20", &id[..6]));
    assert_eq!(events["game"], id.as_str(), "the prefix resolved to the game");
    let events = events["events"].as_array().unwrap();
    let at = events[0]["event"]["at"].as_str().unwrap();
    let text = events[0]["text"].as_str().unwrap();
    assert!(text.starts_with(&format!("builds a settlement at {at} (the ")), "{}", events[0]);
    assert!(text.ends_with(" corner)") || text.contains(" corner, by the "), "{}", events[0]);
    let roll = events.iter().find(|e| e["event"]["type"] == "roll").unwrap();
    let dice = &roll["event"]["dice"];
    let sum = dice[0].as_u64().unwrap() + dice[1].as_u64().unwrap();
    assert_eq!(roll["text"], format!("rolls {sum} ({}+{})", dice[0], dice[1]));
    // The state by prefix and by id are the same document.
    let (_, by_prefix) = app.get_json(&format!("/api/games/{}/state?turn=3", &id[..6]));
    let (_, by_id) = app.get_json(&format!("/api/games/{id}/state?turn=3"));
    assert_eq!(by_prefix, by_id);
    assert_eq!(by_id["game"], id.as_str());
}

#[test]
fn each_game_serves_its_replay_drawing_and_only_its_own_charts() {
    let app = spawn_app(16 << 20);
    for ruleset in GAMES.iter().map(|g| g.id()) {
        let (status, content_type, script) = app.get_text(&format!("/static/rulesets/{ruleset}.js"));
        assert_eq!(status, 200, "{ruleset}");
        assert!(content_type.starts_with("text/javascript"));
        assert!(script.contains(&format!("Almanac.register('{ruleset}'")), "{ruleset}");
    }
    let (status, _, _) = app.get_text("/static/rulesets/chess.js");
    assert_eq!(status, 404);
    let (_, body) = upload(&app, &sample("carcassonne-traders-builders.jsonl"), "auto");
    let id = body["id"].as_str().unwrap();
    let (status, _, svg) = app.get_text(&format!("/api/games/{id}/charts/dice.svg"));
    assert_eq!(status, 404, "a Carcassonne game has no dice chart: {svg}");
    for chart in ["production", "production-by-turn", "trades"] {
        let (status, _, _) = app.get_text(&format!("/api/games/{id}/charts/{chart}.svg"));
        assert_eq!(status, 404, "a Carcassonne game has no {chart} chart");
    }
    assert!(svg.contains("no chart `dice` for carcassonne games (vp, score)"), "{svg}");
    let (_, _, page) = app.get_text(&format!("/games/{id}"));
    assert!(page.contains("/static/rulesets/carcassonne.js"), "the page loads its game's drawing");
}

#[test]
fn the_openapi_document_names_this_builds_formats_rulesets_and_charts() {
    let app = spawn_app(16 << 20);
    let (_, doc) = app.get_json("/api/openapi.json");
    let enumeration = |path: &str, method: &str, name: &str| -> Vec<String> {
        let params = doc["paths"][path][method]["parameters"].as_array().unwrap();
        let p = params.iter().find(|p| p["name"] == name).unwrap();
        p["schema"]["enum"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
    };
    assert_eq!(enumeration("/api/games", "post", "format"), ["auto", "almanac", "catanatron", "jsettlers", "jcz"]);
    let rulesets: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
    assert_eq!(enumeration("/api/games", "get", "ruleset"), rulesets);
    assert!(enumeration("/api/games/{id}/charts/{chart}", "get", "chart").contains(&"score.svg".to_string()));
    let index = app.send("GET", "/", None, &[("cookie", &format!("almanac_token={}", app.token))]).body;
    for label in ["almanac/1 log", "catanatron dump", "JSettlers2 event log (.soclog)", "JCloisterZone save"] {
        assert!(index.contains(label), "the upload form offers {label}");
    }
}

#[test]
fn points_by_reason_say_what_stands_on_the_board_and_keep_no_zeros() {
    let app = spawn_app(16 << 20);
    for sample_name in ["catan-helpers.jsonl", "catan-six-players.jsonl", "catan-club-game.jsonl"] {
        let (_, body) = upload(&app, &sample(sample_name), "auto");
        let id = body["id"].as_str().unwrap();
        let (_, stats) = app.get_json(&format!("/api/games/{id}/stats"));
        let (_, state) = app.get_json(&format!("/api/games/{id}/state"));
        for (p, player) in stats["players"].as_array().unwrap().iter().enumerate() {
            let name = state["players"][p]["name"].as_str().unwrap();
            let standing = |kind: &str| {
                state["buildings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|b| b["owner"] == name && b["kind"] == kind)
                    .count() as i64
            };
            let reasons = player["vp_by_reason"].as_object().unwrap();
            let points = |reason: &str| reasons.get(reason).and_then(Value::as_i64).unwrap_or(0);
            assert_eq!(
                points("settlement"),
                standing("settlement"),
                "{sample_name}: {name}'s settlements: {reasons:?}"
            );
            assert_eq!(points("city"), 2 * standing("city"), "{sample_name}: {name}'s cities: {reasons:?}");
            assert!(reasons.values().all(|v| v.as_i64() != Some(0)), "{sample_name}: a zero kept: {reasons:?}");
            let sum: i64 = reasons.values().filter_map(Value::as_i64).sum();
            assert_eq!(sum, state["players"][p]["vp"].as_i64().unwrap(), "{sample_name}: {name}'s points add up");
        }
    }
}

#[test]
fn upload_errors_name_one_line_and_every_way_to_give_a_format() {
    let app = spawn_app(16 << 20);
    let header = sample("catan-club-game.jsonl").lines().next().unwrap().to_string();
    // Malformed JSON on line 2: the line is 2, and the message says a column, never another line.
    let (status, err) = upload(&app, &format!("{header}\n{{\"type\": \"roll\", \"dice\": [3,}}"), "almanac");
    assert_eq!((status, err["line"].as_u64()), (400, Some(2)), "{err}");
    let message = err["error"].as_str().unwrap();
    assert!(message.contains("at column") && !message.contains("line 1"), "{message}");
    // A file of no known format: every format and every way to name it.
    let (status, err) = upload(&app, "hello, world", "auto");
    assert_eq!(status, 400);
    let message = err["error"].as_str().unwrap();
    for name in almanac_service::format_names() {
        assert!(message.contains(name), "{name} missing: {message}");
    }
    assert!(message.contains("Format menu") && message.contains("--format"), "{message}");
}

#[test]
fn every_unknown_page_is_a_styled_404_and_trailing_slashes_lead_home() {
    let app = spawn_app(16 << 20);
    let r = app.send("GET", "/games/", None, &[]);
    assert_eq!((r.status, r.header("location")), (308, Some("/")));
    let r = app.send("GET", "/games/abc/", None, &[]);
    assert_eq!((r.status, r.header("location")), (308, Some("/games/abc")));
    assert_eq!(app.send("GET", "//elsewhere.example/", None, &[]).status, 404, "never a redirect off the site");
    for path in ["/nope", "/games/abc"] {
        let r = app.send("GET", path, None, &[]);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.body.contains("<html lang=\"en\">") && r.body.contains("/static/style.css"), "{path}: {}", r.body);
        assert!(r.body.contains("<h1>Not found</h1>"), "{path}: in words");
    }
    // Signed out, the recorder says what to do, in words rather than HTTP's ("Unauthorized").
    let r = app.send("GET", "/record", None, &[]);
    assert_eq!(r.status, 401);
    assert!(r.body.contains("<h1>Sign in first</h1>") && r.body.contains("href=\"/signin\""), "{}", r.body);
    assert!(!r.body.contains("Unauthorized"), "{}", r.body);
    let r = app.send("GET", "/api/nope", None, &[]);
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("no route"));
    let icon = app.send("GET", "/favicon.ico", None, &[]);
    assert_eq!((icon.status, icon.header("content-type")), (200, Some("image/svg+xml")));
}

#[test]
fn the_games_list_finds_in_any_case_sorts_and_pages() {
    let app = spawn_app(16 << 20);
    for name in ["catan-club-game.jsonl", "catan-six-players.jsonl", "carcassonne-traders-builders.jsonl"] {
        assert_eq!(upload(&app, &sample(name), "auto").0, 201);
    }
    let page = |query: &str| app.send("GET", &format!("/{query}"), None, &[]).body;
    let rows = |html: &str| html.matches("<tr><td data-label=\"Game\">").count();
    assert_eq!(rows(&page("?q=AY%C5%9EE")), 2, "Ayşe, in capitals");
    assert_eq!(rows(&page("?q=marathon")), 1);
    let by_turns = page("?sort=turns");
    let turns: Vec<u32> = by_turns
        .split("<td data-label=\"Turns\">")
        .skip(1)
        .map(|t| t.split('<').next().unwrap().parse().unwrap())
        .collect();
    assert!(turns.len() == 3 && turns.windows(2).all(|w| w[0] >= w[1]), "{turns:?}");
    assert!(by_turns.contains("<option value=\"turns\" selected>"), "the order chosen stays chosen");
    let second = page("?sort=turns&offset=1");
    assert_eq!(rows(&second), 2);
    assert!(second.contains("games 2–3") && second.contains("rel=\"prev\""), "paging says where it is");
    let api = app.send("GET", "/api/games?sort=sideways", None, &[]);
    assert_eq!(api.status, 400);
    // The ruleset column says the expansions.
    let all = page("");
    for edition in ["Catan 5–6 players", "Carcassonne + Traders &amp; Builders"] {
        assert!(all.contains(&format!("<td data-label=\"Ruleset\">{edition}</td>")), "{edition} missing");
    }
    assert_eq!(upload(&app, &sample("catan-helpers.jsonl"), "auto").0, 201);
    assert!(page("").contains("<td data-label=\"Ruleset\">Catan + Helpers</td>"));
    assert_eq!(upload(&app, &sample("catan-cards-two-players.jsonl"), "auto").0, 201);
    assert!(page("").contains("<td data-label=\"Ruleset\">Catan card game</td>"), "a game without variants: its name");
}

/// A model learnt from one program's games only has not been shown to know more than equal chances in a game
/// of people, or of another program: such a game, served with it, shows no chance at all and says why (no
/// turning point, no turn to study, a blank chart that says so); a game of that program shows its chances
/// where held-out games of it showed the model knowing more.
#[test]
fn a_model_of_programs_shows_no_chances_in_a_game_of_people_and_says_why() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_program_records(&app);
    let trained = support::train(&app, "catan");
    assert_eq!(trained.model.trained_on.played_by.keys().collect::<Vec<_>>(), vec!["catanatron"]);
    let (status, body) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    assert_eq!(status, 201, "{body}");
    let club_game = body["id"].as_str().unwrap().to_string();
    let (status, c) = app.get_json(&format!("/api/games/{club_game}/chances"));
    assert_eq!(status, 200, "{c}");
    let by_event = c["by_event"].as_array().unwrap();
    assert_eq!(c["withheld"]["until"].as_u64(), Some(by_event.len() as u64));
    assert!(by_event.iter().all(Value::is_null) && c["spread"].as_array().unwrap().iter().all(Value::is_null));
    let why = c["withheld"]["why"].as_str().unwrap();
    assert_eq!(
        why,
        format!(
            "No chances for this game: the model was not tried on any of the games played by people at a table of 4 it did not learn from (it learnt from {} games, all played by catanatron).",
            trained.games
        )
    );
    assert_eq!(c["turning_points"], json!([]));
    assert!(c["to_study"].as_array().unwrap().iter().all(|l| l == &json!([])), "{}", c["to_study"]);
    let (status, _, svg) = app.get_text(&format!("/api/games/{club_game}/charts/chances.svg"));
    assert_eq!(status, 200);
    assert!(svg.contains("No chance is shown for any turn."), "{svg:.600}");
    // The replay says why once, as it says there is no model: no chart of nothing, no "no chance yet" at
    // every event (its script never asks), no column of turns to study.
    let (_, _, page) = app.get_text(&format!("/games/{club_game}"));
    assert!(page.contains(&format!("<p class=\"hint no-chances\">{why}</p>")), "the replay says why once");
    assert!(page.contains("data-chances=\"no\"") && !page.contains("data-chart=\"chances\""), "no chart");
    assert!(!page.contains("class=\"study\""), "no column of turns to study");
    // A game another program's robots played (a JSettlers2 server's robots-only game): none either, naming
    // that program.
    let record = std::fs::read_to_string(support::root().join("tests/data/jsettlers/jsettlers-4p-01.soclog")).unwrap();
    let (status, body) = upload(&app, &record, "auto");
    assert_eq!(status, 201, "{body}");
    let (_, c) = app.get_json(&format!("/api/games/{}/chances", body["id"].as_str().unwrap()));
    let why = c["withheld"]["why"].as_str().unwrap();
    assert!(why.starts_with("No chances for this game:") && why.contains("games played by JSettlers2"), "{why}");
    // A game the model's program played: chances from where, on held-out games of that program at that table
    // size, the model beat equal chances (from the first turn on where it did so from the start).
    let (_, c) = app.get_json(&format!("/api/games/{}/chances", ids[0]));
    let seats = c["players"].as_array().unwrap().len();
    let from = trained.model.trained_on.shown_from("catanatron", seats).expect("shown somewhere");
    let why = c["withheld"]["why"].as_str().unwrap();
    assert!(if from == 0 { why.contains("set-up") } else { why.starts_with("No chances before turn") }, "{why}");
    let shown = c["by_event"].as_array().unwrap().iter().filter(|r| r.is_array()).count();
    assert!(shown > 50, "{shown} positions shown");
}

/// An answer's group values, the solid groups' and then the thin ones' (each kind is ordered on its own).
fn values_solid_then_thin(answer: &Value) -> [Vec<f64>; 2] {
    let of = |solid: bool| -> Vec<f64> {
        let groups = answer["groups"].as_array().unwrap().iter();
        groups.filter(|g| g["solid"] == solid).map(|g| g["value"].as_f64().unwrap()).collect()
    };
    [of(true), of(false)]
}

/// Before a ruleset has a model its games say why they show no chances; once `train` has kept one, every
/// game of it has each seat's chance after every event (a distribution each time, the winner's 1 at the
/// end), its turning points and its chart; another ruleset's games still say why they have none.
#[test]
fn win_chances_are_served_once_a_model_is_trained_and_say_why_before() {
    let app = spawn_app(16 << 20);
    let ids = support::publish_records_for_a_model(
        &app,
        &["catan-club-game.jsonl", "catan-six-players.jsonl", "catan-helpers.jsonl"],
    );
    let club_game = ids[ids.len() - 3].clone();
    // A game of random legal play (a program at every seat), four at the table.
    let game = support::first_generated_game(&ids);
    let (status, body) = app.get_json(&format!("/api/games/{club_game}/chances"));
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("no win-chance model yet"), "{body}");
    let (_, _, page) = app.get_text(&format!("/games/{club_game}"));
    assert!(page.contains("No win chances: Catan has no win-chance model yet"), "the replay says why");

    let trained = support::train(&app, "catan");
    assert_eq!(trained.games + trained.unfinished, ids.len(), "every published game was read");
    assert!(trained.games >= 20, "a model needs 20 finished games: {}", trained.games);

    // The club game is people's: a model of programs (catanatron's and random play) shows it no chance, and
    // says why.
    let (_, theirs) = app.get_json(&format!("/api/games/{club_game}/chances"));
    assert!(theirs["by_event"].as_array().unwrap().iter().all(Value::is_null), "no chance for people");
    let why = theirs["withheld"]["why"].as_str().unwrap();
    assert!(why.contains("games played by people at a table of 4"), "{why}");
    let (status, c) = app.get_json(&format!("/api/games/{game}/chances"));
    assert_eq!(status, 200, "{c}");
    let by_event = c["by_event"].as_array().unwrap();
    let (_, summary) = app.get_json(&format!("/api/games/{game}"));
    assert_eq!(by_event.len() as u64, summary["events"].as_u64().unwrap() + 1, "the start and every event");
    // The set-up (the game's 16 placements) is a position the model never learnt from: no chance there.
    // Past it, chances start in the first third of the game (by how near the leader is to winning) from which
    // on the model beat equal chances on held-out games of random play at a table of four, as the model keeps
    // it; before it, none, and the answer says why.
    let model = trained.model.trained_on.clone();
    let from = model.shown_from("programs", 4).expect("the model beat equal chances late in random play's games");
    let until = c["withheld"]["until"].as_u64().unwrap() as usize;
    let why = c["withheld"]["why"].as_str().unwrap();
    if from == 0 {
        assert_eq!(until, 16, "{}", c["withheld"]);
        assert!(why.contains("set-up"), "{why}");
    } else {
        assert!(until > 16 && why.starts_with("No chances before turn"), "{}", c["withheld"]);
        assert!(why.contains(if from == 1 { "first third" } else { "first two thirds" }), "{why}");
    }
    assert!(by_event[..until].iter().all(Value::is_null), "no chance after the first settlement: {}", by_event[1]);
    for at in &by_event[until..] {
        // Sent to four places: each off by half a ten-thousandth at most.
        let sum: f64 = at.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 3e-4, "{at}");
        assert!(at.as_array().unwrap().iter().all(|v| v.to_string().len() <= 6), "four places: {at}");
    }
    // The winner's chance is 1 at the end.
    let winner = c["players"].as_array().unwrap().iter().position(|p| *p == summary["winner"]).unwrap();
    assert_eq!(by_event.last().unwrap()[winner].as_f64(), Some(1.0));
    // Each chance with its spread, from the 25 games behind the model: none negative, none at the end.
    let spread = c["spread"].as_array().unwrap();
    assert_eq!(spread.len(), by_event.len());
    let spreads: Vec<f64> =
        spread[until..].iter().flat_map(|s| s.as_array().unwrap().iter().map(|v| v.as_f64().unwrap())).collect();
    assert!(spreads.iter().all(|&s| s >= 0.0) && spreads.iter().any(|&s| s > 0.01), "{spread:?}");
    assert!(spread.last().unwrap().as_array().unwrap().iter().all(|v| v.as_f64() == Some(0.0)));
    let points = c["turning_points"].as_array().unwrap();
    assert!(!points.is_empty());
    for t in points {
        let seq = t["seq"].as_u64().unwrap() as usize;
        let seat = c["players"].as_array().unwrap().iter().position(|p| p == &t["player"]).unwrap();
        assert!((t["after"].as_f64().unwrap() - by_event[seq][seat].as_f64().unwrap()).abs() <= 5e-5, "{t}");
        assert!(t["turn"].as_u64().unwrap() > 0, "no turning point in the setup: {t}");
    }
    // A turning point is a swing that lasted: a round later (four turns on) the seat's chance still stood on
    // the same side of where it was before the event.
    let (mut turns, mut kinds) = (Vec::new(), Vec::new());
    let mut from = Some(1);
    while let Some(f) = from {
        let (_, page) = app.get_json(&format!("/api/games/{game}/events?from={f}"));
        turns.extend(page["events"].as_array().unwrap().iter().map(|e| e["turn"].as_u64().unwrap()));
        kinds.extend(
            page["events"].as_array().unwrap().iter().map(|e| e["event"]["type"].as_str().unwrap().to_string()),
        );
        from = page["next"].as_u64();
    }
    for t in points {
        let seat = c["players"].as_array().unwrap().iter().position(|p| p == &t["player"]).unwrap();
        let later = turns.iter().filter(|&&turn| turn <= t["turn"].as_u64().unwrap() + 4).count().min(turns.len());
        let (before, after) = (t["before"].as_f64().unwrap(), t["after"].as_f64().unwrap());
        let then = by_event[later][seat].as_f64().unwrap();
        assert!((after - before) * (then - before) > 0.0, "{t}: {then} a round later");
    }
    // Each seat's turns to study: its own decisions that lost chance against the best alternative the rules
    // allowed, the costliest first, each marked by the chance lost; the best alternative was legal there (the
    // recorder's list of what could happen next, after the events before it, offers it).
    let study = c["to_study"].as_array().unwrap();
    assert_eq!(study.len(), 4);
    let (_, _, log) = app.get_text(&format!("/api/games/{game}/log"));
    let lines: Vec<&str> = log.lines().collect();
    for (seat, list) in study.iter().enumerate() {
        let lost: Vec<f64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                assert_eq!(t["player"], c["players"][seat]);
                let (chosen, best, lost) =
                    (t["chosen"].as_f64().unwrap(), t["best"].as_f64().unwrap(), t["lost"].as_f64().unwrap());
                assert!(best > chosen && (best - chosen - lost).abs() < 1e-9, "{t}");
                // The loss against the stakes, in an even two-player game's points, marked where it passes a
                // threshold by more than twice the model's uncertainty of it.
                let points = 50.0 * (best / chosen).ln();
                assert!((t["points"].as_f64().unwrap() - points).abs() < 1e-9, "{t}");
                let told_apart = t["points_spread"].as_f64().is_none_or(|s| points > 2.0 * s + 0.01);
                let mark = match points {
                    p if p >= 15.0 && told_apart => "blunder",
                    p if p >= 10.0 && told_apart => "mistake",
                    p if p >= 5.0 && told_apart => "inaccuracy",
                    p if p < 0.5 => "best",
                    _ => "good",
                };
                if (points - 5.0).abs() > 0.01 && (points - 10.0).abs() > 0.01 && (points - 15.0).abs() > 0.01 {
                    assert_eq!(t["mark"], mark, "{t}");
                }
                assert!(
                    ["inaccuracy", "mistake", "blunder"].contains(&t["mark"].as_str().unwrap()),
                    "a turn to study is marked, not best nor good: {t}"
                );
                assert!(
                    t["alternatives"].as_u64().unwrap() >= 2 && !t["best_words"].as_str().unwrap().is_empty(),
                    "{t}"
                );
                let seq = t["seq"].as_u64().unwrap() as usize;
                // A trade's partner who should have declined has no event to play instead.
                if t["best_line"] == "" {
                    assert_eq!(t["best_words"], "declines the trade", "{t}");
                    assert_eq!(kinds[seq - 1], "trade", "{t}");
                    return points;
                }
                let mut before = lines[..seq].to_vec();
                before.push(t["best_line"].as_str().unwrap());
                let (status, other) = app.post("/api/games?format=almanac", before.join("\n").as_bytes());
                assert!(status == 201 || status == 200, "the best alternative is legal there: {other}");
                points
            })
            .collect();
        assert!(lost.iter().all(|&l| l > 0.0) && lost.windows(2).all(|w| w[0] >= w[1]), "{lost:?}");
    }
    // Only the player's own decisions are turns to study: no roll, no discard a 7 forced (ending a turn with a
    // build in hand is one).
    let studied: Vec<&str> = study
        .iter()
        .flat_map(|list| {
            list.as_array().unwrap().iter().map(|t| kinds[t["seq"].as_u64().unwrap() as usize - 1].as_str())
        })
        .collect();
    assert!(!studied.is_empty() && studied.iter().all(|k| !["roll", "discard"].contains(k)), "{studied:?}");
    // The decisions are the read model's, judged when the model was trained (every game derived again with
    // it), not judged again at the first view: the store holds the same ones, naming the same model.
    let store = almanac_store::Store::open(&app.db).unwrap();
    let seen = store.visible(almanac_store::Viewer::Operator, &game).unwrap();
    let (judged_with, stored) = store.judged_decisions(&seen).unwrap();
    assert_eq!(judged_with.as_deref(), c["model"]["trained_at"].as_str());
    // (Read back from JSON to within a unit of the last place: serde_json's reader is not exact to the bit.)
    let served = c["decisions"].as_array().unwrap();
    assert!(!stored.is_empty() && served.len() == stored.len(), "{} served, {} stored", served.len(), stored.len());
    for (d, kept) in served.iter().zip(&stored) {
        assert_eq!((d["seq"].as_u64(), d["best_line"].as_str()), (Some(kept.seq), Some(kept.best_line.as_str())));
        assert_eq!(d["player"], c["players"][kept.seat as usize]);
        assert!((d["chosen"].as_f64().unwrap() - kept.chosen).abs() < 1e-12, "{d} {kept:?}");
        assert!((d["best"].as_f64().unwrap() - kept.best).abs() < 1e-12, "{d} {kept:?}");
    }
    drop(store);
    assert_eq!(c["model"]["games"].as_u64(), Some(trained.games as u64));
    // The model says what it learnt from: its games (those with a winner) by who played them, as the records'
    // seats and sources say: people, or the program that played every seat.
    let mut played_by = std::collections::BTreeMap::<String, u64>::new();
    for id in &ids {
        let (_, g) = app.get_json(&format!("/api/games/{id}"));
        if g["ruleset"] != "catan" || g["winner"].is_null() {
            continue;
        }
        let bots: Vec<bool> = g["players"].as_array().unwrap().iter().map(|p| p["bot"].as_bool().unwrap()).collect();
        let who = if !bots.contains(&true) {
            "people".to_string()
        } else if bots.contains(&false) {
            "people and programs".to_string()
        } else {
            g["header"]["source"]["program"].as_str().unwrap_or("programs").to_string()
        };
        *played_by.entry(who).or_default() += 1;
    }
    assert_eq!(played_by.keys().collect::<Vec<_>>(), ["catanatron", "people", "programs"], "{played_by:?}");
    assert_eq!(c["model"]["played_by"], json!(played_by));
    let learnt = c["model"]["learnt_from"].as_str().unwrap();
    // The larger population first.
    let mut by: Vec<(&String, &u64)> = played_by.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let said: Vec<String> = by
        .iter()
        .enumerate()
        .map(|(k, (who, n))| format!("{n} {}by {who}", if k == 0 { "played " } else { "" }))
        .collect();
    assert_eq!(learnt, format!("learnt from {} games: {}", trained.games, said.join(", ")));
    let (status, _, svg) = app.get_text(&format!("/api/games/{game}/charts/chances.svg"));
    assert_eq!(status, 200);
    let winner_name = summary["winner"].as_str().unwrap();
    assert!(svg.contains("Chance to win, by turn") && svg.contains(winner_name), "{svg:.300}");
    // Each seat's line has its 95 % interval shaded about it: a band per seat.
    let bands = svg.matches("<polygon opacity=\"0.15\"").count();
    assert_eq!(bands, c["players"].as_array().unwrap().len(), "a band per seat");
    let (_, _, page) = app.get_text(&format!("/games/{game}"));
    assert!(page.contains("data-chart=\"chances\""), "the replay shows the chart");
    assert!(
        page.contains(&format!(
            "<figcaption class=\"hint\">Win chances by a model {learnt}. <span class=\"withheld\">{}</span></figcaption>",
            c["withheld"]["why"].as_str().unwrap()
        )),
        "the chart says what the model learnt from, and where and why its chances are not shown"
    );

    // The read model holds each seat's chance gained per own turn: asked by player (programs' seats asked
    // for), it answers for a player of the generated games the mean over their finished games of what this
    // game's chances and its events say (a turn is its first event's player's; its gain runs from the position
    // before that event to the one after its last).
    let generated: Vec<String> = ids.iter().skip_while(|id| **id != game).cloned().collect();
    let generated = &generated[..generated.len() - 3];
    // The member who sat at the most generated tables of four (the first by name of those).
    let mut sat = std::collections::BTreeMap::<String, usize>::new();
    for id in generated {
        let (_, g) = app.get_json(&format!("/api/games/{id}"));
        let players = g["players"].as_array().unwrap();
        if players.len() == 4 {
            for p in players {
                *sat.entry(p["name"].as_str().unwrap().to_string()).or_default() += 1;
            }
        }
    }
    let most = *sat.values().max().unwrap();
    let who = sat.iter().find(|(_, &n)| n == most).unwrap().0.clone();
    assert!(most >= 2, "{who} sat at {most} tables");
    let (status, answer) = app.get_json("/api/questions?metric=chance_gained&by=player&ruleset=catan&bots=yes");
    assert_eq!(status, 200, "{answer}");
    let mut gains = Vec::new();
    // Per game of hers with chances shown: the turns whose ends show them.
    let mut shown_turns = std::collections::BTreeSet::new();
    for id in generated {
        let (_, c) = app.get_json(&format!("/api/games/{id}/chances"));
        let (_, summary) = app.get_json(&format!("/api/games/{id}"));
        if summary["winner"].is_null() {
            continue;
        }
        // Only where chances are shown: none in a game the model was not shown to know (six people at
        // one table, too few held-out games of them), none before it began to know.
        let until = c["withheld"]["until"].as_u64().unwrap_or(0);
        if until as usize >= c["by_event"].as_array().unwrap().len() {
            continue;
        }
        let players: Vec<&str> = c["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
        let Some(seat) = players.iter().position(|p| *p == who) else { continue };
        let chance = |i: u64, s: usize| c["by_event"][i as usize][s].as_f64().unwrap();
        let mut events = Vec::new();
        let mut from = Some(1);
        while let Some(f) = from {
            let (_, page) = app.get_json(&format!("/api/games/{id}/events?from={f}"));
            events.extend(page["events"].as_array().unwrap().iter().cloned());
            from = page["next"].as_u64();
        }
        for (k, e) in events.iter().enumerate() {
            let ends_turn = events.get(k + 1).is_none_or(|n| n["turn"] != e["turn"]);
            if ends_turn && k as u64 + 1 >= until && c["by_event"][k + 1].is_array() {
                shown_turns.insert(e["turn"].as_u64().unwrap());
            }
        }
        let (mut gained, mut turns) = (0.0, 0);
        let mut k = 0;
        while k < events.len() {
            let turn = events[k]["turn"].as_u64().unwrap();
            let end = (k..events.len()).take_while(|&j| events[j]["turn"].as_u64() == Some(turn)).last().unwrap();
            let owner = events[k]["event"]["player"].as_str().unwrap_or("");
            if turn > 0 && owner == who && events[k]["seq"].as_u64().unwrap() > until {
                gained += chance(events[end]["seq"].as_u64().unwrap(), seat)
                    - chance(events[k]["seq"].as_u64().unwrap() - 1, seat);
                turns += 1;
            }
            k = end + 1;
        }
        gains.push(gained / turns as f64);
    }
    let group = answer["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["label"] == who.as_str())
        .unwrap_or_else(|| panic!("{answer}"));
    // The most gained first, among the solid groups and then among the thin ones.
    for values in values_solid_then_thin(&answer) {
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "most gained first: {values:?}");
    }
    let expected = gains.iter().sum::<f64>() / gains.len() as f64;
    // The chances are sent to four places: a turn's gain from them is off by a ten-thousandth at most.
    assert!((group["value"].as_f64().unwrap() - expected).abs() < 1e-4, "{group} against {expected} ({gains:?})");
    // Her decision accuracy: in each finished game the mean over her judged decisions (those the chances
    // list) of 103.1668 · e^(−0.04354 · points lost) − 3.1669, kept to 0–100; over games, the mean, with a
    // mean's interval about it, the best first.
    let mut accuracies = Vec::new();
    for id in generated {
        let (_, summary) = app.get_json(&format!("/api/games/{id}"));
        if summary["winner"].is_null() {
            continue;
        }
        let (_, c) = app.get_json(&format!("/api/games/{id}/chances"));
        if c["by_event"].as_array().unwrap().iter().all(Value::is_null) {
            continue;
        }
        let mine: Vec<f64> = c["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["player"] == who.as_str())
            .map(|d| {
                let points = 50.0 * (d["best"].as_f64().unwrap() / d["chosen"].as_f64().unwrap().max(1e-6)).ln();
                (103.1668 * (-0.04354 * points.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
            })
            .collect();
        if !c["players"].as_array().unwrap().iter().any(|p| *p == who) {
            continue;
        }
        assert!(!mine.is_empty(), "{who} decided something in {id}");
        accuracies.push(mine.iter().sum::<f64>() / mine.len() as f64);
    }
    let (status, accuracy) = app.get_json("/api/questions?preset=decision-accuracy&ruleset=catan&bots=yes");
    assert_eq!(status, 200, "{accuracy}");
    // The best first, among the solid groups and then among the thin ones.
    for values in values_solid_then_thin(&accuracy) {
        let ordered = values.windows(2).all(|w| w[0] >= w[1]);
        assert!(ordered && values.iter().all(|v| (0.0..=100.0).contains(v)), "{values:?}");
    }
    let hers = accuracy["groups"].as_array().unwrap().iter().find(|g| g["label"] == who.as_str()).unwrap();
    let expected_accuracy = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
    assert!((hers["value"].as_f64().unwrap() - expected_accuracy).abs() < 1e-6, "{hers} against {accuracies:?}");
    let (low, high) = (hers["low"].as_f64().unwrap(), hers["high"].as_f64().unwrap());
    assert!(low <= expected_accuracy && expected_accuracy <= high && high - low > 0.0, "a mean's interval: {hers}");
    // Her page says the same, in percent, beside the field's, and her chance at every fifth turn.
    let (_, page) = app.get_json(&format!("/api/players/{}", group["player"]));
    let catan = page["profiles"].as_array().unwrap().iter().find(|p| p["ruleset"] == "catan").unwrap();
    let chances = catan["chances"].as_array().unwrap();
    assert!((chances[0]["mine"].as_f64().unwrap() - expected_accuracy).abs() < 1e-6, "{chances:?}");
    assert!(chances[0]["label"].as_str().unwrap().starts_with("decision accuracy"), "{chances:?}");
    // In points of percent, from chances sent to four places.
    assert!((chances[1]["mine"].as_f64().unwrap() - expected * 100.0).abs() < 1e-2, "{chances:?}");
    assert!(chances[1]["field"].as_f64().is_some());
    // Her chance at the end of every fifth turn (to the 100th) whose end shows chances in a game of hers.
    let at_turn: Vec<u64> = chances
        .iter()
        .filter_map(|c| c["key"].as_str())
        .filter(|k| !k.is_empty())
        .map(|k| k.parse().unwrap())
        .collect();
    let expected_turns: Vec<u64> = (1..=20).map(|k| k * 5).filter(|t| shown_turns.contains(t)).collect();
    assert_eq!(at_turn, expected_turns, "{chances:?}");
    let (_, _, html) = app.get_text(&format!("/players/{}", group["player"]));
    assert!(html.contains("Win chances") && html.contains("decision accuracy"), "the page shows them");
    for t in &at_turn {
        assert!(html.contains(&format!("chance to win at the end of turn {t}")), "the page shows turn {t}");
    }

    // Head to head, each one's decision accuracy beside the other's, with its interval.
    let rival = accuracy["groups"].as_array().unwrap().iter().find(|g| g["label"] != who.as_str()).unwrap();
    let (_, h) = app.get_json(&format!("/api/players/{}/vs/{}", hers["player"], rival["player"]));
    let numbers = h["side_by_side"][0]["numbers"].as_array().unwrap();
    let pair = numbers.iter().find(|n| n["what"] == "decision accuracy (0–100)").unwrap_or_else(|| panic!("{h}"));
    assert!((pair["a"].as_f64().unwrap() - expected_accuracy).abs() < 1e-6, "{pair}");
    assert!(pair["a_interval"].is_array() && pair["b"].as_f64() == rival["value"].as_f64(), "{pair} {rival}");
    let (_, other) = app.post("/api/games?publish=true", sample("elasund-four-players.jsonl").as_bytes());
    let (status, body) = app.get_json(&format!("/api/games/{}/chances", other["id"].as_str().unwrap()));
    assert_eq!(status, 404);
    // Another game's chances wait for a model of its own.
    assert!(body["error"].as_str().unwrap().starts_with("Elasund has no win-chance model yet"), "{body}");
}

/// One game is one game: a spectator's log and a re-titled copy of a game name each other and count once in
/// the player's record; a game stopped early counts nowhere; a header naming one player twice is refused.
#[test]
fn records_of_one_game_name_each_other_and_count_once() {
    let app = spawn_app(1 << 20);
    let club = sample("catan-club-game.jsonl");
    let id = |body: &Value| body["id"].as_str().unwrap().to_string();
    let (status, first) = upload(&app, &club, "auto");
    assert_eq!(status, 201, "{first}");
    let (_, spectator) = upload(&app, &sample("catan-club-game-observer.jsonl"), "auto");
    let (_, again) = upload(&app, &club.replacen("Thursday league, table 2", "The final", 1), "auto");
    let stopped: Vec<&str> = club.lines().take(61).collect();
    let (_, unfinished) = upload(&app, &(stopped.join("\n") + "\n"), "auto");
    let (first, spectator, again, unfinished) = (id(&first), id(&spectator), id(&again), id(&unfinished));
    assert_eq!(game_count(&app), 4, "four records are stored");

    let (_, seen) = app.get_json(&format!("/api/games/{spectator}"));
    assert_eq!(seen["counted"], false);
    let others: Vec<(String, bool)> = seen["recordings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap().to_string(), r["counted"].as_bool().unwrap()))
        .collect();
    assert_eq!(others, [(first.clone(), true), (again.clone(), false)]);
    assert_eq!(app.get_json(&format!("/api/games/{first}")).1["counted"], true);
    let (_, stopped) = app.get_json(&format!("/api/games/{unfinished}"));
    assert_eq!((stopped["counted"].clone(), stopped["recordings"].clone()), (json!(false), json!([])));
    let (_, _, page) = app.get_text(&format!("/games/{spectator}"));
    assert!(page.contains("Counted once, as <a href=\"/games/"), "the replay says which record counts");
    let (_, _, page) = app.get_text(&format!("/games/{unfinished}"));
    assert!(page.contains("No winner: this game counts in no record"));

    let ayse = app.get_json(&format!("/api/games/{first}")).1["players"][0]["player"].as_i64().unwrap();
    let (_, record) = app.get_json(&format!("/api/players/{ayse}"));
    assert_eq!(record["rulesets"][0]["games"], 1, "{record}");
    assert_eq!(record["games"].as_array().unwrap().len(), 1);

    let twice = club.replacen(r#"{"name":"Mehmet""#, r#"{"name":"AYŞE""#, 1);
    let (status, err) = upload(&app, &twice, "auto");
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["line"], 1);
    assert!(err["error"].as_str().unwrap().contains("`Ayşe` and `AYŞE` name one player in two spellings"), "{err}");
}

/// The fullest record counts: a spectator's record of the club game stored first, then the full record. The
/// full one counts (it saw every card; the spectator missed the hidden victory-point cards and steals), so
/// Mehmet's record shows the score he had; the replays say which counts and why; with the full record
/// deleted, the spectator's counts again.
#[test]
fn the_full_record_counts_over_a_spectators_stored_before_it() {
    let app = spawn_app(1 << 20);
    let id = |body: &Value| body["id"].as_str().unwrap().to_string();
    let (status, spectator) = upload(&app, &sample("catan-club-game-observer.jsonl"), "auto");
    assert_eq!(status, 201, "{spectator}");
    let (status, full) = upload(&app, &sample("catan-club-game.jsonl"), "auto");
    assert_eq!(status, 201, "{full}");
    let (spectator, full) = (id(&spectator), id(&full));
    let (_, seen) = app.get_json(&format!("/api/games/{spectator}"));
    let (_, whole) = app.get_json(&format!("/api/games/{full}"));
    assert_eq!((whole["counted"].clone(), seen["counted"].clone()), (json!(true), json!(false)));
    assert_eq!(whole["unseen"], json!(0));
    let missed = seen["unseen"].as_u64().unwrap();
    assert!(missed > 0, "{seen}");
    // Mehmet's score as the full record has it, not the spectator's.
    let mehmet = whole["players"][1]["player"].as_i64().unwrap();
    let (full_score, seen_score) = (whole["players"][1]["vp"].as_i64(), seen["players"][1]["vp"].as_i64());
    assert_ne!(full_score, seen_score, "the spectator did not see a hidden point: {seen}");
    let (_, record) = app.get_json(&format!("/api/players/{mehmet}"));
    let games = record["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "one game: {record}");
    assert_eq!((games[0]["game"].as_str(), games[0]["score"].as_i64()), (Some(full.as_str()), full_score));
    // Why, in words, on both replays.
    let (_, _, page) = app.get_text(&format!("/games/{spectator}"));
    assert!(page.contains(&format!("it saw every card, where another record missed {missed} cards")), "{page}");
    let (_, _, page) = app.get_text(&format!("/games/{full}"));
    assert!(page.contains("This record is the one counted: it saw every card"), "{page}");
    // The full record deleted: the spectator's counts in its place.
    let r =
        app.send("DELETE", &format!("/api/games/{full}"), None, &[("authorization", &format!("Bearer {}", app.token))]);
    assert!(r.status == 200 || r.status == 204, "{}", r.body);
    assert_eq!(app.get_json(&format!("/api/games/{spectator}")).1["counted"], json!(true));
    let (_, record) = app.get_json(&format!("/api/players/{mehmet}"));
    assert_eq!(record["games"][0]["score"].as_i64(), seen_score);
}

/// A server that never held a game in memory answers its state after any event from the nearest stored
/// checkpoint and the events after it; every answer equals the one the uploading server gives from the
/// game's timeline, for every sample of every game, the end included.
#[test]
fn a_state_read_cold_from_a_checkpoint_is_the_replayed_state() {
    let app = spawn_app(16 << 20);
    let cold = support::another_server(&app);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let (status, body) = upload(&app, &text, "auto");
        assert_eq!(status, 201, "{name:?}: {body}");
        let id = body["id"].as_str().unwrap();
        let events = app.get_json(&format!("/api/games/{id}")).1["event_count"].as_u64().unwrap();
        let mut seqs: Vec<u64> = (0..=events).step_by(7).collect();
        seqs.extend([63, 64, 65, 128, events, events + 5]);
        for seq in seqs {
            let path = format!("/api/games/{id}/state?seq={seq}");
            let (warm, cold_answer) = (app.get_json(&path), cold.get_json(&path));
            assert_eq!(cold_answer.0, 200, "{name:?} {seq}: {}", cold_answer.1);
            assert_eq!(cold_answer.1, warm.1, "{name:?} after {seq} events");
        }
        let (_, end) = cold.get_json(&format!("/api/games/{id}/state"));
        assert_eq!(end["seq"].as_u64(), Some(events), "{name:?}: the end");
    }
}

/// After an upgrade the server answers at once: it derives the games of an older version again in the
/// background (here while a writer elsewhere holds the database, so that the first answers certainly come
/// before it is done), says which numbers are stale meanwhile, in the API and on the pages, and ends with
/// this version's numbers.
#[test]
fn the_server_answers_while_it_derives_older_games_again_and_marks_their_numbers_until_done() {
    let app = spawn_app(16 << 20);
    let names = ["carcassonne-traders-builders.jsonl", "catan-club-game.jsonl", "elasund-four-players.jsonl"];
    let mut games = Vec::new();
    for name in names {
        let (status, body) = upload(&app, &sample(name), "auto");
        assert_eq!(status, 201, "{name}: {body}");
        let id = body["id"].as_str().unwrap().to_string();
        let coach = app.get_json(&format!("/api/games/{id}/coach")).1;
        assert_eq!(app.get_json(&format!("/api/games/{id}")).1["stale"], false, "{name}");
        games.push((id, coach));
    }
    // As an upgrade finds them: derived by version 0, and their facts gone with it.
    almanac_store::testing::age_every_game(&app.db);
    let held = almanac_store::testing::hold_writes(&app.db);
    let upgraded = support::another_server(&app);

    // It answers before it has listed the games due, and says it is checking meanwhile.
    let started = std::time::Instant::now();
    let answer = loop {
        let (status, answer) = upgraded.get_json("/api/status");
        assert_eq!(status, 200);
        if answer["derivation"]["checking"] != true {
            break answer;
        }
        let (_, _, index) = upgraded.get_text("/");
        // The list may be made between the two requests; then the status says so next.
        let listed_since = || upgraded.get_json("/api/status").1["derivation"]["checking"] != true;
        assert!(index.contains("is checking whether an upgrade left") || listed_since(), "{index}");
        assert!(started.elapsed() < support::PATIENCE, "the games due are listed");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert_eq!(
        answer["derivation"],
        json!({"checking": false, "games": 3, "done": 0, "failed": 0, "waiting": 3}),
        "{answer}"
    );
    let list = upgraded.send("GET", "/api/games", None, &[]);
    assert_eq!(list.header("almanac-stale-games"), Some("3"));
    assert!(list.json()["games"].as_array().unwrap().iter().all(|g| g["stale"] == true), "{}", list.body);
    for (id, coach) in &games {
        let (status, summary) = upgraded.get_json(&format!("/api/games/{id}"));
        assert_eq!((status, &summary["stale"]), (200, &json!(true)), "{summary}");
        // The older numbers are what there is: here none, since the facts went with the upgrade.
        assert_ne!(&upgraded.get_json(&format!("/api/games/{id}/coach")).1, coach, "{id}");
        let (status, _, page) = upgraded.get_text(&format!("/games/{id}"));
        assert_eq!(status, 200);
        assert!(page.contains("Older rules: this game"), "{id}: the replay says its numbers are older");
    }
    let (_, _, index) = upgraded.get_text("/");
    assert!(index.contains("3 of 3 games still show numbers derived by an older version"), "{index}");
    assert!(index.contains("0% done") && index.matches("older rules</span>").count() == 3, "{index}");

    drop(held);
    let started = std::time::Instant::now();
    while upgraded.get_json("/api/status").1["derivation"] != Value::Null {
        assert!(started.elapsed() < support::PATIENCE, "the derivation ends");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let list = upgraded.send("GET", "/api/games", None, &[]);
    assert_eq!(list.header("almanac-stale-games"), None);
    for g in list.json()["games"].as_array().unwrap() {
        let kind = GAMES.iter().find(|k| k.id() == g["ruleset"]).unwrap();
        assert_eq!((&g["stale"], g["ruleset_version"].as_u64()), (&json!(false), Some(kind.version() as u64)));
    }
    for (id, coach) in &games {
        assert_eq!(&upgraded.get_json(&format!("/api/games/{id}/coach")).1, coach, "{id}: this version's numbers");
        let (_, _, page) = upgraded.get_text(&format!("/games/{id}"));
        assert!(!page.contains("Older rules"), "{id}");
    }
    let (_, _, index) = upgraded.get_text("/");
    assert!(!index.contains("older version") && !index.contains("older rules"), "{index}");
}

/// A game due only because it has no checkpoints (a migration dropped them) is derived again in the background
/// too, but its numbers are current: nothing marks it meanwhile, and its checkpoints come back.
#[test]
fn games_without_checkpoints_get_them_again_and_are_not_marked_meanwhile() {
    let app = spawn_app(16 << 20);
    let mut games = Vec::new();
    for name in ["catan-club-game.jsonl", "carcassonne-traders-builders.jsonl"] {
        let (status, body) = upload(&app, &sample(name), "auto");
        assert_eq!(status, 201, "{name}: {body}");
        let id = body["id"].as_str().unwrap().to_string();
        games.push((id.clone(), app.get_json(&format!("/api/games/{id}/coach")).1));
    }
    almanac_store::testing::drop_checkpoints(&app.db);
    let bytes = || almanac_store::Store::open(&app.db).unwrap().checkpoint_bytes().unwrap();
    assert_eq!(bytes(), 0);
    let held = almanac_store::testing::hold_writes(&app.db);
    let upgraded = support::another_server(&app);
    let started = std::time::Instant::now();
    let answer = loop {
        let answer = upgraded.get_json("/api/status").1;
        if answer["derivation"]["checking"] != true {
            break answer;
        }
        assert!(started.elapsed() < support::PATIENCE, "the games due are listed");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    // Listed and not yet derived (the writes are held): no progress line, no mark.
    assert_eq!(answer["derivation"], Value::Null, "{answer}");
    let list = upgraded.send("GET", "/api/games", None, &[]);
    assert_eq!(list.header("almanac-stale-games"), None);
    assert!(list.json()["games"].as_array().unwrap().iter().all(|g| g["stale"] == false), "{}", list.body);
    let (_, _, index) = upgraded.get_text("/");
    assert!(!index.contains("older version") && !index.contains("older rules"), "{index}");
    drop(held);
    while bytes() == 0 {
        assert!(started.elapsed() < support::PATIENCE, "the checkpoints are written again");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for (id, coach) in &games {
        assert_eq!(&upgraded.get_json(&format!("/api/games/{id}/coach")).1, coach, "{id}");
    }
}

/// A live game begins with its header alone (a table about to play), and takes its first entries.
#[test]
fn a_game_stored_before_its_first_event_takes_its_first_entries() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = club.lines().collect();
    let (status, body) = upload(&app, lines[0], "auto");
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    for (k, line) in lines[1..4].iter().enumerate() {
        let (status, ok) = app.append(&id, k, &[line]);
        assert_eq!((status, &ok["seq"]), (200, &json!(k + 1)), "{ok}");
    }
    let (_, _, log) = app.get_text(&format!("/api/games/{id}/log"));
    assert_eq!(log.trim_end(), lines[..4].join("\n"));
    let (_, stats) = app.get_json(&format!("/api/games/{id}/stats"));
    assert_eq!(stats["events"], 3, "{stats}");
}

/// A club begins a game at the table (`POST /api/tables`): the header is written from the start page's
/// answers with the game's own board (the rulebook's beginner board, or one drawn from a seed, the same
/// seed the same board), the game is live and the club's alone; a start that cannot begin says why and
/// stores nothing, and a stranger begins nothing.
#[test]
fn a_club_begins_a_game_at_the_table_and_a_bad_start_stores_nothing() {
    let app = spawn_app(16 << 20);
    let club_games =
        |app: &TestApp| app.get_as("/api/games?limit=1000", &app.token).json()["games"].as_array().unwrap().len();
    let start = |beginning: &str, seed: u64, players: &[&str]| {
        json!({"ruleset": "catan", "beginning": beginning, "seed": seed, "players": players,
               "title": "Table 3", "date": "2026-12-02", "location": "Kadıköy"})
    };
    let four = ["Ayşe", "Mehmet", "Zeynep", "Can"];
    let (status, body) = app.post_json("/api/tables", &start("beginner", 0, &four));
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    // The stored header: the sample's beginner board, the players in seat order, what the page said.
    let log = app.get_as(&format!("/api/games/{id}/log"), &app.token).body;
    let header: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let club_sample: Value = serde_json::from_str(sample("catan-club-game.jsonl").lines().next().unwrap()).unwrap();
    assert_eq!(header["board"], club_sample["board"]);
    let names: Vec<&str> = header["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, four);
    assert_eq!((header["title"].as_str(), header["location"].as_str()), (Some("Table 3"), Some("Kadıköy")));
    // Live, private: the public does not see it, the club records on it.
    assert_eq!(app.get_json(&format!("/api/games/{id}")).0, 404);
    let next = app.get_as(&format!("/api/games/{id}/next"), &app.token).json();
    assert_eq!(next["open"][0]["player"], "Ayşe", "{next}");
    let first = sample("catan-club-game.jsonl").lines().nth(1).unwrap().to_string();
    assert_eq!(app.append(&id, 0, &[&first]).0, 200);
    // The list marks it live (no winner yet), and a finished game not.
    let (_, done) = app.post("/api/games", sample("catan-six-players.jsonl").as_bytes());
    let listed = app.get_as("/api/games?limit=1000", &app.token).json();
    let live_of =
        |game: &str| listed["games"].as_array().unwrap().iter().find(|g| g["id"] == game).map(|g| g["live"].clone());
    assert_eq!(live_of(&id), Some(json!(true)), "{listed}");
    assert_eq!(live_of(done["id"].as_str().unwrap()), Some(json!(false)), "{listed}");
    let page = app.get_as("/", &app.token).body;
    let row = page.split("<tr").find(|r| r.contains(&format!("/games/{id}\""))).unwrap();
    assert!(row.contains("class=\"badge live\""), "{row}");
    let row = page.split("<tr").find(|r| r.contains(done["id"].as_str().unwrap())).unwrap();
    assert!(!row.contains("badge live"), "{row}");

    // The rulebook's beginner set-up: the same board with each colour's starting pieces entered, stored
    // after the header as timed entries the table can withdraw; the first player rolls next.
    let (status, body) = app.post_json("/api/tables", &start("beginner-pieces", 0, &four[..3]));
    assert_eq!(status, 201, "{body}");
    let set_up = body["id"].as_str().unwrap().to_string();
    let log = app.get_as(&format!("/api/games/{set_up}/log"), &app.token).body;
    let lines: Vec<Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["board"], club_sample["board"]);
    let colors: Vec<&str> =
        lines[0]["players"].as_array().unwrap().iter().map(|p| p["color"].as_str().unwrap()).collect();
    assert_eq!(colors, ["blue", "white", "orange"], "three players: red stays in the box");
    assert_eq!(lines.len(), 1 + 3 * 4, "{log}");
    assert!(lines[1..].iter().all(|e| e["time"].is_string()), "{log}");
    let next = app.get_as(&format!("/api/games/{set_up}/next"), &app.token).json();
    assert_eq!(next["open"][0]["player"], "Ayşe", "{next}");
    assert_eq!(next["open"][0]["types"], json!(["roll"]), "{next}");

    // A seeded board: six players on the extension's island, the same seed the same board.
    let six = ["A", "B", "C", "D", "E", "F"];
    let board_of = |body: &Value| -> Value {
        let header: Value = serde_json::from_str(body["header"].as_str().unwrap()).unwrap();
        header["board"].clone()
    };
    let (status, a) = app.post_json("/api/tables", &start("variable", 42, &six));
    assert_eq!(status, 201, "{a}");
    assert_eq!(board_of(&a)["hexes"].as_array().unwrap().len(), 30);
    let mut again = start("variable", 42, &six);
    again["title"] = json!("Table 4");
    let (_, b) = app.post_json("/api/tables", &again);
    assert_eq!(board_of(&a), board_of(&b));
    let (_, c) = app.post_json("/api/tables", &start("variable", 43, &six));
    assert_ne!(board_of(&a), board_of(&c));

    // Starts that cannot begin: each says why, and nothing is stored.
    let before = club_games(&app);
    for (bad, words) in [
        (start("beginner", 0, &six), "3 to 4 players, not 6"),
        (start("beginner", 0, &["Ayşe", "Ayşe", "Can"]), "Ayşe sits at two seats"),
        (start("beginner", 0, &["Ayşe", " ", "Can"]), "seat 2 has no player's name"),
        (start("spiral", 0, &four), "no beginning `spiral`"),
        (json!({"ruleset": "elasund", "beginning": "x", "players": four}), "cannot be recorded at a table"),
        // The table's own board with nothing laid: every place named, one per line.
        (start("own", 0, &four), "The board is not one the box lays out:\nrow 1, hex 1 from the left has no terrain\n"),
    ] {
        let (status, body) = app.post_json("/api/tables", &bad);
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().contains(words), "{bad}: {body}");
    }
    assert_eq!(club_games(&app), before);
    // A stranger begins nothing.
    let r = app.send(
        "POST",
        "/api/tables",
        Some(start("beginner", 0, &four).to_string().as_bytes()),
        &[("content-type", "application/json")],
    );
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(club_games(&app), before);
    // A start is JSON, said so, as every JSON body the API takes.
    let (status, body) = app.post("/api/tables", start("beginner", 0, &four).to_string().as_bytes());
    assert_eq!(status, 415, "{body}");
    assert!(body["error"].as_str().unwrap().contains("send application/json"), "{body}");
    assert_eq!(club_games(&app), before);
}

/// The time at the table as the questions across games read it (`seconds_per_turn`): a game recorded live,
/// its entries appended in chunks, each saying when it was made, gives each player what the same log
/// uploaded whole to another server gives.
#[test]
fn seconds_per_turn_of_a_live_game_are_those_of_its_log_read_whole() {
    // Entries 1.5 s apart, with a longer think now and then.
    let timed =
        support::timed(&sample("catan-club-game.jsonl"), |i| (i as i64) * 1_500 + if i % 7 == 0 { 20_000 } else { 0 });
    let app = spawn_app(16 << 20);
    let (status, body) = app.post("/api/games?publish=true", timed[0].as_bytes());
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let refs: Vec<&str> = timed.iter().map(String::as_str).collect();
    for (k, chunk) in refs[1..].chunks(50).enumerate() {
        let (status, ok) = app.append(&id, k * 50, chunk);
        assert_eq!(status, 200, "{ok}");
    }
    let alone = spawn_app(16 << 20);
    let (status, body) = alone.post("/api/games?publish=true", timed.join("\n").as_bytes());
    assert_eq!(status, 201, "{body}");
    let ask = |app: &TestApp| {
        let (status, answer) = app.get_json("/api/questions?metric=seconds_per_turn&by=player");
        assert_eq!(status, 200, "{answer}");
        let groups = answer["groups"].as_array().cloned().unwrap_or_default();
        groups.iter().map(|g| (g["label"].to_string(), g["value"].to_string())).collect::<Vec<_>>()
    };
    let (here, there) = (ask(&app), ask(&alone));
    assert_eq!(here.len(), 4, "{here:?}");
    assert_eq!(here, there);
}
