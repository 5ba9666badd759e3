//! What coaches read, over HTTP: a player's page and record, two players side by side, merges of spellings
//! by the club whose games name them, privacy (a private game counts nowhere), a game's key moments, and
//! notes on a moment of a game.

mod support;

use serde_json::{json, Value};
use support::{new_club, sample, spawn_app};

fn upload(app: &support::TestApp, text: &str, publish: bool) -> String {
    let path = if publish { "/api/games?publish=true" } else { "/api/games" };
    let (status, body) = app.post(path, text.as_bytes());
    assert!(status == 201 || status == 200, "{status}: {body}");
    body["id"].as_str().unwrap().to_string()
}

/// The player of a seat, as the test club sees the game (its private games too).
fn seat_player(app: &support::TestApp, game: &str, seat: usize) -> i64 {
    let g = app.get_as(&format!("/api/games/{game}"), &app.token).json();
    g["players"][seat]["player"].as_i64().unwrap_or_else(|| panic!("seat {seat} names no player: {g}"))
}

#[test]
fn a_players_page_counts_their_published_games_and_names_their_opponents() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    let a = upload(&app, &truth, true);
    // Another game of the same four, but Can is Cem there; and a spectator's log of game a, which is game a.
    let b = upload(&app, &truth.replace("\"Can\"", "\"Cem\""), true);
    let spectator = upload(&app, &sample("catan-club-game-observer.jsonl"), true);
    let private = upload(&app, &truth.replace("Zeynep", "Zeyno"), false);
    let ayse = seat_player(&app, &a, 0);
    assert_eq!(seat_player(&app, &spectator, 0), ayse);
    assert_eq!(seat_player(&app, &b, 0), ayse, "one Ayşe across the club's games");
    assert_eq!(seat_player(&app, &private, 0), ayse);
    let (status, page) = app.get_json(&format!("/api/players/{ayse}"));
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["player"]["name"], json!("Ayşe"));
    assert_eq!(page["games"].as_array().unwrap().len(), 2, "the private game counts nowhere, a copy once: {page}");
    let catan = &page["rulesets"][0];
    assert_eq!((catan["ruleset"].as_str(), catan["games"].as_u64()), (Some("catan"), Some(2)));
    // Every game's winner is Zeynep: Ayşe won none of them.
    assert_eq!(catan["wins"], json!(0));
    let opponents: Vec<&str> =
        page["opponents"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(opponents.len(), 4, "Can and Cem are two: {opponents:?}");
    assert!(!opponents.contains(&"Zeyno"), "the private game's players are not met");
    // Publishing the private game counts it.
    let (status, _) = app.post_json(&format!("/api/games/{private}/publish"), &json!({"published": true}));
    assert_eq!(status, 200);
    let (_, page) = app.get_json(&format!("/api/players/{ayse}"));
    assert_eq!(page["games"].as_array().unwrap().len(), 3);
    // The JSON lists the games a page at a time, latest first.
    let (_, second) = app.get_json(&format!("/api/players/{ayse}?limit=2&page=2"));
    assert_eq!(
        (second["games_total"].as_u64(), second["games_page"].as_u64(), second["games_pages"].as_u64()),
        (Some(3), Some(2), Some(2))
    );
    assert_eq!(second["games"].as_array().unwrap(), &page["games"].as_array().unwrap()[2..]);
    // Head-to-head: Zeynep finished ahead of Ayşe in both games they shared.
    let zeynep = seat_player(&app, &a, 2);
    let (status, h) = app.get_json(&format!("/api/players/{ayse}/vs/{zeynep}"));
    assert_eq!(status, 200, "{h}");
    assert_eq!(
        (h["games"].as_array().unwrap().len(), h["b_ahead"].as_u64(), h["a_ahead"].as_u64()),
        (2, Some(2), Some(0))
    );
    // Their numbers side by side: each one's win rate as their own record says it.
    let record = |id: i64| {
        let (_, p) = app.get_json(&format!("/api/players/{id}"));
        let r = &p["rulesets"][0];
        r["wins"].as_f64().unwrap() / r["games"].as_f64().unwrap()
    };
    let pair = &h["side_by_side"][0];
    assert_eq!(pair["ruleset"], json!("catan"));
    let win_rate = pair["numbers"].as_array().unwrap().iter().find(|n| n["what"] == "win rate").unwrap();
    assert_eq!((win_rate["a"].as_f64(), win_rate["b"].as_f64()), (Some(record(ayse)), Some(record(zeynep))));
    // Zeynep won both, Ayşe neither: two games each do not tell them apart (the intervals overlap).
    assert_eq!(
        (win_rate["comparison"].clone(), win_rate["a_better"].clone()),
        (json!("about_the_same"), Value::Null),
        "{win_rate}"
    );
    let place = pair["numbers"].as_array().unwrap().iter().find(|n| n["what"] == "finishing place").unwrap();
    assert_eq!(place["lower_is_better"], json!(true), "{place}");
    for n in pair["numbers"].as_array().unwrap() {
        // Called better only when the two intervals do not overlap.
        let (a, b) = (&n["a_interval"], &n["b_interval"]);
        let apart = a[0].as_f64().unwrap() > b[1].as_f64().unwrap() || a[1].as_f64().unwrap() < b[0].as_f64().unwrap();
        assert_eq!(n["a_better"].is_null(), !apart || n["comparison"].is_null(), "{n}");
    }
    // No model is trained: decision accuracy is not set side by side, and both say why.
    let missing: Vec<&str> = pair["not_compared"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(
        missing.iter().any(|m| m.starts_with(
            "decision accuracy (0–100): none for Ayşe or Zeynep (counted in finished games whose win chances are shown"
        )),
        "{missing:?}"
    );
    let (_, _, versus) = app.get_text(&format!("/players/{ayse}/vs/{zeynep}"));
    assert!(
        versus.contains("Not set side by side: decision accuracy (0–100): none for Ayşe or Zeynep"),
        "said on the page"
    );
    assert!(versus.contains("<div class=\"verdict\">about the same</div>"), "in words on the page");
    assert!(versus.contains("only when the two intervals do not overlap"), "the rule stated");
    let (status, content_type, svg) = app.get_text(&format!("/api/players/{ayse}/vs/{zeynep}/chart.svg?ruleset=catan"));
    assert_eq!((status, content_type.as_str()), (200, "image/svg+xml"));
    assert!(svg.contains("win rate"));
    // The page lists the games of one game when asked, a page at a time.
    let rows = |html: &str| html.split("<table class=\"played\">").nth(1).unwrap().matches("<tr").count() - 1;
    let (_, _, all) = app.get_text(&format!("/players/{ayse}"));
    assert_eq!(rows(&all), 3);
    let (_, _, none) = app.get_text(&format!("/players/{ayse}?ruleset=elasund&page=9"));
    assert_eq!(rows(&none), 0, "no game of another ruleset, and a page past the end is the last");
    assert_eq!(app.get_json("/api/players/999999").0, 404);
    assert_eq!(app.get_json("/api/players/nobody").0, 404);
}

/// One person, one name: one won game published fifteen times, its winner's name typed fifteen ways that
/// look alike (composed, decomposed, with a zero-width space, a trailing space; with each of nine characters
/// that show nothing though Unicode's format category does not hold them: the combining grapheme joiner,
/// three variation selectors, four Hangul fillers, the braille blank; with a fullwidth `ｕ`, with a Cyrillic
/// `е`), is one game and one win; a header seating one name twice in two such forms is refused with both
/// names.
#[test]
fn names_that_look_alike_are_one_person_and_one_game_counts_once() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    let typed = [
        "\u{15E}ule",
        "S\u{327}ule",
        "\u{15E}u\u{200B}le",
        "\u{15E}ule ",
        "\u{15E}u\u{34F}le",
        "\u{15E}ule\u{FE00}",
        "\u{15E}ule\u{FE0F}",
        "\u{15E}u\u{E0100}le",
        "\u{115F}\u{15E}ule",
        "\u{15E}u\u{1160}le",
        "\u{3164}\u{15E}ule",
        "\u{15E}ule\u{FFA0}",
        "\u{15E}ule\u{2800}",
        "\u{15E}\u{FF55}le",
        "\u{15E}ul\u{435}",
    ];
    let ids: Vec<String> = typed.iter().map(|name| upload(&app, &truth.replace("Zeynep", name), true)).collect();
    assert_eq!(ids.iter().collect::<std::collections::BTreeSet<_>>().len(), typed.len(), "one upload a log");
    let winner = seat_player(&app, &ids[0], 2);
    for id in &ids[1..] {
        assert_eq!(seat_player(&app, id, 2), winner, "one identity for every spelling");
    }
    let (status, page) = app.get_json(&format!("/api/players/{winner}"));
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["player"]["name"], json!("\u{15E}ule"), "stored as people read it");
    let catan = &page["rulesets"][0];
    assert_eq!((catan["games"].as_u64(), catan["wins"].as_u64()), (Some(1), Some(1)), "one game, one win: {page}");
    let board = app.get_json("/api/leaderboard?ruleset=catan").1;
    let row = board.as_array().unwrap().iter().find(|p| p["player"] == json!(winner)).cloned();
    assert_eq!(row.map(|r| r["games"].clone()), Some(json!(1)), "{board}");

    // One header, "Ayşe" twice: composed and decomposed.
    let twice = truth.replacen("\"Mehmet\"", "\"Ays\u{327}e\"", 1);
    let (status, body) = app.post("/api/games", twice.lines().next().unwrap().as_bytes());
    assert_eq!(status, 400, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("`Ay\u{15F}e` is seated twice"), "{error}");
    assert_eq!(body["line"], json!(1));

    // "Can" beside a fullwidth "Ｃan": both names in the refusal.
    let wide = truth.replacen("\"Mehmet\"", "\"\u{FF23}an\"", 1);
    let (status, body) = app.post("/api/games", wide.lines().next().unwrap().as_bytes());
    assert_eq!(status, 400, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("`\u{FF23}an` and `Can` name one player in two spellings"), "{error}");
}

