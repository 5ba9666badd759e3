//! Clubs own their games, and an open server keeps its limits: tokens, private games, foreign origins,
//! content types, limits and headers, against the real server on a free port.

mod support;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::Duration;
use support::{new_club, sample, spawn_app, spawn_app_with, TestApp};

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// Uploads with a token (the test club's when `None`), private unless the query publishes.
fn upload_as(app: &TestApp, token: &str, query: &str, body: &str) -> (u16, Value) {
    let r =
        app.send("POST", &format!("/api/games{query}"), Some(body.as_bytes()), &[("authorization", &bearer(token))]);
    (r.status, r.json())
}

/// Every way to read a game, by id.
fn readings(id: &str) -> Vec<String> {
    ["", "/events", "/state", "/stats", "/charts/vp.svg", "/log"]
        .iter()
        .map(|p| format!("/api/games/{id}{p}"))
        .chain([format!("/games/{id}")])
        .collect()
}

fn listed(app: &TestApp, token: Option<&str>) -> Vec<String> {
    let r = match token {
        Some(t) => app.get_as("/api/games", t),
        None => app.send("GET", "/api/games", None, &[]),
    };
    r.json()["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_clubs_private_game_is_its_own_until_published_and_only_it_changes_it() {
    let app = spawn_app(16 << 20);
    let other = new_club(&app.db, "Other club");
    let text = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let partial = lines[..41].join("\n");

    // No token, or a wrong one: 401, nothing stored.
    let r = app.send("POST", "/api/games", Some(partial.as_bytes()), &[]);
    assert_eq!(r.status, 401, "{}", r.body);
    assert!(r.body.contains("token"), "{}", r.body);
    assert_eq!(upload_as(&app, "alm_wrong", "", &partial).0, 401);
    assert!(listed(&app, Some(&app.token)).is_empty());

    let (status, body) = upload_as(&app, &app.token, "", &partial);
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();

    // Private: every reading answers 404 to the public and to another club, and 200 to its club.
    for path in readings(&id) {
        assert_eq!(app.send("GET", &path, None, &[]).status, 404, "{path} for the public");
        assert_eq!(app.get_as(&path, &other).status, 404, "{path} for another club");
        assert_eq!(app.get_as(&path, &app.token).status, 200, "{path} for its club");
    }
    let prefix = &id[..5];
    assert_eq!(app.send("GET", &format!("/api/games/{prefix}"), None, &[]).status, 404, "not by prefix either");
    assert!(listed(&app, None).is_empty() && listed(&app, Some(&other)).is_empty());
    assert_eq!(listed(&app, Some(&app.token)), std::slice::from_ref(&id));
    let index = app.send("GET", "/", None, &[]).body;
    assert!(!index.contains(&id) && !index.contains("Ayşe"), "the front page shows nothing of it");
    // A wrong bearer token on a read is refused outright, so a program hears its token is wrong.
    assert_eq!(app.get_as(&format!("/api/games/{id}"), "alm_wrong").status, 401);

    // Appends: only the owning club's token.
    let append = |token: Option<&str>, expected: u64, from: usize| {
        let events: Vec<Value> = lines[from..from + 2].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let body = json!({"expected_seq": expected, "events": events}).to_string();
        let auth = token.map(bearer);
        let mut headers = vec![("content-type", "application/json")];
        if let Some(a) = &auth {
            headers.push(("authorization", a));
        }
        app.send("POST", &format!("/api/games/{id}/events"), Some(body.as_bytes()), &headers)
    };
    assert_eq!(append(None, 40, 41).status, 401);
    assert_eq!(append(Some(&other), 40, 41).status, 404, "another club does not even see it");
    assert_eq!(append(Some(&app.token), 40, 41).status, 200);

    // Published: anyone reads it; still only its club writes.
    let publish = |token: &str, published: bool| {
        let body = json!({ "published": published }).to_string();
        let headers = [("authorization", bearer(token)), ("content-type", "application/json".to_string())];
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        app.send("POST", &format!("/api/games/{id}/publish"), Some(body.as_bytes()), &headers)
    };
    assert_eq!(publish(&other, true).status, 404);
    assert_eq!(publish(&app.token, true).status, 200);
    for path in readings(&id) {
        assert_eq!(app.send("GET", &path, None, &[]).status, 200, "{path} once published");
    }
    assert_eq!(listed(&app, None), std::slice::from_ref(&id));
    let r = append(Some(&other), 42, 43);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("belongs to another club"), "{}", r.body);
    let delete =
        |token: &str| app.send("DELETE", &format!("/api/games/{id}"), None, &[("authorization", &bearer(token))]);
    assert_eq!(delete(&other).status, 403);

    // Deleted by its club: gone from every view, its own included; the events stay in the store.
    assert_eq!(delete(&app.token).status, 200);
    for path in readings(&id) {
        assert_eq!(app.send("GET", &path, None, &[]).status, 404, "{path} once deleted");
        assert_eq!(app.get_as(&path, &app.token).status, 404, "{path} once deleted, for its club");
    }
    assert!(listed(&app, None).is_empty() && listed(&app, Some(&app.token)).is_empty());
    let store = almanac_store::Store::open(&app.db).unwrap();
    assert_eq!(store.events(&store.stored(&id).unwrap(), 1, u64::MAX).unwrap().len(), 42, "the events stay stored");
    // Another club uploading the same log stores its own record of it and hears nothing of this one (no id of
    // it, no "taken"); this club's upload shows its game again.
    let (status, theirs) = upload_as(&app, &other, "", &partial);
    assert_eq!(status, 201, "{theirs}");
    assert!(!theirs.to_string().contains(&id[..8]), "the answer names no id of the other club's: {theirs}");
    let (status, again) = upload_as(&app, &other, "", &partial);
    assert_eq!((status, again["id"].clone()), (200, theirs["id"].clone()), "its own record, once");
    let (status, again) = upload_as(&app, &app.token, "", &partial);
    assert_eq!((status, again["existing"].as_bool()), (200, Some(true)), "{again}");
    assert_eq!(app.send("GET", &format!("/api/games/{id}"), None, &[]).status, 200);
}