#[test]
fn a_club_merges_two_spellings_of_its_player_and_nobody_else_can() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    let a = upload(&app, &truth, true);
    let b = upload(&app, &truth.replace("Mehmet", "Memet"), true);
    let (mehmet, memet) = (seat_player(&app, &a, 1), seat_player(&app, &b, 1));
    assert_ne!(mehmet, memet);
    let merge = |token: &str, into: i64, from: i64| {
        let auth = format!("Bearer {token}");
        let headers = [("authorization", auth.as_str()), ("content-type", "application/json")];
        app.send(
            "POST",
            &format!("/api/players/{into}/merge"),
            Some(json!({"from": from}).to_string().as_bytes()),
            &headers,
        )
    };
    let stranger = new_club(&app.db, "Strangers");
    assert_eq!(merge(&stranger, mehmet, memet).status, 403, "another club's players are not theirs to merge");
    let anonymous = app.send(
        "POST",
        &format!("/api/players/{mehmet}/merge"),
        Some(b"{\"from\": 1}"),
        &[("content-type", "application/json")],
    );
    assert_eq!(anonymous.status, 401);
    let r = merge(&app.token, mehmet, memet);
    assert_eq!(r.status, 200, "{}", r.body);
    let merged: Value = r.json();
    assert_eq!(merged["spellings"], json!(["Mehmet", "Memet"]));
    assert_eq!(seat_player(&app, &b, 1), mehmet, "the seat now names the merged player");
    let (_, page) = app.get_json(&format!("/api/players/{memet}"));
    assert_eq!((page["player"]["id"].as_i64(), page["games"].as_array().unwrap().len()), (Some(mehmet), 2));
    assert_eq!(merge(&app.token, mehmet, memet).status, 400, "one player already");
}

#[test]
fn player_names_link_to_their_pages_and_the_pages_read_without_scripts() {
    let app = spawn_app(16 << 20);
    let a = upload(&app, &sample("catan-club-game.jsonl"), true);
    let ayse = seat_player(&app, &a, 0);
    let (_, _, replay) = app.get_text(&format!("/games/{a}"));
    assert!(replay.contains(&format!("href=\"/players/{ayse}\"")), "the standings link the players");
    let (_, _, index) = app.get_text("/");
    assert!(index.contains(&format!("href=\"/players/{ayse}\"")), "the list links the players");
    let (status, ct, html) = app.get_text(&format!("/players/{ayse}"));
    assert_eq!((status, ct.starts_with("text/html")), (200, true));
    assert!(html.contains("<h1>Ayşe</h1>") && html.contains(&format!("href=\"/games/{a}\"")));
    let zeynep = seat_player(&app, &a, 2);
    assert!(html.contains(&format!("href=\"/players/{ayse}/vs/{zeynep}\"")));
    let (status, _, versus) = app.get_text(&format!("/players/{ayse}/vs/{zeynep}"));
    assert_eq!(status, 200);
    assert!(versus.contains("1 game together: "), "{versus}");
    assert!(versus.contains("never finished ahead") && versus.contains("finished ahead once"), "plain words: {versus}");
    assert_eq!(app.get_text("/players/424242").0, 404);
}

#[test]
fn ratings_rise_with_games_won_and_the_leaderboard_orders_a_clubs_players() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    let a = upload(&app, &truth, true);
    upload(&app, &truth.replace("\"Can\"", "\"Cem\""), true);
    // A spectator's log of the first game rates nothing more: it is that game.
    upload(&app, &sample("catan-club-game-observer.jsonl"), true);
    let (ayse, zeynep) = (seat_player(&app, &a, 0), seat_player(&app, &a, 2));
    let (_, page) = app.get_json(&format!("/api/players/{zeynep}"));
    let rating = |page: &Value| page["ratings"][0]["rating"].as_f64().unwrap();
    assert_eq!(page["ratings"][0]["history"].as_array().unwrap().len(), 2, "a rating after each game: {page}");
    // Two games: provisional, not ranked yet (as on the leaderboard), with the games still needed.
    assert_eq!(
        (page["ratings"][0]["rank"].clone(), page["ratings"][0]["games_needed"].clone()),
        (Value::Null, json!(3))
    );
    let (_, _, html) = app.get_text(&format!("/players/{zeynep}"));
    assert!(html.contains("provisional: 3 more games"), "said on the page");
    let (_, theirs) = app.get_json(&format!("/api/players/{ayse}"));
    assert!(rating(&page) > rating(&theirs));
    let (status, board) = app.get_json("/api/leaderboard?ruleset=catan&club=Test%20club");
    assert_eq!(status, 200, "{board}");
    let board = board.as_array().unwrap();
    assert_eq!(board.len(), 5, "Ayşe, Mehmet, Zeynep, Can and Cem");
    assert_eq!(board[0]["name"], json!("Zeynep"));
    assert!(board.windows(2).all(|w| w[0]["rating"].as_f64() >= w[1]["rating"].as_f64()), "highest first");
    let (_, none) = app.get_json("/api/leaderboard?ruleset=catan&club=Elsewhere");
    assert!(none.as_array().unwrap().is_empty(), "another club's players are on its own board");
    assert_eq!(app.get_json("/api/leaderboard?ruleset=chess").0, 400);
    let (status, ct, svg) = app.get_text(&format!("/api/players/{zeynep}/ratings.svg"));
    assert_eq!((status, ct.as_str()), (200, "image/svg+xml"));
    assert!(svg.contains("Zeynep's rating, game by game"));
    let (_, _, html) = app.get_text("/leaderboard?ruleset=catan&club=Test%20club");
    assert!(html.contains(&format!("href=\"/players/{zeynep}\"")));
    // Ratings are kept between requests and rated again when the games change: a third game (Zeynep wins
    // again), then a game unpublished, each shows at once.
    let third = upload(&app, &truth.replace("Can", "Cenk"), true);
    let (_, page) = app.get_json(&format!("/api/players/{zeynep}"));
    assert_eq!(page["ratings"][0]["history"].as_array().unwrap().len(), 3, "{page}");
    let (status, _) = app.post_json(&format!("/api/games/{third}/publish"), &json!({"published": false}));
    assert_eq!(status, 200);
    let (_, page) = app.get_json(&format!("/api/players/{zeynep}"));
    assert_eq!(page["ratings"][0]["history"].as_array().unwrap().len(), 2, "{page}");
}

#[test]
fn the_event_list_and_the_score_chart_mark_a_games_key_moments() {
    let app = spawn_app(16 << 20);
    let game = upload(&app, &sample("catan-club-game.jsonl"), true);
    let mut moments = Vec::new();
    let mut from = 1;
    while from > 0 {
        let (_, page) = app.get_json(&format!("/api/games/{game}/events?from={from}"));
        for e in page["events"].as_array().unwrap() {
            for m in e["moments"].as_array().into_iter().flatten() {
                moments.push((e["event"]["type"].as_str().unwrap().to_string(), m.as_str().unwrap().to_string()));
            }
        }
        from = page["next"].as_u64().unwrap_or(0);
    }
    assert!(moments.iter().any(|(t, m)| t == "roll" && m.starts_with("a 7 (")), "{moments:?}");
    assert!(moments.iter().any(|(_, m)| m.ends_with("takes the longest road")), "{moments:?}");
    assert!(moments.iter().all(|(t, m)| !m.starts_with("a 7") || t == "roll"));
    let (_, _, svg) = app.get_text(&format!("/api/games/{game}/charts/vp.svg"));
    for label in ["a 7", "an award changes hands", "the winner pulls ahead for good"] {
        assert!(svg.contains(label), "the score chart's legend names `{label}`");
    }
}

#[test]
fn a_club_notes_a_moment_of_its_game_and_whoever_sees_the_game_reads_it() {
    let app = spawn_app(16 << 20);
    let game = upload(&app, &sample("catan-club-game.jsonl"), false);
    let note = |token: &str, body: &Value| {
        let auth = format!("Bearer {token}");
        let headers = [("authorization", auth.as_str()), ("content-type", "application/json")];
        app.send("POST", &format!("/api/games/{game}/notes"), Some(body.to_string().as_bytes()), &headers)
    };
    let r = note(&app.token, &json!({"seq": 10, "text": "  Here the road to the port was the better build.  "}));
    assert_eq!(r.status, 201, "{}", r.body);
    let written = r.json();
    assert_eq!((written["seq"].as_u64(), written["club"].as_str()), (Some(10), Some("Test club")));
    assert_eq!(written["text"], json!("Here the road to the port was the better build."), "trimmed");
    let listed = app.get_as(&format!("/api/games/{game}/notes"), &app.token).json();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(app.get_json(&format!("/api/games/{game}/notes")).0, 404, "a private game's notes are private");
    assert_eq!(note(&app.token, &json!({"seq": 554, "text": "past the end"})).status, 400);
    assert_eq!(note(&app.token, &json!({"seq": 1, "text": "   "})).status, 400);
    assert_eq!(note(&app.token, &json!({"seq": 1, "text": "x".repeat(2001)})).status, 400);
    let plain = app.send(
        "POST",
        &format!("/api/games/{game}/notes"),
        Some(b"seq=1&text=hi"),
        &[("authorization", &format!("Bearer {}", app.token)), ("content-type", "application/x-www-form-urlencoded")],
    );
    assert_eq!(plain.status, 415);
    let nobody =
        app.send("POST", &format!("/api/games/{game}/notes"), Some(b"{}"), &[("content-type", "application/json")]);
    assert_eq!(nobody.status, 401);
    let stranger = new_club(&app.db, "Strangers");
    assert_eq!(note(&stranger, &json!({"seq": 1, "text": "hm"})).status, 404, "another club's private game is unseen");
    app.post_json(&format!("/api/games/{game}/publish"), &json!({"published": true}));
    assert_eq!(note(&stranger, &json!({"seq": 1, "text": "hm"})).status, 403, "only the owning club notes its games");
    let (status, public) = app.get_json(&format!("/api/games/{game}/notes"));
    assert_eq!((status, public.as_array().unwrap().len()), (200, 1), "published: anyone reads the notes");
}

#[test]
fn the_end_of_a_game_as_a_coach_reads_it_ties_each_number_to_its_events() {
    let app = spawn_app(16 << 20);
    let game = upload(&app, &sample("catan-club-game.jsonl"), true);
    let (status, table) = app.get_json(&format!("/api/games/{game}/coach"));
    assert_eq!(status, 200, "{table}");
    let (_, stats) = app.get_json(&format!("/api/games/{game}/stats"));
    let column = |key: &str, id: &str| {
        table[key]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c["id"] == json!(id))
            .unwrap_or_else(|| panic!("{key} has no {id}: {table}"))
    };
    let dice = column("gained_by", "production");
    let robbed = column("lost_by", "steal");
    let rows = table["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for (i, row) in rows.iter().enumerate() {
        let produced = &row["gained"][dice];
        assert_eq!(produced["count"], stats["players"][i]["production_total"], "{}", row["player"]);
        for cell in row["gained"].as_array().unwrap().iter().chain(row["lost"].as_array().unwrap()) {
            let events = cell["events"].as_array().unwrap();
            assert_eq!(cell["count"].as_i64().unwrap() != 0, !events.is_empty(), "a number has its events: {cell}");
        }
        assert_eq!(row["lost"][robbed]["count"], stats["players"][i]["steals_suffered"]);
    }
    let spent_on: Vec<&str> = table["spent_on"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert!(spent_on.contains(&"city") && spent_on.contains(&"road"), "{spent_on:?}");
    // Luck: what the dice produced against what they promised. Over the whole table the dice keep roughly
    // their promise (the same game's rolls and board; a promise off by a factor would not).
    let produced: f64 = rows.iter().map(|r| r["produced"].as_f64().unwrap()).sum();
    let promised: f64 = rows.iter().map(|r| r["promised"].as_f64().expect("Catan says what rolls promise")).sum();
    assert_eq!(
        produced,
        stats["players"].as_array().unwrap().iter().map(|p| p["production_total"].as_f64().unwrap()).sum::<f64>()
    );
    assert!((produced - promised).abs() < 0.25 * promised, "produced {produced}, promised {promised}");
    let (_, _, html) = app.get_text(&format!("/games/{game}"));
    assert!(html.contains("The game as a coach reads it") && html.contains("<a href=\"?seq="), "the page shows it");
    assert!(html.contains("luck: cards produced / the dice's promise"), "and the luck");
}

/// The win rate by seat as the games' own rows say it: for each seat, the games with a winner that had it,
/// and how many the seat won.
fn win_rate_by_seat(app: &support::TestApp, games: &[String]) -> std::collections::BTreeMap<String, (u64, u64)> {
    let mut by_seat = std::collections::BTreeMap::new();
    for id in games {
        let g = app.get_as(&format!("/api/games/{id}"), &app.token).json();
        let Some(winner) = g["winner"].as_str() else { continue };
        for (seat, p) in g["players"].as_array().unwrap().iter().enumerate() {
            let e: &mut (u64, u64) = by_seat.entry((seat + 1).to_string()).or_default();
            e.0 += 1;
            e.1 += (p["name"].as_str() == Some(winner)) as u64;
        }
    }
    by_seat
}