/// A table begun by one club with another club's private table's answers (the same players, board, title,
/// date and place) is answered without naming the other club's game.
#[test]
fn a_table_begun_with_another_clubs_answers_names_none_of_its_games() {
    let app = spawn_app(16 << 20);
    let other = new_club(&app.db, "Moda");
    let start = json!({"ruleset": "catan", "beginning": "beginner", "seed": 0, "players": ["Ayşe", "Mehmet", "Can"],
                       "title": "Table 3", "date": "2026-12-02", "location": "Kadıköy"});
    let (status, mine) = app.post_json("/api/tables", &start);
    assert!(status == 201, "{mine}");
    let id = mine["id"].as_str().unwrap();
    let theirs = app.send(
        "POST",
        "/api/tables",
        Some(start.to_string().as_bytes()),
        &[("authorization", &bearer(&other)), ("content-type", "application/json")],
    );
    // Every game begun at a table is a game of its own (its header's `table`): theirs is a new one.
    assert_eq!(theirs.status, 201, "{}", theirs.body);
    assert!(!theirs.body.contains(&id[..8]), "{} {}", theirs.status, theirs.body);
    for header in &theirs.headers {
        assert!(!header.1.contains(&id[..8]), "{header:?}");
    }
}

#[test]
fn a_private_games_players_are_no_players_to_anyone_else() {
    let app = spawn_app(16 << 20);
    let other = new_club(&app.db, "Other club");
    let text = sample("catan-club-game.jsonl");
    let secret = text.replace("Zeynep", "SecretZeynepB");
    let (status, body) = upload_as(&app, &app.token, "", &secret);
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_str().unwrap().to_string();
    let (status, public) = upload_as(&app, &app.token, "", &text);
    assert_eq!(status, 201, "{public}");
    let public = public["id"].as_str().unwrap().to_string();
    let published = json!({ "published": true }).to_string();
    let headers = [("authorization", bearer(&app.token)), ("content-type", "application/json".to_string())];
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = app.send("POST", &format!("/api/games/{public}/publish"), Some(published.as_bytes()), &headers);
    assert_eq!(r.status, 200, "{}", r.body);
    let player_of = |game: &str, seat: usize| {
        app.get_as(&format!("/api/games/{game}"), &app.token).json()["players"][seat]["player"].as_i64().unwrap()
    };
    let (hidden, seen) = (player_of(&id, 2), player_of(&public, 0));
    // Every way to read a player, for the player of the private game only and a never-used id: the same 404,
    // but for the id, and no name.
    let ways = |p: i64| {
        [
            format!("/api/players/{p}"),
            format!("/players/{p}"),
            format!("/api/players/{p}/ratings.svg"),
            format!("/api/players/{p}/curve.svg?ruleset=catan"),
            format!("/api/players/{p}/vs/{seen}"),
            format!("/players/{p}/vs/{seen}"),
            format!("/api/players/{seen}/vs/{p}"),
            format!("/api/players/{p}/vs/{seen}/chart.svg?ruleset=catan"),
        ]
    };
    let never = 7_777_777_777_i64;
    for (path, unused) in ways(hidden).iter().zip(ways(never)) {
        let expected = app.send("GET", &unused, None, &[]);
        assert_eq!(expected.status, 404, "{unused}: {}", expected.body);
        for reply in [app.send("GET", path, None, &[]), app.get_as(path, &other)] {
            assert_eq!(reply.status, 404, "{path}: {}", reply.body);
            assert!(!reply.body.contains("Secret"), "{path}: {}", reply.body);
            assert_eq!(reply.body.replace(&hidden.to_string(), "N"), expected.body.replace(&never.to_string(), "N"));
        }
    }
    let mine = app.get_as(&format!("/api/players/{hidden}"), &app.token);
    assert_eq!((mine.status, mine.json()["player"]["name"].as_str()), (200, Some("SecretZeynepB")), "its club sees it");
    // The probe of the report: ids counted from 1 find no player at all, and no name anywhere.
    for n in 1..=200 {
        let r = app.send("GET", &format!("/api/players/{n}"), None, &[]);
        assert_eq!(r.status, 404, "player {n}: {}", r.body);
    }
    let board = app.send("GET", "/api/leaderboard?ruleset=catan", None, &[]).body;
    let answers = app.send("GET", "/api/questions?metric=won&by=player", None, &[]).body;
    for text in [board, answers] {
        assert!(!text.contains("Secret") && text.contains("Zeynep"), "{text}");
    }
}