#[test]
fn a_question_across_games_counts_the_seats_of_the_games_the_asker_may_see() {
    let app = spawn_app(16 << 20);
    let names = [
        "catan-club-game.jsonl",
        "carcassonne-traders-builders.jsonl",
        "cities-knights-club-game.jsonl",
        "elasund-four-players.jsonl",
        "catan-six-players.jsonl",
    ];
    let public: Vec<String> = names.iter().map(|n| upload(&app, &sample(n), true)).collect();
    let private = upload(&app, &sample("catan-cards-four-players.jsonl"), false);
    let (status, answer) = app.get_json("/api/questions?preset=first-seat&ruleset=all");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["question"], json!("Win rate by seat"), "every game, as asked");
    let expected = win_rate_by_seat(&app, &public);
    let groups = answer["groups"].as_array().unwrap();
    assert_eq!(groups.len(), expected.len(), "{answer}");
    for g in groups {
        let (seats, wins) = expected[g["key"].as_str().unwrap()];
        assert_eq!(g["seats"].as_u64(), Some(seats), "{g}");
        assert!((g["value"].as_f64().unwrap() - wins as f64 / seats as f64).abs() < 1e-9, "{g}");
    }
    // Groups behind five games or more rank first, best first; the thin ones after them, best first.
    let ranked: Vec<(bool, f64)> =
        groups.iter().map(|g| (g["solid"].as_bool().unwrap(), g["value"].as_f64().unwrap())).collect();
    assert!(ranked.windows(2).all(|w| (w[0].0 && !w[1].0) || (w[0].0 == w[1].0 && w[0].1 >= w[1].1)), "{ranked:?}");
    for g in groups {
        assert_eq!(g["solid"].as_bool(), Some(g["games"].as_u64().unwrap() >= 5), "{g}");
        let (low, high, value) =
            (g["low"].as_f64().unwrap(), g["high"].as_f64().unwrap(), g["value"].as_f64().unwrap());
        assert!(low <= value && value <= high && low >= 0.0 && high <= 1.0, "a Wilson interval: {g}");
        // The fair share of a seat: one win in as many games as there are players at its table.
        assert!(g["expected"].as_f64().unwrap() > 0.0 && g["expected"].as_f64().unwrap() <= 0.5, "{g}");
    }
    let first = groups.iter().find(|g| g["key"] == "1").unwrap();
    let tables: Vec<f64> = public
        .iter()
        .map(|id| app.get_json(&format!("/api/games/{id}")).1["players"].as_array().unwrap().len() as f64)
        .collect();
    let fair = tables.iter().map(|n| 1.0 / n).sum::<f64>() / tables.len() as f64;
    assert!((first["expected"].as_f64().unwrap() - fair).abs() < 1e-9, "{first}");
    let counted: Vec<&str> = answer["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(answer["counted"].as_u64(), Some(public.len() as u64));
    assert!(public.iter().all(|id| counted.contains(&id.as_str())) && !counted.contains(&private.as_str()));
    // The club sees its private game counted too; once published, so does everyone (answers kept in memory
    // give way to the change at once).
    let mine = app.get_as("/api/questions?preset=first-seat&ruleset=all", &app.token).json();
    assert_eq!(mine["counted"].as_u64(), Some(public.len() as u64 + 1));
    let (status, _) = app.post_json(&format!("/api/games/{private}/publish"), &json!({"published": true}));
    assert_eq!(status, 200);
    let (_, everyone) = app.get_json("/api/questions?preset=first-seat&ruleset=all");
    assert_eq!(everyone["counted"].as_u64(), Some(public.len() as u64 + 1));
    let (status, _) = app.post_json(&format!("/api/games/{private}/publish"), &json!({"published": false}));
    assert_eq!(status, 200);
    // The games behind one line: seat 5 sat only at the six-player table.
    let (_, five) = app.get_json("/api/questions?preset=first-seat&ruleset=all&group=5");
    let five: Vec<&str> = five["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(five, vec![public[4].as_str()]);
    // CSV and NDJSON say what the JSON says.
    let (status, content_type, csv) = app.get_text("/api/questions?preset=first-seat&ruleset=all&format=csv");
    assert_eq!((status, content_type.as_str()), (200, "text/csv; charset=utf-8"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "seat,label,seats,games,won,low,high,solid");
    assert_eq!(lines.len(), groups.len() + 1);
    for (line, g) in lines[1..].iter().zip(groups) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!((cells[0], cells[2]), (g["key"].as_str().unwrap(), g["seats"].to_string().as_str()));
        assert_eq!(cells[4].parse::<f64>().unwrap(), g["value"].as_f64().unwrap());
    }
    let (_, _, ndjson) = app.get_text("/api/questions?preset=first-seat&ruleset=all&format=ndjson");
    let rows: Vec<Value> = ndjson.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        rows.iter().map(|r| r["key"].clone()).collect::<Vec<_>>(),
        groups.iter().map(|g| g["key"].clone()).collect::<Vec<_>>()
    );
    // Production by game: only games whose facts produce anything have a line.
    let (status, made) = app.get_json("/api/questions?metric=production_per_turn&arg=&by=ruleset&ruleset=all");
    assert_eq!(status, 200, "{made}");
    let games: Vec<&str> = made["groups"].as_array().unwrap().iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert!(games.contains(&"catan") && games.contains(&"cities-knights"), "{made}");
    // A declared word of one game, asked of that game: C&K's commodities are its own.
    let (status, coin) = app.get_json("/api/questions?metric=production_per_turn&arg=coin&by=player&ruleset=catan");
    assert_eq!(status, 400, "Catan declares no `coin`: {coin}");
    // Questions in unknown words are refused, saying which word and what is known.
    let (status, err) = app.get_json("/api/questions?metric=wins&by=seat");
    assert_eq!(status, 400);
    assert!(err["error"].as_str().unwrap().contains("no metric `wins`"), "{err}");
    let (status, err) = app.get_json("/api/questions?metric=won&by=seat&players=many");
    assert_eq!(status, 400, "{err}");
    assert_eq!(app.get_json("/api/questions?preset=nonsense").0, 404);
    // Unasked, a question is of the most played game (Catan here, two of the five), and says so.
    let (_, one) = app.get_json("/api/questions?preset=first-seat");
    assert_eq!((one["ruleset"].clone(), one["counted"].clone()), (json!("catan"), json!(2)), "{one}");
    assert_eq!(one["question"], json!("Win rate by seat — Catan"));
    let page = app.send("GET", "/questions?preset=first-seat", None, &[]);
    assert_eq!((page.status, page.header("location")), (303, Some("/questions?preset=first-seat&ruleset=catan")));
    // By two dimensions: seat, then table size; each pair against 1 / players exactly.
    let (status, pairs) = app.get_json("/api/questions?metric=won&by=seat&then=players&ruleset=all");
    assert_eq!(status, 200, "{pairs}");
    assert_eq!(pairs["question"], json!("Win rate by seat and number of players"));
    for g in pairs["groups"].as_array().unwrap() {
        let (seat, players) = g["key"].as_str().unwrap().split_once('|').expect("a pair's key");
        let n: f64 = players.parse().unwrap();
        assert!(seat.parse::<f64>().unwrap() <= n, "{g}");
        assert!((g["expected"].as_f64().unwrap() - 1.0 / n).abs() < 1e-12, "{g}");
        assert_eq!(g["label"], json!(format!("seat {seat} · {players} players")));
    }
    let seats: u64 = pairs["groups"].as_array().unwrap().iter().map(|g| g["seats"].as_u64().unwrap()).sum();
    let all: u64 = groups.iter().map(|g| g["seats"].as_u64().unwrap()).sum();
    assert_eq!(seats, all, "the same seats, in finer groups");
    let (_, one) = app.get_json("/api/questions?metric=won&by=seat&then=players&ruleset=all&group=1|4");
    assert!(one["groups"].as_array().unwrap().iter().all(|g| g["key"] == "1|4"), "{one}");
    let (status, err) = app.get_json("/api/questions?metric=won&by=seat&then=opponent");
    assert_eq!(status, 400, "{err}");
    assert!(err["error"].as_str().unwrap().contains("`then=opponent` is no second dimension"), "{err}");
    // A club or a player nobody knows is named in the refusal.
    let (status, err) = app.get_json("/api/questions?preset=first-seat&club=Nowhere");
    assert_eq!((status, err["error"].clone()), (400, json!("no club `Nowhere`")));
    let (status, err) = app.get_json("/api/questions?preset=first-seat&player=424242");
    assert_eq!((status, err["error"].clone()), (400, json!("no player 424242")));
    let (status, catalogue) = app.get_json("/api/questions/catalogue");
    assert_eq!(status, 200);
    assert!(catalogue["presets"].as_array().unwrap().iter().any(|p| p["id"] == "first-seat"));
}

#[test]
fn a_players_page_sets_their_numbers_beside_the_fields() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    // Two tables with Ayşe, and a third without her: the field is every seat of the three.
    let games = [
        upload(&app, &truth, true),
        upload(&app, &truth.replace("Zeynep", "Zerrin"), true),
        upload(&app, &truth.replace("Ayşe", "Aylin"), true),
    ];
    let ayse = seat_player(&app, &games[0], 0);
    // The oracle: each game's own statistics, as the replay page reads them.
    let stats: Vec<Value> = games.iter().map(|g| app.get_json(&format!("/api/games/{g}/stats")).1).collect();
    let per_turn = |s: &Value, seat: usize| {
        s["players"][seat]["production_total"].as_f64().unwrap() / s["turns"].as_f64().unwrap().max(1.0)
    };
    let mine = (per_turn(&stats[0], 0) + per_turn(&stats[1], 0)) / 2.0;
    let seats: Vec<f64> = stats.iter().flat_map(|s| (0..4).map(move |k| per_turn(s, k))).collect();
    let field = seats.iter().sum::<f64>() / seats.len() as f64;
    let (status, page) = app.get_json(&format!("/api/players/{ayse}"));
    assert_eq!(status, 200, "{page}");
    let catan = &page["profiles"][0];
    assert_eq!(catan["ruleset"], json!("catan"));
    let everything = catan["production"].as_array().unwrap().iter().find(|v| v["key"] == "").unwrap();
    assert!((everything["mine"].as_f64().unwrap() - mine).abs() < 1e-9, "{everything} against {mine}");
    assert!((everything["field"].as_f64().unwrap() - field).abs() < 1e-9, "{everything} against {field}");
    assert_eq!(everything["seats"], json!(2));
    // Trade partners: as many trades with Mehmet as the two games' statistics count.
    let with_mehmet: f64 =
        stats[..2].iter().map(|s| s["players"][0]["trades"]["partners"]["Mehmet"].as_f64().unwrap_or(0.0)).sum();
    let partner = catan["partners"].as_array().unwrap().iter().find(|p| p["name"] == "Mehmet").unwrap();
    assert_eq!(partner["trades"].as_f64(), Some(with_mehmet));
    assert!(catan["openings"].as_array().unwrap().iter().map(|o| o["seats"].as_u64().unwrap()).sum::<u64>() <= 2);
    // The score curve is drawn against the field; an unplayed game has none.
    let (status, content_type, svg) = app.get_text(&format!("/api/players/{ayse}/curve.svg?ruleset=catan"));
    assert_eq!((status, content_type.as_str()), (200, "image/svg+xml"));
    assert!(svg.contains("the field"));
    assert_eq!(app.get_text(&format!("/api/players/{ayse}/curve.svg?ruleset=elasund")).0, 404);
}