#[test]
fn writes_from_another_site_or_of_another_content_type_are_refused() {
    let app = spawn_app(16 << 20);
    let text = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let (_, body) = upload_as(&app, &app.token, "", &lines[..21].join("\n"));
    let id = body["id"].as_str().unwrap().to_string();
    let events = format!("{{\"expected_seq\": 20, \"events\": [{}]}}", lines[21]);
    let auth = bearer(&app.token);
    let host = app.address.trim_start_matches("http://").to_string();
    let path = format!("/api/games/{id}/events");
    let post = |headers: &[(&str, &str)]| app.send("POST", &path, Some(events.as_bytes()), headers);

    // The issue's reproduction: a page elsewhere posting text/plain (no CORS preflight), even with a token.
    let r = post(&[("origin", "http://elsewhere"), ("content-type", "text/plain"), ("authorization", &auth)]);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("another site"), "{}", r.body);
    assert!(r.header("content-security-policy").is_some(), "a refused write carries the headers too");
    assert_eq!(post(&[("origin", "null"), ("content-type", "application/json"), ("authorization", &auth)]).status, 403);
    let cross = [("sec-fetch-site", "cross-site"), ("content-type", "application/json"), ("authorization", &auth)];
    assert_eq!(post(&cross).status, 403);
    // A browser's cookie alone, without an Origin, may not write either.
    let cookie = format!("almanac_token={}", app.token);
    assert_eq!(post(&[("cookie", &cookie), ("content-type", "application/json")]).status, 403);
    // From this site, but not JSON: 415.
    let own = format!("http://{host}");
    let r = post(&[("origin", &own), ("content-type", "text/plain"), ("authorization", &auth)]);
    assert_eq!(r.status, 415, "{}", r.body);
    assert_eq!(post(&[("authorization", &auth)]).status, 415, "a JSON endpoint needs its type said");
    let form = [("content-type", "application/x-www-form-urlencoded"), ("authorization", auth.as_str())];
    let r = app.send("POST", "/api/games", Some(text.as_bytes()), &form);
    assert_eq!(r.status, 415, "an upload is a file, never a form: {}", r.body);
    assert_eq!(app.get_as(&format!("/api/games/{id}"), &app.token).json()["events"], 20, "nothing appended");
    // The same append from this site, as JSON, with a token, or with the cookie and the Origin: accepted.
    let r = post(&[("origin", &own), ("content-type", "application/json; charset=utf-8"), ("cookie", &cookie)]);
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn every_response_carries_the_security_headers() {
    let app = spawn_app(16 << 20);
    for path in ["/", "/api/games", "/static/style.css", "/games/nope", "/api/games/nope", "/signin"] {
        let r = app.send("GET", path, None, &[]);
        let csp = r.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(csp.contains("script-src 'self'") && !csp.contains("'unsafe-inline'"), "{csp}");
        // WebAssembly may be compiled (the recorder's rules), JavaScript never evaluated from text.
        assert!(csp.contains("'wasm-unsafe-eval'") && !csp.contains(" 'unsafe-eval'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("same-origin"), "{path}");
        // No page carries an inline script for the policy to block.
        assert!(!r.body.contains("<script>") && !r.body.contains("onclick="), "{path}");
    }
    let r = app.send("GET", "/games/nope", None, &[]);
    assert_eq!(r.status, 404);
    assert!(r.body.contains("<html lang=\"en\">") && r.body.contains("/static/style.css"), "a styled 404: {}", r.body);
}

#[test]
fn numeric_parameters_clamp_or_give_400_and_events_come_in_pages() {
    let limits = almanac_server::Limits { events_per_page: 100, ..Default::default() };
    let app = spawn_app_with(16 << 20, limits);
    let (_, body) = upload_as(&app, &app.token, "?publish=true", &sample("catan-club-game.jsonl"));
    let id = body["id"].as_str().unwrap().to_string();
    let get = |q: &str| app.send("GET", &format!("/api/games/{id}{q}"), None, &[]);
    let r = get("/events?to=9223372036854775808");
    assert_eq!(r.status, 200, "{}", r.body);
    let page = r.json();
    assert_eq!(page["events"].as_array().unwrap().len(), 100, "one page");
    assert_eq!((page["next"].as_u64(), page["count"].as_u64()), (Some(101), Some(553)));
    let r = get("/events?from=18446744073709551615");
    assert_eq!((r.status, r.json()["events"].as_array().unwrap().len()), (200, 0));
    let last = get("/events?from=501&limit=1000").json();
    assert_eq!((last["events"].as_array().unwrap().len(), last["next"].as_u64()), (53, None));
    let ten = get("/events?from=5&to=14&limit=0").json();
    assert_eq!(ten["events"].as_array().unwrap().len(), 1, "a limit of 0 is one event");
    for bad in ["/events?to=-1", "/events?from=x", "/state?turn=99999999999", "/state?seq=-3"] {
        let r = get(bad);
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert!(r.json()["error"].is_string());
    }
    assert_eq!(app.send("GET", "/api/games?limit=99999999999", None, &[]).status, 400);
    assert_eq!(app.send("GET", "/api/games?offset=4294967295&limit=4294967295", None, &[]).status, 200);
    let past = get("/state?seq=99999");
    assert_eq!((past.status, past.json()["seq"].as_u64()), (200, Some(553)), "past the end clamps to it");
}

#[test]
fn fields_larger_than_any_real_game_are_refused_with_413_and_nothing_stored() {
    let app = spawn_app(16 << 20);
    let text = sample("catan-club-game.jsonl");
    let long_title = text.replacen("Thursday league, table 2", &"x".repeat(300), 1);
    let (status, err) = upload_as(&app, &app.token, "", &long_title);
    assert_eq!(status, 413, "{err}");
    assert_eq!(err["line"], 1);
    assert!(err["error"].as_str().unwrap().contains("`title` has 300 characters; at most 200"), "{err}");
    let long_name = text.replace("Ayşe", &"A".repeat(65));
    assert_eq!(upload_as(&app, &app.token, "", &long_name).0, 413);
    assert!(listed(&app, Some(&app.token)).is_empty());
}

#[test]
fn a_nul_character_is_refused_with_400_naming_its_line_on_either_backend() {
    let app = spawn_app(16 << 20);
    let text = sample("catan-club-game.jsonl");
    let nul = "\\u0000";
    let in_a_name = text.replacen("Ayşe", &format!("Ay{nul}şe"), 1);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[4] = lines[4].replacen('}', &format!(",\"note\":\"a{nul}\"}}"), 1);
    let in_an_event = lines.join("\n");
    for (log, line) in [(in_a_name, 1), (in_an_event, 5)] {
        let (status, err) = upload_as(&app, &app.token, "", &log);
        assert_eq!((status, err["line"].as_u64()), (400, Some(line)), "{err}");
        assert!(err["error"].as_str().unwrap().contains("NUL character"), "{err}");
    }
    assert!(listed(&app, Some(&app.token)).is_empty(), "nothing stored");
    let (status, stored) = upload_as(&app, &app.token, "", &text);
    assert_eq!(status, 201, "{stored}");
    let id = stored["id"].as_str().unwrap();
    let note = json!({"seq": 3, "text": "a\u{0}b"}).to_string();
    let headers = [("authorization", bearer(&app.token)), ("content-type", "application/json".to_string())];
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = app.send("POST", &format!("/api/games/{id}/notes"), Some(note.as_bytes()), &headers);
    assert_eq!(r.status, 400, "{}", r.body);
    for path in ["/api/games?q=%00", "/api/games?player=%00", "/?q=%00", "/api/questions?metric=won&club=%00"] {
        let r = app.get_as(path, &app.token);
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        assert!(r.body.contains("NUL"), "{path}: {}", r.body);
    }
}

fn status_of(stream: &mut std::net::TcpStream) -> u16 {
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut buf = [0u8; 512];
    let n = stream.read(&mut buf).unwrap();
    let head = String::from_utf8_lossy(&buf[..n]);
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status in {head}"))
}

#[test]
fn a_slow_body_times_out_and_uploads_beyond_the_slots_wait_then_get_503() {
    let limits = almanac_server::Limits {
        body_timeout: Duration::from_secs(1),
        concurrent_uploads: 1,
        slot_wait: Duration::from_millis(300),
        ..Default::default()
    };
    let app = spawn_app_with(16 << 20, limits);
    let mut slow = stalled(&app, "POST", "/api/games", &format!("Authorization: Bearer {}\r\n", app.token));
    // While the slow upload holds the only slot, another waits for it, then hears 503 with Retry-After.
    std::thread::sleep(Duration::from_millis(100));
    let r = app.send(
        "POST",
        "/api/games",
        Some(sample("catan-club-game.jsonl").as_bytes()),
        &[("authorization", &bearer(&app.token))],
    );
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    // The slow one is cut off after the body timeout: 408.
    assert_eq!(status_of(&mut slow), 408);
    // And the slot is free again.
    assert_eq!(upload_as(&app, &app.token, "", &sample("catan-club-game.jsonl")).0, 201);
}

/// A raw request whose head is sent whole and whose body stops after 10 of the bytes it promised.
fn stalled(app: &TestApp, method: &str, path: &str, headers: &str) -> std::net::TcpStream {
    let host = app.address.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(stream, "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Length: 1000\r\n\r\n0123456789")
        .unwrap();
    stream
}

#[test]
fn no_stranger_and_no_one_club_blocks_the_uploads_of_the_others() {
    let limits = almanac_server::Limits {
        body_timeout: Duration::from_secs(2),
        concurrent_uploads: 3,
        uploads_per_club: 1,
        slot_wait: Duration::from_millis(300),
        ..Default::default()
    };
    let app = spawn_app_with(16 << 20, limits);
    let other = new_club(&app.db, "Other club");
    let text = sample("catan-club-game.jsonl");
    // Strangers' stalled bodies are refused before a slot is taken or the body read.
    let junk = "Cookie: almanac_token=junk\r\nContent-Type: multipart/form-data; boundary=x\r\n";
    let mut strangers: Vec<_> = (0..8).map(|_| stalled(&app, "POST", "/upload", junk)).collect();
    let bearer_junk = "Authorization: Bearer alm_junk\r\n";
    strangers.extend((0..8).map(|_| stalled(&app, "POST", "/api/games", bearer_junk)));
    for s in &mut strangers {
        assert_eq!(status_of(s), 401);
    }
    // One club's stalled upload holds its one slot: its next upload waits, then hears 503 ...
    let mut slow = stalled(&app, "POST", "/api/games", &format!("Authorization: Bearer {}\r\n", app.token));
    std::thread::sleep(Duration::from_millis(100));
    let r = app.send("POST", "/api/games", Some(text.as_bytes()), &[("authorization", &bearer(&app.token))]);
    assert_eq!(r.status, 503, "{}", r.body);
    // ... while another club's upload goes through at once.
    assert_eq!(upload_as(&app, &other, "", &text).0, 201);
    assert_eq!(status_of(&mut slow), 408);
}

#[test]
fn every_body_is_read_within_its_time_and_idle_connections_are_closed() {
    let limits = almanac_server::Limits {
        body_timeout: Duration::from_secs(1),
        keep_alive: Duration::from_secs(1),
        first_request: Duration::from_secs(1),
        ..Default::default()
    };
    let app = spawn_app_with(16 << 20, limits);
    let (_, stored) = upload_as(&app, &app.token, "", &sample("catan-club-game.jsonl"));
    let id = stored["id"].as_str().unwrap();
    let json = format!("Authorization: Bearer {}\r\nContent-Type: application/json\r\n", app.token);
    let host = app.address.trim_start_matches("http://");
    let form = format!(
        "Cookie: almanac_token={}\r\nOrigin: http://{host}\r\nContent-Type: application/x-www-form-urlencoded\r\n",
        app.token
    );
    let posts = [
        (format!("/api/games/{id}/notes"), json.clone()),
        (format!("/api/games/{id}/publish"), json.clone()),
        ("/api/players/1/merge".to_string(), json.clone()),
        ("/signin".to_string(), form.clone()),
        ("/signout".to_string(), form.clone()),
        (format!("/games/{id}/publish"), form.clone()),
        (format!("/games/{id}/delete"), form),
    ];
    for (path, headers) in posts {
        let mut s = stalled(&app, "POST", &path, &headers);
        assert_eq!(status_of(&mut s), 408, "{path}");
    }
    // A connection that never sends a request, and one idle after its first: each is closed (read ends).
    let silent = std::net::TcpStream::connect(host).unwrap();
    let mut idle = std::net::TcpStream::connect(host).unwrap();
    write!(idle, "GET /api/games HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    for mut stream in [silent, idle] {
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut all = Vec::new();
        stream.read_to_end(&mut all).expect("the server closes the connection");
    }
}

#[test]
fn a_bearer_scheme_in_any_case_is_a_token_and_another_scheme_is_none() {
    let app = spawn_app(16 << 20);
    let (_, stored) = upload_as(&app, &app.token, "", &sample("catan-club-game.jsonl"));
    let path = format!("/api/games/{}", stored["id"].as_str().unwrap());
    for scheme in ["BEARER", "bearer", "Bearer", "bEaReR"] {
        let auth = format!("{scheme} {}", app.token);
        assert_eq!(app.send("GET", &path, None, &[("authorization", &auth)]).status, 200, "{scheme}");
    }
    // A proxy's Basic credentials are no token of ours: public pages read as the public's.
    let basic = [("authorization", "Basic dXNlcjpwYXNz")];
    assert_eq!(app.send("GET", "/api/games", None, &basic).status, 200);
    assert_eq!(app.send("GET", "/", None, &basic).status, 200);
    assert_eq!(app.send("GET", &path, None, &basic).status, 404, "the private game stays private");
}

#[test]
fn an_unknown_rulesets_script_is_a_404_page_with_the_name_escaped() {
    let app = spawn_app(16 << 20);
    let r = app.send("GET", "/static/rulesets/%3Cscript%3Ealert(1)%3C%2Fscript%3E.js", None, &[]);
    assert_eq!(r.status, 404);
    assert!(r.header("content-type").is_some_and(|t| t.starts_with("text/html")), "{:?}", r.header("content-type"));
    assert!(!r.body.contains("<script>alert"), "{}", r.body);
    assert!(r.body.contains("&lt;script&gt;alert(1)"), "{}", r.body);
}

#[test]
fn writes_beyond_the_rate_limit_get_429_with_retry_after() {
    let limits = almanac_server::Limits { writes_per_minute: 3, ..Default::default() };
    let app = spawn_app_with(16 << 20, limits);
    let text = sample("catan-cards-two-players.jsonl");
    for _ in 0..3 {
        assert!(matches!(upload_as(&app, &app.token, "", &text).0, 200 | 201));
    }
    let r = app.send("POST", "/api/games", Some(text.as_bytes()), &[("authorization", &bearer(&app.token))]);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.header("retry-after").and_then(|s| s.parse::<u64>().ok()).is_some_and(|s| s >= 1));
    // Reads are not limited.
    assert_eq!(app.send("GET", "/api/games", None, &[]).status, 200);
}

#[test]
fn signing_in_sets_a_strict_cookie_and_every_form_needs_its_proof() {
    let app = spawn_app(16 << 20);
    let origin = app.address.clone();
    let form = app.send("GET", "/signin", None, &[]);
    let proof_cookie = form.header("set-cookie").unwrap().split(';').next().unwrap().to_string();
    let proof = proof_cookie.split_once('=').unwrap().1.to_string();
    assert!(form.body.contains(&format!("value=\"{proof}\"")), "the form carries the proof of its cookie");
    let sign_in = |token: &str, proof: &str, cookie: &str| {
        let body = format!("token={token}&proof={proof}");
        let headers =
            [("content-type", "application/x-www-form-urlencoded"), ("origin", origin.as_str()), ("cookie", cookie)];
        app.send("POST", "/signin", Some(body.as_bytes()), &headers)
    };
    assert_eq!(sign_in(&app.token, "forged", &proof_cookie).status, 403);
    assert_eq!(sign_in("alm_wrong", &proof, &proof_cookie).status, 401);
    let r = sign_in(&app.token, &proof, &proof_cookie);
    assert_eq!(r.status, 303, "{}", r.body);
    let session = r
        .headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone())
        .find(|v| v.starts_with("almanac_token="))
        .expect("the session cookie");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Strict"), "{session}");
    assert!(!session.contains("Secure"), "plain HTTP here: {session}");
    let behind_tls = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("origin", origin.as_str()),
        ("cookie", proof_cookie.as_str()),
        ("x-forwarded-proto", "https"),
    ];
    let body = format!("token={}&proof={proof}", app.token);
    let r = app.send("POST", "/signin", Some(body.as_bytes()), &behind_tls);
    assert!(r
        .headers
        .iter()
        .any(|(k, v)| k == "set-cookie" && v.starts_with("almanac_token=") && v.contains("; Secure")));
    let cookie = session.split(';').next().unwrap().to_string();
    // Signed in: the page names the club and offers the upload form.
    let index = app.send("GET", "/", None, &[("cookie", &cookie)]).body;
    assert!(index.contains("Signed in: <b>Test club</b>") && index.contains("id=\"upload\""), "{index}");
    // A form of a signed-in page with a forged proof is refused.
    let (_, body) = upload_as(&app, &app.token, "", &sample("catan-cards-two-players.jsonl"));
    let id = body["id"].as_str().unwrap();
    let headers =
        [("content-type", "application/x-www-form-urlencoded"), ("origin", origin.as_str()), ("cookie", &cookie)];
    let r = app.send("POST", &format!("/games/{id}/publish"), Some(b"proof=forged&published=yes"), &headers);
    assert_eq!(r.status, 403);
    assert_eq!(app.send("GET", &format!("/games/{id}"), None, &[]).status, 404, "still private");
}