/// Programs are not people: catanatron's seats (its programs) and JSettlers' robots are bots, marked as such
/// on every page, and left out of the leaderboard and "who" questions unless asked for.
#[test]
fn bots_are_marked_and_left_out_of_peoples_boards_unless_asked_for() {
    let app = spawn_app(16 << 20);
    let people = upload(&app, &sample("catan-club-game.jsonl"), true);
    let record = std::fs::read_to_string(support::root().join("tests/data/catanatron/catanatron-1.json")).unwrap();
    let (status, body) = app.post("/api/games?format=catanatron&publish=true", record.as_bytes());
    assert_eq!(status, 201, "{body}");
    let bots = body["id"].as_str().unwrap().to_string();
    let (_, game) = app.get_json(&format!("/api/games/{bots}"));
    let seats = game["players"].as_array().unwrap();
    assert!(seats.iter().all(|p| p["bot"] == json!(true)), "every catanatron seat is a bot: {game}");
    assert!(app.get_json(&format!("/api/games/{people}")).1["players"][0]["bot"] == json!(false));

    let names = |board: &Value| -> Vec<String> {
        board.as_array().unwrap().iter().map(|l| l["name"].as_str().unwrap().to_string()).collect()
    };
    let (status, board) = app.get_json("/api/leaderboard?ruleset=catan");
    assert_eq!(status, 200, "{board}");
    assert_eq!(names(&board).len(), 4, "the four people only: {board}");
    let (_, everyone) = app.get_json("/api/leaderboard?ruleset=catan&bots=yes");
    assert_eq!(names(&everyone).len(), 8);
    assert_eq!(everyone.as_array().unwrap().iter().filter(|l| l["bot"] == json!(true)).count(), 4);
    assert_eq!(app.get_json("/api/leaderboard?ruleset=catan&bots=maybe").0, 400);

    let who = |query: &str| -> usize {
        let (status, answer) = app.get_json(&format!("/api/questions?metric=won&by=player&ruleset=catan{query}"));
        assert_eq!(status, 200, "{answer}");
        answer["groups"].as_array().unwrap().len()
    };
    assert_eq!(who(""), 4, "a who question ranks people");
    assert_eq!(who("&bots=yes"), 8);
    let (_, by_seat) = app.get_json("/api/questions?metric=won&by=seat&ruleset=catan");
    assert_eq!(by_seat["counted"], 2, "a seat is a seat, whoever sat in it");

    // A person's place is among the people rated, as on the board; a bot's among everyone.
    let person = app.get_json(&format!("/api/games/{people}")).1["players"][0]["player"].as_i64().unwrap();
    let (_, mine) = app.get_json(&format!("/api/players/{person}"));
    assert_eq!(mine["ratings"][0]["rated"], 4, "{}", mine["ratings"]);
    let bot = seats[0]["player"].as_i64().unwrap();
    let (_, theirs) = app.get_json(&format!("/api/players/{bot}"));
    assert_eq!(theirs["ratings"][0]["rated"], 8);
    let (_, _, page) = app.get_text(&format!("/players/{bot}"));
    assert!(page.contains("<span class=\"bot\">bot</span> a program's seats"), "the player's page says so");
    let (_, _, replay) = app.get_text(&format!("/games/{bots}"));
    assert!(replay.contains("<span class=\"bot\">bot</span>"), "the standings mark the bots");
    let (_, _, html) = app.get_text("/leaderboard");
    assert!(html.contains("<option value=\"catan\" selected>"), "the most played game is shown");
    assert!(!html.contains(&format!("/players/{bot}\"")), "no bot on the people's board");
}

/// A player's page opens with a summary: the record of the game played most, with the win rate's interval
/// and a fair game's share, the rating and its move, and strengths and weaknesses against the field, each
/// with its count. Checked against the games' own rows (22 catanatron records with VictoryPointPlayer at the
/// table).
#[test]
fn a_players_page_opens_with_a_summary_a_coach_can_trust() {
    let app = spawn_app(16 << 20);
    let dir = support::root().join("tests/data/catanatron");
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let record = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let (status, body) = app.post("/api/games?format=catanatron&publish=true", record.as_bytes());
        assert!(status == 201 || status == 200, "{status}: {body}");
        ids.push(body["id"].as_str().unwrap().to_string());
    }
    // VictoryPointPlayer's record, from the games' rows: the Catan games with a winner it sat in (one record
    // per game).
    let (mut games, mut wins, mut fair, mut red) = (0u32, 0u32, 0.0, None);
    let mut seen = std::collections::BTreeSet::new();
    for id in &ids {
        let (_, g) = app.get_json(&format!("/api/games/{id}"));
        let players = g["players"].as_array().unwrap();
        let Some(mine) = players.iter().find(|p| p["name"] == "VictoryPointPlayer") else { continue };
        if g["ruleset"] != "catan" || g["winner"].is_null() || !seen.insert(id.clone()) || g["counted"] != true {
            continue;
        }
        red = mine["player"].as_i64();
        games += 1;
        wins += (g["winner"] == "VictoryPointPlayer") as u32;
        fair += 1.0 / players.len() as f64;
    }
    let red = red.expect("VictoryPointPlayer sat somewhere");
    let (status, page) = app.get_json(&format!("/api/players/{red}"));
    assert_eq!(status, 200);
    let s = &page["summary"];
    assert_eq!(
        (s["ruleset"].as_str(), s["games"].as_u64(), s["wins"].as_u64()),
        (Some("catan"), Some(games as u64), Some(wins as u64))
    );
    let rate = wins as f64 / games as f64;
    assert!(s["win_low"].as_f64().unwrap() <= rate && rate <= s["win_high"].as_f64().unwrap(), "{s}");
    assert!((s["fair_share"].as_f64().unwrap() - fair / games as f64).abs() < 1e-9);
    assert_eq!(s["trend_games"], 5);
    let history = page["ratings"][0]["history"].as_array().unwrap();
    let n = history.len();
    let moved = history[n - 1][1].as_f64().unwrap() - history[n - 6][1].as_f64().unwrap();
    assert!((s["rating_change"].as_f64().unwrap() - moved).abs() < 1e-9);
    // Strengths and weaknesses, found again from the profile: the cards produced per turn, those lost to each
    // cause, the points from each reason and the decision accuracy (the score and the chances along the game
    // restate the result), where the field's number
    // lies outside the player's interval, over three games at least.
    let profile = page["profiles"].as_array().unwrap().iter().find(|p| p["ruleset"] == "catan").unwrap();
    let mut found: Vec<(String, bool)> = Vec::new();
    let numbers =
        profile["production"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| v["key"] == "" && v["label"] == "everything")
            .map(|v| (v, "cards produced per turn".to_string(), true))
            .chain(
                profile["losses"].as_array().unwrap().iter().map(|v| {
                    (v, format!("cards lost to {} per game", v["label"].as_str().unwrap().to_lowercase()), false)
                }),
            )
            .chain(
                profile["points"].as_array().unwrap().iter().map(|v| {
                    (v, format!("points from {} per game", v["label"].as_str().unwrap().to_lowercase()), true)
                }),
            )
            .chain(
                profile["chances"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|v| v["label"].as_str().unwrap().starts_with("decision accuracy"))
                    .map(|v| (v, v["label"].as_str().unwrap().to_string(), true)),
            );
    for (v, label, more_is_better) in numbers {
        let (Some(field), Some(low), Some(high)) = (v["field"].as_f64(), v["low"].as_f64(), v["high"].as_f64()) else {
            continue;
        };
        if v["seats"].as_u64().unwrap() >= 3 && (field < low || field > high) {
            found.push((label, (v["mine"].as_f64().unwrap() > field) == more_is_better));
        }
    }
    let mut named: Vec<(String, bool)> = Vec::new();
    for (list, better) in [("strengths", true), ("weaknesses", false)] {
        let cues = s[list].as_array().unwrap();
        assert!(cues.len() <= 3);
        for c in cues {
            assert_eq!(c["better"], better, "{c}");
            assert!(c["seats"].as_u64().unwrap() >= 3, "a cue stands on three games at least: {c}");
            let (low, mine, high) =
                (c["low"].as_f64().unwrap(), c["mine"].as_f64().unwrap(), c["high"].as_f64().unwrap());
            let field = c["field"].as_f64().unwrap();
            assert!(low <= mine && mine <= high && (field < low || field > high), "{c}");
            named.push((c["label"].as_str().unwrap().to_string(), better));
        }
        let z: Vec<f64> = cues.iter().map(|c| c["z"].as_f64().unwrap().abs()).collect();
        assert!(z.windows(2).all(|w| w[0] >= w[1]), "surest first: {z:?}");
        let of_kind = found.iter().filter(|f| f.1 == better).count();
        assert_eq!(cues.len(), of_kind.min(3), "{list}: {found:?}");
    }
    assert!(named.iter().all(|n| found.contains(n)), "{named:?} against {found:?}");
    let (_, _, html) = app.get_text(&format!("/players/{red}"));
    assert!(html.contains("<section class=\"summary\""), "the page opens with it");
    assert!(html.contains(&format!("{wins} {} of {games} games", if wins == 1 { "win" } else { "wins" })), "in words");
    assert!(html.contains("<details class=\"more\""), "the details fold");
    // Form: the last ten games, latest first, as the record lists them.
    let form = html.split("<ol class=\"form\">").nth(1).unwrap().split("</ol>").next().unwrap();
    let latest: Vec<String> = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .take(10)
        .map(|g| format!("/games/{}", g["game"].as_str().unwrap()))
        .collect();
    let linked: Vec<&str> = form.split("href=\"").skip(1).map(|s| s.split('"').next().unwrap()).collect();
    assert_eq!(linked, latest, "{form}");
    // catanatron's records are undated: the rating's games are numbered, each with no day.
    let dates = page["ratings"][0]["dates"].as_array().unwrap();
    assert_eq!(dates.len(), history.len());
    assert!(dates.iter().all(Value::is_null));
}

/// A rating's trend is drawn by the day each game was played, where the records say it.
#[test]
fn a_rating_is_drawn_by_the_days_its_games_were_played() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    upload(&app, &club, true);
    let later = club.replace("\"Can\"", "\"Cem\"").replacen("2026-11-12", "2026-11-19", 1);
    let b = upload(&app, &later, true);
    let ayse = seat_player(&app, &b, 0);
    let (_, page) = app.get_json(&format!("/api/players/{ayse}"));
    assert_eq!(page["ratings"][0]["dates"], json!(["2026-11-12", "2026-11-19"]));
    let (_, _, svg) = app.get_text(&format!("/api/players/{ayse}/ratings.svg"));
    assert!(svg.contains("game, by the day played") && svg.contains("2026-11-19"), "dates on the axis");
}

/// Every game gets the coach table its vocabulary declares: Carcassonne's points by feature, pieces
/// placed (its followers by the part they play) and followers returned by a scored feature, with totals and
/// units, and none of Catan's trade columns; its events read in words.
#[test]
fn carcassonne_gets_its_own_coach_table_and_its_events_in_words() {
    let app = spawn_app(16 << 20);
    let game = upload(&app, &sample("carcassonne-traders-builders.jsonl"), true);
    let (_, table) = app.get_json(&format!("/api/games/{game}/coach"));
    assert_eq!(table["parts"], json!(["points", "placed", "returned", "gained"]), "{table}");
    let ids = |key: &str| -> Vec<String> {
        table[key].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect()
    };
    assert!(ids("points_by").contains(&"city".to_string()) && ids("points_by").contains(&"field".to_string()));
    assert!(ids("placed").contains(&"tile".to_string()) && ids("placed").contains(&"knight".to_string()));
    // The points by feature sum to each player's final score, as the game's row says it.
    let (_, g) = app.get_json(&format!("/api/games/{game}"));
    for (row, player) in table["rows"].as_array().unwrap().iter().zip(g["players"].as_array().unwrap()) {
        let points: i64 = row["points"].as_array().unwrap().iter().map(|c| c["count"].as_i64().unwrap()).sum();
        assert_eq!(Some(points), player["vp"].as_i64(), "{}", player["name"]);
    }
    // Followers placed less those returned are the followers a player lacks just before the final scoring,
    // as the replayed state counts them.
    let (_, events) = app.get_json(&format!("/api/games/{game}/events"));
    let last = events["events"].as_array().unwrap().len() - 1;
    let (_, start) = app.get_json(&format!("/api/games/{game}/state?seq=0"));
    let (_, before_end) = app.get_json(&format!("/api/games/{game}/state?seq={last}"));
    let count = |row: &Value, key: &str, columns: &str, id: &str| -> i64 {
        let k = ids(columns).iter().position(|c| c == id);
        k.map_or(0, |k| row[key][k]["count"].as_i64().unwrap())
    };
    let mut returned_any = 0;
    for (p, row) in table["rows"].as_array().unwrap().iter().enumerate() {
        let roles = ["knight", "thief", "monk", "farmer"];
        let placed: i64 = roles.iter().map(|r| count(row, "placed", "placed", r)).sum();
        let returned: i64 = roles.iter().map(|r| count(row, "returned", "returned", r)).sum();
        returned_any += returned;
        let lacking = start["players"][p]["followers_left"].as_i64().unwrap()
            - before_end["players"][p]["followers_left"].as_i64().unwrap();
        assert_eq!(placed - returned, lacking, "{}", row["player"]);
        for r in roles {
            assert!(count(row, "returned", "returned", r) <= count(row, "placed", "placed", r), "{r}");
        }
    }
    assert!(returned_any > 0, "the sample scores a feature during play");
    let (_, _, html) = app.get_text(&format!("/games/{game}"));
    let coach = html.split("<section class=\"coach\">").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(coach.contains(">points<") && coach.contains(">pieces placed<"), "{coach}");
    assert!(coach.contains(">pieces returned during play<"), "{coach}");
    // The points' total, and the followers' where more than one kind came home; tiles and figures placed add
    // up to nothing.
    let totals = 1 + usize::from(ids("returned").len() > 1);
    assert_eq!(coach.matches(">total<").count(), totals, "{coach}");
    assert!(!coach.contains("trades") && !coach.contains("luck"), "no trade or luck columns: {coach}");
    let texts: Vec<&str> = events["events"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap()).collect();
    assert!(texts.iter().all(|t| !t.contains("BA/") && !t.contains("TB/")), "no tile codes");
    assert!(texts.iter().any(|t| t.contains(" tile ") && t.contains(" of the start")), "{:?}", &texts[..5]);
}