/// A browser's `multipart/form-data` body of the upload form.
fn upload_form(proof: &str, file_name: &str, file: &str) -> (String, Vec<u8>) {
    let boundary = "----almanacTestBoundary7MA4YWxk";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"proof\"\r\n\r\n{proof}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n{file}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"format\"\r\n\r\nauto\r\n--{boundary}--\r\n"
    );
    (format!("multipart/form-data; boundary={boundary}"), body.into_bytes())
}

#[test]
fn without_scripts_the_upload_form_posts_and_answers_with_a_page() {
    let app = spawn_app(16 << 20);
    let cookie = format!("almanac_token={}", app.token);
    let index = app.send("GET", "/", None, &[("cookie", &cookie)]).body;
    let form = index.split("<form id=\"upload\"").nth(1).expect("the upload form");
    assert!(form.starts_with(" method=\"post\" action=\"/upload\" enctype=\"multipart/form-data\""), "{form}");
    let proof = form.split("name=\"proof\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let origin = app.address.clone();
    let post = |file_name: &str, file: &str, cookie: &str| {
        let (content_type, body) = upload_form(&proof, file_name, file);
        let headers = [("content-type", content_type.as_str()), ("cookie", cookie), ("origin", origin.as_str())];
        app.send("POST", "/upload", Some(&body), &headers)
    };
    let text = sample("catan-club-game.jsonl");
    let r = post("club.jsonl", &text, &cookie);
    assert_eq!(r.status, 303, "{}", r.body);
    let location = r.header("location").unwrap().to_string();
    assert!(location.starts_with("/games/") && !location.contains('?'), "{location}");
    let again = post("club.jsonl", &text, &cookie);
    assert_eq!(again.header("location"), Some(format!("{location}?stored=before").as_str()));
    let page = app.send("GET", &format!("{location}?stored=before"), None, &[("cookie", &cookie)]).body;
    assert!(page.contains("This log was already stored"), "the game says it was there before");
    // A rejected file: a page naming the file and its line; nothing stored.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[19] = r#"{"type":"roll","player":"Ayşe","dice":[3,4]}"#;
    let r = post("bad.jsonl", &lines.join("\n"), &cookie);
    assert_eq!(r.status, 422);
    assert!(
        r.body.contains("Nothing was stored. bad.jsonl:20: ") && r.body.contains("<html lang=\"en\">"),
        "{}",
        r.body
    );
    assert_eq!(listed(&app, Some(&app.token)).len(), 1);
    // Not signed in, or a forged proof: refused, nothing stored.
    assert_eq!(post("club2.jsonl", &sample("catan-helpers.jsonl"), "").status, 401);
    let (content_type, body) = upload_form("forged", "x.jsonl", &sample("catan-helpers.jsonl"));
    let r = app.send(
        "POST",
        "/upload",
        Some(&body),
        &[("content-type", &content_type), ("cookie", &cookie), ("origin", &origin)],
    );
    assert_eq!(r.status, 403);
    assert_eq!(listed(&app, Some(&app.token)).len(), 1);
}

#[test]
fn deleting_asks_first_and_the_club_can_undo_it_with_the_notes_kept() {
    let app = spawn_app(16 << 20);
    let (status, stored) = upload_as(&app, &app.token, "", &sample("catan-cards-two-players.jsonl"));
    assert_eq!(status, 201, "{stored}");
    let id = stored["id"].as_str().unwrap().to_string();
    let json_headers = [("authorization", bearer(&app.token)), ("content-type", "application/json".to_string())];
    let json_headers: Vec<(&str, &str)> = json_headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let note = json!({"seq": 3, "text": "the trade that decided it"}).to_string();
    assert_eq!(app.send("POST", &format!("/api/games/{id}/notes"), Some(note.as_bytes()), &json_headers).status, 201);
    let cookie = format!("almanac_token={}", app.token);
    let origin = app.address.clone();
    let proof_of =
        |page: &str| page.split("name=\"proof\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let replay = app.send("GET", &format!("/games/{id}"), None, &[("cookie", &cookie)]).body;
    assert!(
        replay.contains(&format!("action=\"/games/{id}/delete\"")) && replay.contains("method=\"get\""),
        "the button asks"
    );
    // Asking deletes nothing.
    let ask = app.send("GET", &format!("/games/{id}/delete"), None, &[("cookie", &cookie)]);
    assert_eq!(ask.status, 200, "{}", ask.body);
    assert!(ask.body.contains("Delete this upload?") && ask.body.contains("Keep it"), "{}", ask.body);
    assert_eq!(app.get_as(&format!("/api/games/{id}"), &app.token).status, 200, "still there after asking");
    let form = |proof: &str| format!("proof={proof}");
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("origin", origin.as_str()),
        ("cookie", cookie.as_str()),
    ];
    let deleted =
        app.send("POST", &format!("/games/{id}/delete"), Some(form(&proof_of(&ask.body)).as_bytes()), &headers);
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert!(
        deleted.body.contains("Undo") && deleted.body.contains(&format!("action=\"/games/{id}/restore\"")),
        "{}",
        deleted.body
    );
    assert_eq!(app.get_as(&format!("/api/games/{id}"), &app.token).status, 404, "hidden from its own club too");
    // The club's deleted games list it; a stranger cannot bring it back.
    let list = app.send("GET", "/deleted", None, &[("cookie", &cookie)]);
    assert!(list.body.contains(&format!("/games/{id}/restore")), "{}", list.body);
    let other = new_club(&app.db, "Other club");
    let their_cookie = format!("almanac_token={other}");
    let their_proof = proof_of(&app.send("GET", "/deleted", None, &[("cookie", &their_cookie)]).body);
    let theirs = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("origin", origin.as_str()),
        ("cookie", their_cookie.as_str()),
    ];
    let stranger = app.send("POST", &format!("/games/{id}/restore"), Some(form(&their_proof).as_bytes()), &theirs);
    assert_eq!(stranger.status, 404, "{}", stranger.body);
    assert_eq!(app.get_as(&format!("/api/games/{id}"), &app.token).status, 404, "still deleted");
    // Undo: the game is back, with its note.
    let undone =
        app.send("POST", &format!("/games/{id}/restore"), Some(form(&proof_of(&deleted.body)).as_bytes()), &headers);
    assert_eq!(
        (undone.status, undone.header("location")),
        (303, Some(format!("/games/{id}").as_str())),
        "{}",
        undone.body
    );
    assert_eq!(app.get_as(&format!("/api/games/{id}"), &app.token).status, 200, "restored");
    let notes = app.get_as(&format!("/api/games/{id}/notes"), &app.token).body;
    assert!(notes.contains("the trade that decided it"), "{notes}");
}

/// A second game begun at the table with the very header of the first (the same board, players, title,
/// date and place) is a new game, not the first opened again.
#[test]
fn a_second_game_begun_alike_is_a_new_game() {
    let app = spawn_app(16 << 20);
    let begin = json!({"ruleset": "catan", "beginning": "beginner", "players": ["Ayşe", "Mehmet", "Zeynep"],
        "title": "Thursday", "date": "2026-12-03", "location": "Moda"});
    let (status, first) = app.post_json("/api/tables", &begin);
    assert_eq!(status, 201, "{first}");
    let (status, second) = app.post_json("/api/tables", &begin);
    assert_eq!(status, 201, "{second}");
    assert_ne!(first["id"], second["id"]);
    let table = |body: &Value| -> Value {
        let header: Value = serde_json::from_str(body["header"].as_str().unwrap()).unwrap();
        header["table"].clone()
    };
    assert!(table(&first).is_string(), "{first}");
    assert_ne!(table(&first), table(&second));
}