/// Every interval the API serves (every question of every metric with its arguments, by player and by table
/// size, every player's page, every head-to-head of the leaderboard's first players) lies inside what its
/// quantity can be, on the samples, the catanatron records and the generated club games with a trained model.
/// The ranges are said here, apart from the code that computes the intervals.
#[test]
fn no_interval_the_api_serves_leaves_its_quantitys_range() {
    let app = spawn_app(16 << 20);
    let samples: Vec<String> = std::fs::read_dir(support::root().join("data/samples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let samples: Vec<&str> = samples.iter().map(String::as_str).collect();
    support::publish_records_for_a_model(&app, &samples);
    support::train(&app, "catan");
    // What each metric's values can be (a place: at most the six seats of the largest table).
    let range = |metric: &str| -> (f64, f64) {
        match metric {
            "won" | "chance_at_turn" => (0.0, 1.0),
            "place" => (1.0, 6.0),
            "decision_accuracy" => (0.0, 100.0),
            "chance_gained" => (-1.0, 1.0),
            "luck" => (f64::NEG_INFINITY, f64::INFINITY),
            _ => (0.0, f64::INFINITY),
        }
    };
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    let mut within = |what: &str, low: Option<f64>, high: Option<f64>, (floor, ceiling): (f64, f64), v: &Value| {
        let (Some(low), Some(high)) = (low, high) else { return };
        assert!(floor - 1e-9 <= low && low <= high && high <= ceiling + 1e-9, "{what}: [{low}, {high}] in {v}");
        *checked.entry(what.split(' ').next().unwrap().to_string()).or_default() += 1;
    };
    // Every question, by player (programs too) and by table size.
    let (_, catalogue) = app.get_json("/api/questions/catalogue");
    for ruleset in ["catan", "carcassonne", "cities-knights", "elasund", "catan-cards"] {
        for m in catalogue["metrics"].as_array().unwrap() {
            let metric = m["id"].as_str().unwrap();
            // `args`: for each game, `[ruleset, [[id, label] ...]]`.
            let of_game = m["args"].as_array().unwrap().iter().find(|g| g[0] == ruleset).unwrap();
            let mut args: Vec<String> =
                of_game[1].as_array().unwrap().iter().map(|pair| pair[0].as_str().unwrap().to_string()).collect();
            if m["arg"] == "none" {
                args = vec![String::new()];
            } else if m["arg"] == "turn" || m["arg"] == "score" {
                args = args.into_iter().step_by(3).collect();
            }
            for arg in &args {
                for by in ["player&bots=yes", "players"] {
                    let (status, answer) =
                        app.get_json(&format!("/api/questions?ruleset={ruleset}&metric={metric}&arg={arg}&by={by}"));
                    assert_eq!(status, 200, "{ruleset} {metric} {arg}: {answer}");
                    for g in answer["groups"].as_array().unwrap() {
                        let (floor, mut ceiling) = range(metric);
                        if metric == "place" && by == "players" {
                            // At a table of n, no place is past n.
                            ceiling = g["key"].as_str().unwrap().parse::<f64>().unwrap();
                        }
                        within(
                            &format!("{metric} {ruleset}"),
                            g["low"].as_f64(),
                            g["high"].as_f64(),
                            (floor, ceiling),
                            g,
                        );
                    }
                }
            }
        }
    }
    // Every player's page (in percent where the page says so).
    let mut players: Vec<i64> = Vec::new();
    for ruleset in ["catan", "carcassonne", "cities-knights", "elasund", "catan-cards"] {
        let (status, board) = app.get_json(&format!("/api/leaderboard?ruleset={ruleset}&bots=yes"));
        assert_eq!(status, 200, "{ruleset}: {board}");
        players.extend(board.as_array().unwrap().iter().map(|p| p["player"].as_i64().unwrap()));
    }
    players.sort();
    players.dedup();
    assert!(players.len() > 10, "{players:?}");
    for &id in &players {
        let (_, page) = app.get_json(&format!("/api/players/{id}"));
        for p in page["profiles"].as_array().unwrap() {
            for part in ["score_by_turn", "points", "losses", "trading", "production"] {
                for v in p[part].as_array().unwrap() {
                    let r = if v["label"].as_str().unwrap().starts_with("luck") { range("luck") } else { range(part) };
                    within(&format!("page-{part}"), v["low"].as_f64(), v["high"].as_f64(), r, v);
                }
            }
            for v in p["chances"].as_array().unwrap() {
                let label = v["label"].as_str().unwrap();
                let (floor, ceiling) = match label {
                    l if l.starts_with("decision accuracy") => range("decision_accuracy"),
                    l if l.starts_with("chance gained") => (-100.0, 100.0),
                    _ => (0.0, 100.0),
                };
                within(&format!("page-chances {label}"), v["low"].as_f64(), v["high"].as_f64(), (floor, ceiling), v);
            }
        }
        let s = &page["summary"];
        within("page-win", s["win_low"].as_f64(), s["win_high"].as_f64(), range("won"), s);
    }
    // Head-to-heads of the players of the catanatron records and the club (each against the next).
    for pair in players.windows(2).take(40) {
        let (status, versus) = app.get_json(&format!("/api/players/{}/vs/{}", pair[0], pair[1]));
        assert_eq!(status, 200, "{versus}");
        for side in versus["side_by_side"].as_array().unwrap() {
            for n in side["numbers"].as_array().unwrap() {
                let what = n["what"].as_str().unwrap();
                let r = match what {
                    "win rate" => range("won"),
                    "finishing place" => range("place"),
                    "decision accuracy (0–100)" => range("decision_accuracy"),
                    w if w.starts_with("luck") => range("luck"),
                    _ => (0.0, f64::INFINITY),
                };
                for key in ["a_interval", "b_interval"] {
                    within(&format!("versus {what}"), n[key][0].as_f64(), n[key][1].as_f64(), r, n);
                }
            }
        }
    }
    // Each kind was met, and the bounded ones many times.
    for (what, least) in [("decision_accuracy", 5), ("place", 20), ("chance_gained", 5), ("won", 20), ("stat", 20)] {
        assert!(checked.get(what).copied().unwrap_or(0) >= least, "{what}: {checked:?}");
    }
    assert!(
        checked.keys().any(|k| k.starts_with("versus")) && checked.keys().any(|k| k.starts_with("page-")),
        "{checked:?}"
    );
}

/// A leaderboard a club believes: a player with few games is provisional, listed after every established
/// player whatever their rating, with the games they still need; the established are ranked by the
/// cautious rating; the page explains the spread in words.
#[test]
fn the_leaderboards_first_row_is_an_established_player_and_the_provisional_follow() {
    let app = spawn_app(16 << 20);
    let truth = sample("catan-club-game.jsonl");
    // Five games of the same four but Can, each time someone new in his seat; then a game a newcomer wins
    // in Zeynep's seat, against the same three.
    for k in 1..=5 {
        upload(&app, &truth.replace("\"Can\"", &format!("\"Can {k}\"")), true);
    }
    upload(&app, &truth.replace("Zeynep", "Deniz"), true);
    let (status, board) = app.get_json("/api/leaderboard?ruleset=catan");
    assert_eq!(status, 200, "{board}");
    let board = board.as_array().unwrap();
    let provisional: Vec<bool> = board.iter().map(|l| l["provisional"].as_bool().unwrap()).collect();
    assert!(!provisional[0], "the first row is established: {board:?}");
    assert!(provisional.windows(2).all(|w| w[0] <= w[1]), "the provisional after the established: {provisional:?}");
    for l in board {
        let games = l["games"].as_u64().unwrap();
        assert_eq!(l["provisional"].as_bool(), Some(games < 5), "{l}");
        assert_eq!(l["games_needed"].as_u64(), Some(5u64.saturating_sub(games)), "{l}");
    }
    let established: Vec<&Value> = board.iter().filter(|l| l["provisional"] == false).collect();
    assert_eq!(established.len(), 3, "Ayşe, Mehmet and Zeynep played six or five: {board:?}");
    assert!(established.windows(2).all(|w| w[0]["rating"].as_f64() >= w[1]["rating"].as_f64()));
    // Each player's page places them as the board does: the established by rank, the provisional not yet.
    for (i, l) in board.iter().enumerate() {
        let (_, page) = app.get_json(&format!("/api/players/{}", l["player"]));
        let rank = &page["ratings"][0]["rank"];
        if l["provisional"] == true {
            assert_eq!(rank, &Value::Null, "{l}");
        } else {
            assert_eq!(rank, &json!(i + 1), "{l}");
        }
    }
    // Deniz won his one game: whatever his rating, he is not ranked above the established.
    let deniz = board.iter().position(|l| l["name"] == "Deniz").unwrap();
    assert!(deniz >= 3 && board[deniz]["games_needed"] == json!(4), "{board:?}");
    let (_, _, html) = app.get_text("/leaderboard?ruleset=catan");
    assert!(html.contains("Provisional: fewer than 5 games, not ranked yet"), "the provisional apart");
    assert!(html.contains("provisional: 4 more games"), "the games Deniz needs");
    assert!(!html.contains("sigma") && !html.contains("mu −"), "the spread in words, not a formula");
}

/// Fields of peers: a person's numbers are set beside people's, a program's beside programs'; the page names
/// the field with its seats and games; a question by opponent, programs left out, counts no program's seat.
/// Over the club game (people) and the catanatron records (programs), with one program at a people's table.
#[test]
fn a_persons_field_holds_no_programs_seat_and_a_programs_holds_no_persons() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let a = upload(&app, &club, true);
    // Another game of the four, Can a program there (the header says so).
    let mixed = club.replace("\"Can\"", "\"Robo\"").replacen(r#"{"name":"Robo""#, r#"{"name":"Robo","bot":true"#, 1);
    assert!(mixed.contains(r#""bot":true"#));
    upload(&app, &mixed, true);
    let mut records = 0;
    for entry in std::fs::read_dir(support::root().join("tests/data/catanatron")).unwrap() {
        let record = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let (status, body) = app.post("/api/games?format=catanatron&publish=true", record.as_bytes());
        assert!(status == 201 || status == 200, "{status}: {body}");
        records += 1;
    }
    // People's numbers, from the question over people: each person's mean and seats.
    let people = |metric: &str| -> (f64, u64) {
        let (_, answer) = app.get_json(&format!("/api/questions?ruleset=catan&metric={metric}&by=player"));
        answer["groups"].as_array().unwrap().iter().fold((0.0, 0), |(sum, n), g| {
            let seats = g["seats"].as_u64().unwrap();
            (sum + g["value"].as_f64().unwrap() * seats as f64, n + seats)
        })
    };
    let (trades, seats) = people("trades_per_turn");
    assert_eq!(seats, 7, "the club game's four and the other's three people");
    let ayse = seat_player(&app, &a, 0);
    let (_, page) = app.get_json(&format!("/api/players/{ayse}"));
    let profile = page["profiles"].as_array().unwrap().iter().find(|p| p["ruleset"] == "catan").unwrap();
    // Games like hers: the same ruleset, table size and edition (the catanatron records' two- and three-player
    // tables, other maps and targets are other kinds, and programs' besides).
    let like = json!([{"players": 4, "edition": "Catan", "seats": 7, "games": 2, "mine": 2}]);
    assert_eq!(
        profile["field"],
        json!({"ruleset": "catan", "programs": false, "seats": 7, "games": 2, "like": like}),
        "{profile}"
    );
    let field = profile["trading"].as_array().unwrap().iter().find(|v| v["label"] == "trades per turn").unwrap();
    assert!(
        (field["field"].as_f64().unwrap() - trades / seats as f64).abs() < 1e-9,
        "{field} against {trades}/{seats}"
    );
    let (_, _, html) = app.get_text(&format!("/players/{ayse}"));
    assert!(
        html.contains("The field: people's published games like Ayşe's — Catan at 4 players (7 seats in 2 games). Programs left out."),
        "the field in words"
    );
    // A program's field is programs': the records' games and the one with a program at the people's table.
    let red = {
        let (_, board) = app.get_json("/api/leaderboard?ruleset=catan&bots=yes");
        board.as_array().unwrap().iter().find(|l| l["name"] == "VictoryPointPlayer").unwrap()["player"]
            .as_i64()
            .unwrap()
    };
    let (_, page) = app.get_json(&format!("/api/players/{red}"));
    let profile = page["profiles"].as_array().unwrap().iter().find(|p| p["ruleset"] == "catan").unwrap();
    let f = &profile["field"];
    assert_eq!((f["programs"].as_bool(), f["games"].as_u64()), (Some(true), Some(records + 1)), "{f}");
    // By opponent, programs left out: Robo's own seat is no one's, nor is he anyone's opponent. Each person's
    // opponents are the other people at the table: 4 × 3 in the club game, 3 × 2 in the other.
    let (_, answer) = app.get_json("/api/questions?ruleset=catan&metric=won&by=opponent");
    let pairs: u64 = answer["groups"].as_array().unwrap().iter().map(|g| g["seats"].as_u64().unwrap()).sum();
    assert_eq!(pairs, 12 + 6, "{answer}");
}

/// Find people by name: a question takes a player's name in any case and any of their spellings, as the
/// builder's suggestions list them; a name nobody has is said beside the form; "Of" lists what the chosen
/// metric takes; a player's page lists every spelling their games wrote.
#[test]
fn a_question_takes_a_players_name_and_a_page_lists_every_spelling() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let a = upload(&app, &club, true);
    upload(&app, &club.replace("\"Can\"", "\"Cem\"").replace("Ayşe", "AYŞE"), true);
    upload(&app, &club.replace("\"Can\"", "\"Cenk\"").replace("Ayşe", "ayşe"), true);
    let ayse = seat_player(&app, &a, 0);
    let (_, by_id) = app.get_json(&format!("/api/questions?ruleset=catan&metric=won&by=seat&player={ayse}"));
    let encoded = |name: &str| name.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    for name in ["ayşe", "AYŞE", "Ayşe"] {
        let (status, by_name) =
            app.get_json(&format!("/api/questions?ruleset=catan&metric=won&by=seat&player={}", encoded(name)));
        assert_eq!(status, 200, "{name}: {by_name}");
        assert_eq!(by_name["groups"], by_id["groups"], "{name}");
        assert_eq!(by_name["counted"].as_u64(), Some(3), "her three games: {by_name}");
    }
    let (status, none) = app.get_json("/api/questions?ruleset=catan&metric=won&by=seat&player=Nobody");
    assert_eq!(status, 400, "{none}");
    assert!(none["error"].as_str().unwrap().contains("no player named `Nobody`"), "{none}");
    let (status, _, html) = app.get_text("/questions?ruleset=catan&metric=won&by=seat&player=Nobody");
    assert_eq!(status, 200, "the form stays, the problem beside it");
    assert!(html.contains("class=\"problem\"") && html.contains("form class=\"question\""), "{html}");
    // Suggestions: the people rated in the game, by name; no id to type.
    let (_, _, html) = app.get_text("/questions?ruleset=catan&metric=won&by=seat");
    let datalist = html.split("<datalist id=\"known-players\">").nth(1).unwrap().split("</datalist>").next().unwrap();
    for name in ["Ayşe", "Mehmet", "Zeynep", "Can", "Cem", "Cenk"] {
        assert!(datalist.contains(&format!("value=\"{name}\"")), "{name} in {datalist}");
    }
    assert!(!html.contains("Player id"), "no id to type");
    // "Of" lists what the metric takes: nothing for the win rate, the game's causes for cards lost.
    let of = |html: &str| -> Vec<String> {
        let select = html.split("<select name=\"arg\">").nth(1).unwrap().split("</select>").next().unwrap();
        select.split("<option value=\"").skip(1).map(|o| o.split('"').next().unwrap().to_string()).collect()
    };
    assert_eq!(of(&html), [""], "the win rate takes nothing");
    let (_, _, lost) = app.get_text("/questions?ruleset=catan&metric=lost&arg=steal&by=player");
    let causes: Vec<String> = {
        let (_, catalogue) = app.get_json("/api/questions/catalogue");
        let m = catalogue["metrics"].as_array().unwrap().iter().find(|m| m["id"] == "lost").unwrap();
        let catan = m["args"].as_array().unwrap().iter().find(|g| g[0] == "catan").unwrap();
        std::iter::once(String::new())
            .chain(catan[1].as_array().unwrap().iter().map(|c| c[0].as_str().unwrap().to_string()))
            .collect()
    };
    assert_eq!(of(&lost), causes, "Catan's causes, and no other game's");
    // Every spelling her games wrote.
    let (_, page) = app.get_json(&format!("/api/players/{ayse}"));
    let spellings: Vec<&str> =
        page["player"]["spellings"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(spellings[0], "Ayşe", "her own first: {spellings:?}");
    for s in ["AYŞE", "ayşe"] {
        assert!(spellings.contains(&s), "{s} in {spellings:?}");
    }
}

/// A club's view is its games: the club game stored first by one club, then by Moda (the same game under
/// another title): asked with `club=Moda`, a question counts Moda's record, once, and says another record
/// counts for the public; asked of the first club, its own.
#[test]
fn a_clubs_view_holds_the_games_it_recorded_whichever_record_counts() {
    let app = spawn_app(16 << 20);
    let club = sample("catan-club-game.jsonl");
    let first = upload(&app, &club, true);
    let moda = new_club(&app.db, "Moda");
    let theirs = app.send(
        "POST",
        "/api/games?publish=true",
        Some(club.replacen("Thursday league, table 2", "Moda's Thursday", 1).as_bytes()),
        &[("authorization", &format!("Bearer {moda}")), ("content-type", "application/x-ndjson")],
    );
    assert_eq!(theirs.status, 201, "{}", theirs.body);
    let theirs = theirs.json()["id"].as_str().unwrap().to_string();
    assert_eq!(app.get_json(&format!("/api/games/{theirs}")).1["counted"], json!(false), "the first club's counts");
    let (status, answer) = app.get_json("/api/questions?ruleset=catan&metric=won&by=player&club=Moda");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["counted"].as_u64(), Some(1), "Moda's game, once: {answer}");
    let games = answer["games"].as_array().unwrap();
    assert_eq!((games[0]["id"].as_str(), games[0]["counted"].as_bool()), (Some(theirs.as_str()), Some(false)));
    let seats: u64 = answer["groups"].as_array().unwrap().iter().map(|g| g["seats"].as_u64().unwrap()).sum();
    assert_eq!(seats, 4, "its four players: {answer}");
    let (_, _, html) = app.get_text("/questions?ruleset=catan&metric=won&by=player&club=Moda");
    assert!(html.contains("another record of this game counts for the public"), "said which counts");
    let (_, mine) = app.get_json("/api/questions?ruleset=catan&metric=won&by=player&club=Test%20club");
    let games = mine["games"].as_array().unwrap();
    assert_eq!(
        (games.len(), games[0]["id"].as_str(), games[0]["counted"].as_bool()),
        (1, Some(first.as_str()), Some(true))
    );
    // The public's view without a club: the game once.
    let (_, all) = app.get_json("/api/questions?ruleset=catan&metric=won&by=player");
    assert_eq!(all["counted"].as_u64(), Some(1));
    // Moda's leaderboard rates its own record's players, though the first club's record counts for the
    // public; the public's leaderboard rates the game once.
    let board = |query: &str| -> Vec<String> {
        let (status, b) = app.get_json(&format!("/api/leaderboard?ruleset=catan{query}"));
        assert_eq!(status, 200, "{b}");
        let mut names: Vec<String> =
            b.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
        names.sort();
        names
    };
    let (moda_board, public_board) = (board("&club=Moda"), board(""));
    assert_eq!(moda_board.len(), 4, "{moda_board:?}");
    assert_eq!(moda_board, public_board, "the same four people, each rated once in each view");
    assert_eq!(board("&club=Test%20club"), public_board);
    // The identical file uploaded by a third club is that club's record too: its own id, in its own view.
    let kadikoy = new_club(&app.db, "Kadıköy");
    let same = app.send(
        "POST",
        "/api/games?publish=true",
        Some(club.as_bytes()),
        &[("authorization", &format!("Bearer {kadikoy}")), ("content-type", "application/x-ndjson")],
    );
    assert_eq!(same.status, 201, "{}", same.body);
    let same = same.json()["id"].as_str().unwrap().to_string();
    assert_ne!(same, first, "not the first club's id");
    let (_, view) = app.get_json("/api/questions?ruleset=catan&metric=won&by=player&club=Kad%C4%B1k%C3%B6y");
    let games = view["games"].as_array().unwrap();
    assert_eq!((games.len(), games[0]["id"].as_str()), (1, Some(same.as_str())), "{view}");
    assert_eq!(app.get_json("/api/questions?ruleset=catan&metric=won&by=player").1["counted"].as_u64(), Some(1));
    // A model learns from the game once (the record that counts), and a club's from its own record.
    let store = almanac_store::Store::open(&app.db).unwrap();
    let ids = |club: Option<&str>| -> Vec<String> {
        let logs = almanac_service::chances::published_logs(&store, "catan", club).unwrap();
        logs.into_iter().map(|(id, _)| id).collect()
    };
    assert_eq!(ids(None), vec![first.clone()]);
    assert_eq!(ids(Some("Moda")), vec![theirs.clone()]);
}

/// A question no game answers says why (what its number needs of a game, what the question left out) and
/// draws no empty chart; one some group answers has no reason to give.
#[test]
fn a_question_no_game_answers_says_why_and_draws_no_chart() {
    let app = spawn_app(16 << 20);
    upload(&app, &sample("catan-club-game.jsonl"), true);
    let (status, answer) = app.get_json("/api/questions?ruleset=catan&metric=decision_accuracy&by=player");
    assert_eq!(status, 200, "{answer}");
    assert!(answer["groups"].as_array().unwrap().is_empty(), "no model, no accuracy: {answer}");
    let why = answer["why_empty"].as_str().unwrap();
    assert!(why.contains("almanac train") && why.contains("Catan"), "{why}");
    assert!(why.contains("Left out as asked: programs' seats"), "{why}");
    let (_, _, html) = app.get_text("/questions?ruleset=catan&metric=decision_accuracy&by=player");
    assert!(html.contains("No game answers this question yet. It is counted only"), "the page says why");
    assert!(!html.contains("/questions/chart.svg") && !html.contains("answer-table"), "no empty chart or table");
    let (_, answer) = app.get_json("/api/questions?ruleset=catan&metric=won&by=seat");
    assert!(answer["why_empty"].is_null() && !answer["groups"].as_array().unwrap().is_empty(), "{answer}");
    assert_eq!(answer["value_is"], "rate");
    let (_, _, html) = app.get_text("/questions?ruleset=catan&metric=won&by=seat");
    assert!(html.contains("/questions/chart.svg") && html.contains("answer-table"), "the chart and the table");
}
