//! One test (at least) per rule of the base game, on the beginners' board with three players.
//!
//! Hex numbers on this board (see `beginner-board.json`): 4 hills 6, 8 forest 11, 9 desert, 10 forest 3,
//! 11 mountains 8, 13 mountains 3, 14 fields 4, 17 fields 6 ...

use almanac_catan::Catan;
use almanac_core::log::Envelope;
use almanac_core::timeline::{read_events, Timeline};
use almanac_core::{Fact, Game, LogError};
use serde_json::{json, Value};

fn header(options: Value, players: &[&str]) -> String {
    let board: Value = serde_json::from_str(include_str!("beginner-board.json")).unwrap();
    json!({
        "format": "almanac/1", "ruleset": "catan", "options": options,
        "players": players.iter().map(|p| json!({"name": p})).collect::<Vec<_>>(),
        "board": board,
    })
    .to_string()
}

fn play_with(options: Value, lines: &[&str]) -> Result<Timeline<Catan>, LogError> {
    let head = header(options, &["Ana", "Bo", "Cem"]);
    let mut text = head.clone();
    for l in lines {
        text.push('\n');
        text.push_str(l);
    }
    let env = Envelope::parse(&head)?;
    read_events::<Catan>(env, &head, &text)
}

fn play(lines: &[&str]) -> Result<Timeline<Catan>, LogError> {
    play_with(json!({}), lines)
}

/// The log must be accepted; returns the final state as JSON.
fn ok(lines: &[&str]) -> Value {
    ok_with(json!({}), lines)
}

fn ok_with(options: Value, lines: &[&str]) -> Value {
    match play_with(options, lines) {
        Ok(t) => json_of(t.view_after(usize::MAX)),
        Err(e) => panic!("rejected: {e}"),
    }
}

/// The last line must be rejected (everything before it accepted) with a message containing `needle`.
fn rejected(lines: &[&str], needle: &str) -> String {
    rejected_with(json!({}), lines, needle)
}

fn rejected_with(options: Value, lines: &[&str], needle: &str) -> String {
    match play_with(options.clone(), &lines[..lines.len() - 1]) {
        Ok(_) => {}
        Err(e) => panic!("rejected too early: {e}"),
    }
    match play_with(options, lines) {
        Ok(_) => panic!("accepted, expected an error containing `{needle}`"),
        Err(e) => {
            let msg = e.to_string();
            assert_eq!(e.line(), lines.len() + 1, "wrong line in `{msg}`");
            assert!(msg.contains(needle), "`{msg}` does not contain `{needle}`");
            msg
        }
    }
}

/// A view as the API writes it.
fn json_of(view: almanac_core::AnyView) -> Value {
    serde_json::to_value(view).unwrap()
}

fn player<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()
}

fn hand(state: &Value, name: &str) -> Vec<u64> {
    let h = &player(state, name)["hand"];
    ["lumber", "brick", "wool", "grain", "ore", "unknown"].iter().map(|r| h[*r].as_u64().unwrap()).collect()
}

const SETUP: [&str; 12] = [
    r#"{"type":"build_settlement","player":"Ana","at":"4:N"}"#,
    r#"{"type":"build_road","player":"Ana","at":"4:NE"}"#,
    r#"{"type":"build_settlement","player":"Bo","at":"8:N"}"#,
    r#"{"type":"build_road","player":"Bo","at":"8:NE"}"#,
    r#"{"type":"build_settlement","player":"Cem","at":"11:S"}"#,
    r#"{"type":"build_road","player":"Cem","at":"11:SE"}"#,
    r#"{"type":"build_settlement","player":"Cem","at":"17:N"}"#,
    r#"{"type":"build_road","player":"Cem","at":"17:NE"}"#,
    r#"{"type":"build_settlement","player":"Bo","at":"14:N"}"#,
    r#"{"type":"build_road","player":"Bo","at":"14:NW"}"#,
    r#"{"type":"build_settlement","player":"Ana","at":"10:N"}"#,
    r#"{"type":"build_road","player":"Ana","at":"10:NW"}"#,
];

fn with(prefix: &[&str], more: &[&'static str]) -> Vec<String> {
    prefix.iter().map(|s| s.to_string()).chain(more.iter().map(|s| s.to_string())).collect()
}

fn lines(v: &[String]) -> Vec<&str> {
    v.iter().map(|s| s.as_str()).collect()
}

// Ana rolls 3: forest 3 (hex 10) pays Ana and Bo lumber, mountains 3 (hex 13) pays Cem ore.
const ROLL3: &str = r#"{"type":"roll","player":"Ana","dice":[1,2]}"#;

#[test]
fn setup_goes_in_snake_order_and_the_second_settlement_pays() {
    let s = ok(&SETUP);
    assert_eq!(s["turn"], 1);
    assert_eq!(s["active"], "Ana");
    assert_eq!(s["phase"], "roll");
    assert_eq!(hand(&s, "Ana"), [1, 1, 1, 0, 0, 0]); // forest 3, hills 10, pasture 4
    assert_eq!(hand(&s, "Bo"), [1, 0, 0, 1, 0, 0]); // forest 3, fields 4, desert
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 2, 1, 0]); // fields 6, fields 4, mountains 3
    for p in ["Ana", "Bo", "Cem"] {
        assert_eq!(player(&s, p)["vp"], 2);
    }
}

#[test]
fn setup_out_of_order_is_rejected() {
    rejected(&[SETUP[0], SETUP[1], SETUP[4]], "it is Bo's turn to place a settlement, not Cem's");
}

#[test]
fn the_distance_rule_names_the_neighbour() {
    let msg =
        rejected(&[SETUP[0], SETUP[1], r#"{"type":"build_settlement","player":"Bo","at":"4:NE"}"#], "distance rule");
    assert!(msg.contains("holds Ana's settlement"), "{msg}");
    assert!(msg.contains("4:N"), "{msg}");
}

#[test]
fn a_setup_road_must_touch_the_new_settlement() {
    rejected(
        &[SETUP[0], r#"{"type":"build_road","player":"Ana","at":"9:E"}"#],
        "must touch the settlement just placed",
    );
}

#[test]
fn a_roll_pays_every_adjacent_settlement() {
    let s = ok(&lines(&with(&SETUP, &[ROLL3])));
    assert_eq!(hand(&s, "Ana"), [2, 1, 1, 0, 0, 0]);
    assert_eq!(hand(&s, "Bo"), [2, 0, 0, 1, 0, 0]);
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 2, 2, 0]);
    assert_eq!(s["bank"]["lumber"], 19 - 2 - 2);
}

#[test]
fn stated_production_is_cross_checked() {
    let good = r#"{"type":"roll","player":"Ana","dice":[1,2],"production":{"Ana":{"lumber":1},"Bo":{"lumber":1},"Cem":{"ore":1}}}"#;
    ok(&lines(&with(&SETUP, &[good])));
    let bad = r#"{"type":"roll","player":"Ana","dice":[1,2],"production":{"Ana":{"lumber":2},"Bo":{"lumber":1},"Cem":{"ore":1}}}"#;
    rejected(&lines(&with(&SETUP, &[bad])), "the log says Ana receives 2 lumber, but the board pays 1 lumber");
}

#[test]
fn an_event_out_of_turn_is_rejected() {
    rejected(
        &lines(&with(&SETUP, &[r#"{"type":"roll","player":"Bo","dice":[1,2]}"#])),
        "Bo acts out of turn: it is Ana's turn",
    );
}

#[test]
fn building_needs_a_roll_first() {
    rejected(&lines(&with(&SETUP, &[r#"{"type":"build_road","player":"Ana","at":"4:NW"}"#])), "must roll before");
}

#[test]
fn a_road_must_connect_and_costs_lumber_and_brick() {
    let base = with(&SETUP, &[ROLL3]);
    let s = ok(&lines(&with(&lines(&base), &[r#"{"type":"build_road","player":"Ana","at":"4:NW"}"#])));
    assert_eq!(hand(&s, "Ana"), [1, 0, 1, 0, 0, 0]);
    rejected(
        &lines(&with(&lines(&base), &[r#"{"type":"build_road","player":"Ana","at":"16:W"}"#])),
        "does not connect",
    );
    // Bo has no brick.
    let bo_turn = with(
        &lines(&base),
        &[r#"{"type":"end_turn","player":"Ana"}"#, r#"{"type":"roll","player":"Bo","dice":[5,6]}"#],
    );
    rejected(
        &lines(&with(&lines(&bo_turn), &[r#"{"type":"build_road","player":"Bo","at":"8:NW"}"#])),
        "cannot pay for a road",
    );
}

#[test]
fn a_road_cannot_go_where_a_road_stands() {
    let base = with(&SETUP, &[ROLL3]);
    let msg = rejected(
        &lines(&with(&lines(&base), &[r#"{"type":"build_road","player":"Ana","at":"4:NE"}"#])),
        "cannot build a road at",
    );
    assert!(msg.contains("Ana already has a road there"), "{msg}");
}

#[test]
fn a_road_cannot_go_through_an_opponents_settlement() {
    // Ana (4:N) builds 4:NW and 4:W up to Bo's settlement at 4:SW (= 8:N), but not past it along 4:SW.
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[1, 2], [1, 2], [1, 2]]));
    l.push(r#"{"type":"roll","player":"Ana","dice":[3,3]}"#.into());
    l.push(r#"{"type":"build_road","player":"Ana","at":"4:NW"}"#.into());
    l.push(r#"{"type":"build_road","player":"Ana","at":"4:W"}"#.into());
    let s = ok(&lines(&l));
    assert_eq!(player(&s, "Ana")["pieces_left"]["roads"], 11);
    // 4:SW is Bo's road; 8:NW leaves Bo's settlement the other way.
    l.push(r#"{"type":"build_road","player":"Ana","at":"8:NW"}"#.into());
    rejected(&lines(&l), "does not connect to Ana's roads");
}

/// After setup, Ana rolls 7 (nobody over 7 cards), moves the robber to forest 3 and steals from Bo; Bo rolls 3.
fn robber_on_forest_three() -> Vec<String> {
    with(
        &SETUP,
        &[
            r#"{"type":"roll","player":"Ana","dice":[3,4]}"#,
            r#"{"type":"move_robber","player":"Ana","hex":10,"victim":"Bo","stolen":"grain"}"#,
            r#"{"type":"end_turn","player":"Ana"}"#,
            r#"{"type":"roll","player":"Bo","dice":[1,2]}"#,
        ],
    )
}

#[test]
fn the_robber_blocks_production_on_its_hex() {
    let base = robber_on_forest_three();
    let s = ok(&lines(&base));
    assert_eq!(hand(&s, "Ana"), [1, 1, 1, 1, 0, 0]); // the stolen grain, no lumber
    assert_eq!(hand(&s, "Bo"), [1, 0, 0, 0, 0, 0]);
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 2, 2, 0]); // mountains 3 still pays
}

#[test]
fn the_robber_must_move_and_steals_only_from_adjacent_players() {
    let seven = with(&SETUP, &[r#"{"type":"roll","player":"Ana","dice":[3,4]}"#]);
    let then = |line: &'static str| with(&lines(&seven), &[line]);
    let refused = |line, needle| rejected(&lines(&then(line)), needle);
    refused(r#"{"type":"move_robber","player":"Ana","hex":9}"#, "must move to another hex");
    refused(
        r#"{"type":"move_robber","player":"Ana","hex":11,"victim":"Bo","stolen":"grain"}"#,
        "Bo has no settlement or city on hex 11",
    );
    refused(r#"{"type":"move_robber","player":"Ana","hex":11}"#, "must steal from Cem");
    refused(r#"{"type":"move_robber","player":"Ana","hex":11,"victim":"Cem","stolen":"wool"}"#, "steals wool from Cem");
    refused(r#"{"type":"end_turn","player":"Ana"}"#, "must move the robber now");
}

#[test]
fn a_steal_out_of_sight_leaves_an_unknown_card() {
    let s = ok(&lines(&with(
        &SETUP,
        &[
            r#"{"type":"roll","player":"Ana","dice":[3,4]}"#,
            r#"{"type":"move_robber","player":"Ana","hex":11,"victim":"Cem","stolen":"unknown"}"#,
        ],
    )));
    assert_eq!(hand(&s, "Ana"), [1, 1, 1, 0, 0, 1]);
    // Cem had grain 2, ore 1: now 2 cards, surely at least 1 grain.
    assert_eq!(player(&s, "Cem")["cards_in_hand"], 2);
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 1, 0, 1]);
}

#[test]
fn a_seven_makes_big_hands_discard_half() {
    // discard_limit 2: Cem (3 cards) discards 1; Ana (3 cards) discards 1; Bo (2) nothing.
    let opts = json!({"discard_limit": 2});
    let seven = with(&SETUP, &[r#"{"type":"roll","player":"Ana","dice":[3,4]}"#]);
    let l = |extra: &[&'static str]| with(&lines(&seven), extra);
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"move_robber","player":"Ana","hex":11,"victim":"Cem","stolen":"ore"}"#])),
        "must discard first",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"discard","player":"Bo","cards":{"grain":1}}"#])),
        "Bo has nothing to discard",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"discard","player":"Cem","cards":{"grain":2}}"#])),
        "must discard 1 (half, rounded down), not 2",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"discard","player":"Cem","cards":{"wool":1}}"#])),
        "cannot discard 1 wool",
    );
    let s = ok_with(
        opts,
        &lines(&l(&[
            r#"{"type":"discard","player":"Cem","cards":{"grain":1}}"#,
            r#"{"type":"discard","player":"Ana","cards":{"wool":1}}"#,
            r#"{"type":"move_robber","player":"Ana","hex":11,"victim":"Cem","stolen":"ore"}"#,
        ])),
    );
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 1, 0, 0]);
    assert_eq!(hand(&s, "Ana"), [1, 1, 0, 0, 1, 0]);
}

#[test]
fn a_discard_may_be_paid_one_card_at_a_time() {
    // After two rolls of 3, Cem's 7 (limit 2) makes Ana (5 cards) owe 2, Bo (4) 2 and Cem (5) 2. catanatron's
    // newest records write each card of a discard as its own event: every part is checked against what is
    // still owed, and the robber waits for the last.
    let opts = json!({"discard_limit": 2});
    let seven = with(
        &SETUP,
        &[
            ROLL3,
            r#"{"type":"end_turn","player":"Ana"}"#,
            r#"{"type":"roll","player":"Bo","dice":[1,2]}"#,
            r#"{"type":"end_turn","player":"Bo"}"#,
            r#"{"type":"roll","player":"Cem","dice":[3,4]}"#,
            r#"{"type":"discard","player":"Bo","cards":{"lumber":2}}"#,
            r#"{"type":"discard","player":"Cem","cards":{"ore":1}}"#,
            r#"{"type":"discard","player":"Cem","cards":{"grain":1}}"#,
        ],
    );
    let l = |extra: &[&'static str]| with(&lines(&seven), extra);
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"discard","player":"Ana","cards":{}}"#])),
        "Ana's discard names no card; 2 still owed",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[r#"{"type":"discard","player":"Ana","cards":{"lumber":3}}"#])),
        "Ana holds 5 cards and must discard 2 (half, rounded down), not 3",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[
            r#"{"type":"discard","player":"Ana","cards":{"lumber":1}}"#,
            r#"{"type":"discard","player":"Ana","cards":{"lumber":2}}"#,
        ])),
        "Ana holds 4 cards and has 1 left to discard of the half owed after the 7, not 2",
    );
    rejected_with(
        opts.clone(),
        &lines(&l(&[
            r#"{"type":"discard","player":"Ana","cards":{"lumber":1}}"#,
            r#"{"type":"move_robber","player":"Cem","hex":11}"#,
        ])),
        "must discard first",
    );
    let s = ok_with(
        opts,
        &lines(&l(&[
            r#"{"type":"discard","player":"Ana","cards":{"lumber":1}}"#,
            r#"{"type":"discard","player":"Ana","cards":{"brick":1}}"#,
        ])),
    );
    assert_eq!(hand(&s, "Ana"), [2, 0, 1, 0, 0, 0]);
    assert_eq!(hand(&s, "Cem"), [0, 0, 0, 1, 2, 0]);
    assert_eq!(s["phase"], "move_robber");
}

#[test]
fn trades_are_with_the_active_player_and_never_gifts_or_like_for_like() {
    let base = with(&SETUP, &[ROLL3]);
    let l = |extra: &[&'static str]| with(&lines(&base), extra);
    let s = ok(&lines(&l(&[r#"{"type":"trade","player":"Ana","with":"Cem","give":{"wool":1},"get":{"ore":1}}"#])));
    assert_eq!(hand(&s, "Ana"), [2, 1, 0, 0, 1, 0]);
    assert_eq!(hand(&s, "Cem"), [0, 0, 1, 2, 1, 0]);
    rejected(
        &lines(&l(&[r#"{"type":"trade","player":"Bo","with":"Cem","give":{"lumber":1},"get":{"ore":1}}"#])),
        "only trade with the player whose turn it is",
    );
    rejected(
        &lines(&l(&[r#"{"type":"trade","player":"Ana","with":"Cem","give":{"wool":1},"get":{}}"#])),
        "gifts are not allowed",
    );
    rejected(
        &lines(&l(&[r#"{"type":"trade","player":"Ana","with":"Cem","give":{"lumber":2},"get":{"lumber":1}}"#])),
        "like for like",
    );
    rejected(
        &lines(&l(&[r#"{"type":"trade","player":"Ana","with":"Cem","give":{"ore":1},"get":{"grain":1}}"#])),
        "Ana cannot give 1 ore",
    );
}

#[test]
fn maritime_trade_at_four_to_one_and_at_a_harbour_only_with_a_settlement_there() {
    // Cem collects 4 ore... simpler: Ana trades 4:1 after enough lumber. Give her lumber with two rolls of 3.
    let base = with(
        &SETUP,
        &[
            ROLL3,
            r#"{"type":"end_turn","player":"Ana"}"#,
            r#"{"type":"roll","player":"Bo","dice":[1,2]}"#,
            r#"{"type":"end_turn","player":"Bo"}"#,
            r#"{"type":"roll","player":"Cem","dice":[1,2]}"#,
            r#"{"type":"end_turn","player":"Cem"}"#,
            r#"{"type":"roll","player":"Ana","dice":[1,2]}"#,
        ],
    );
    let l = |extra: &[&'static str]| with(&lines(&base), extra);
    let s = ok(&lines(&l(&[r#"{"type":"maritime_trade","player":"Ana","give":{"lumber":4},"get":{"grain":1}}"#])));
    assert_eq!(hand(&s, "Ana"), [1, 1, 1, 1, 0, 0]); // five lumber from four rolls of 3, four traded
    rejected(
        &lines(&l(&[r#"{"type":"maritime_trade","player":"Ana","give":{"lumber":3},"get":{"grain":1}}"#])),
        "not a multiple of any rate",
    );
    rejected(
        &lines(&l(&[r#"{"type":"maritime_trade","player":"Ana","give":{"lumber":4},"get":{"grain":2}}"#])),
        "buys 1 card(s), not 2",
    );
}

#[test]
fn combined_trade_and_build_can_be_turned_off() {
    let base = with(&SETUP, &[ROLL3, r#"{"type":"build_road","player":"Ana","at":"4:NW"}"#]);
    let trade = r#"{"type":"trade","player":"Ana","with":"Cem","give":{"wool":1},"get":{"ore":1}}"#;
    ok(&lines(&with(&lines(&base), &[trade])));
    rejected_with(
        json!({"combined_trade_build": false}),
        &lines(&with(&lines(&base), &[trade])),
        "trades after building",
    );
}

#[test]
fn unknown_event_types_and_players_are_named() {
    rejected(&lines(&with(&SETUP, &[r#"{"type":"fly","player":"Ana"}"#])), "unknown event type `fly`");
    rejected(&lines(&with(&SETUP, &[r#"{"type":"roll","player":"Zed","dice":[1,2]}"#])), "no player named `Zed`");
    rejected(&lines(&with(&SETUP, &[r#"{"type":"roll","player":"Ana"}"#])), "roll needs `dice`");
    rejected(&lines(&with(&SETUP, &[r#"{"type":"roll","player":"Ana","dice":[0,7]}"#])), "not two numbers from 1 to 6");
}

/// Plays many rounds of "roll, end turn" to give everyone cards (dice chosen per turn).
fn rounds(dice: &[[u8; 2]]) -> Vec<String> {
    let names = ["Ana", "Bo", "Cem"];
    let mut out = Vec::new();
    for (i, d) in dice.iter().enumerate() {
        let p = names[i % 3];
        out.push(format!(r#"{{"type":"roll","player":"{p}","dice":[{},{}]}}"#, d[0], d[1]));
        out.push(format!(r#"{{"type":"end_turn","player":"{p}"}}"#));
    }
    out
}

#[test]
fn development_cards_one_per_turn_never_the_turn_they_were_bought() {
    // Cem earns wool with 5s (pasture 5 next to 11:S), grain and ore with 6s, 4s and 3s.
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[2, 3], [2, 3], [2, 3], [3, 3], [2, 2], [1, 2]]));
    // Turn 7 is Ana's; go round to Cem (turn 9).
    l.extend(rounds(&[[2, 3], [2, 3]]));
    let cem = |extra: &[&str]| {
        let mut v = l.clone();
        v.push(r#"{"type":"roll","player":"Cem","dice":[2,3]}"#.to_string());
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let buy = r#"{"type":"buy_development","player":"Cem","card":"knight"}"#;
    let s = ok(&lines(&cem(&[buy])));
    assert_eq!(player(&s, "Cem")["development"]["held"]["knight"], 1);
    assert_eq!(s["development_deck"], 24);
    rejected(&lines(&cem(&[buy, r#"{"type":"play_knight","player":"Cem"}"#])), "cannot play a knight bought this turn");
    // The same card may be played at once when new_cards_wait_a_turn is off (catanatron).
    ok_with(
        json!({"new_cards_wait_a_turn": false}),
        &lines(&cem(&[
            buy,
            r#"{"type":"play_knight","player":"Cem"}"#,
            r#"{"type":"move_robber","player":"Cem","hex":4,"victim":"Ana","stolen":"brick"}"#,
        ])),
    );
    rejected(&lines(&cem(&[r#"{"type":"play_knight","player":"Cem"}"#])), "has no knight card to play");
}

#[test]
fn a_knight_may_be_played_before_the_roll_but_only_one_card_per_turn() {
    // Cem rolls 5 (pasture 5) for wool and buys a knight with wool, grain and ore.
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[1, 2], [1, 2]]));
    l.push(r#"{"type":"roll","player":"Cem","dice":[2,3]}"#.into());
    l.push(r#"{"type":"buy_development","player":"Cem","card":"knight"}"#.into());
    l.push(r#"{"type":"end_turn","player":"Cem"}"#.into());
    l.extend(rounds(&[[1, 2], [1, 2]]));
    l.push(r#"{"type":"play_knight","player":"Cem"}"#.into());
    l.push(r#"{"type":"roll","player":"Cem","dice":[1,2]}"#.into());
    rejected(&lines(&l), "Cem must move the robber now");
    l.pop();
    l.push(r#"{"type":"move_robber","player":"Cem","hex":4,"victim":"Ana","stolen":"brick"}"#.into());
    l.push(r#"{"type":"roll","player":"Cem","dice":[1,2]}"#.into());
    let s = ok(&lines(&l));
    assert_eq!(player(&s, "Cem")["knights"], 1);
    assert_eq!(s["robber"], 4);
    l.push(r#"{"type":"play_knight","player":"Cem"}"#.into());
    rejected(&lines(&l), "already played a development card this turn");
}

#[test]
fn the_game_is_won_only_at_the_target_and_nothing_follows() {
    // vp_target 3: Ana builds a third settlement... needs a road of two first; use a target of 3 and a city.
    let opts = json!({"vp_target": 3});
    // Cem gets grain and ore: 6 (fields 6), 4 (fields 4), 3 and 8 (mountains).
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[3, 3], [2, 2], [4, 4]]));
    l.push(r#"{"type":"roll","player":"Ana","dice":[4,4]}"#.into());
    l.push(r#"{"type":"end_turn","player":"Ana"}"#.into());
    l.push(r#"{"type":"roll","player":"Bo","dice":[4,4]}"#.into());
    l.push(r#"{"type":"end_turn","player":"Bo"}"#.into());
    l.push(r#"{"type":"roll","player":"Cem","dice":[1,2]}"#.into());
    let s = ok_with(opts.clone(), &lines(&l));
    let h = hand(&s, "Cem");
    assert!(h[3] >= 2 && h[4] >= 3, "Cem's hand {h:?}");
    l.push(r#"{"type":"build_city","player":"Cem","at":"17:N"}"#.into());
    let s = ok_with(opts.clone(), &lines(&l));
    assert_eq!(s["winner"], "Cem");
    assert_eq!(player(&s, "Cem")["vp"], 3);
    l.push(r#"{"type":"end_turn","player":"Cem"}"#.into());
    rejected_with(opts, &lines(&l), "the game is over: Cem won");
}

#[test]
fn a_city_replaces_your_own_settlement() {
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[3, 3], [2, 2], [4, 4], [4, 4], [4, 4]]));
    l.push(r#"{"type":"roll","player":"Cem","dice":[1,2]}"#.into());
    let mut bad = l.clone();
    bad.push(r#"{"type":"build_city","player":"Cem","at":"14:N"}"#.into());
    rejected(&lines(&bad), "holds Bo's settlement");
    let mut empty = l.clone();
    empty.push(r#"{"type":"build_city","player":"Cem","at":"9:S"}"#.into());
    rejected(&lines(&empty), "is empty");
}

#[test]
fn facts_say_who_gained_what_and_why() {
    let t = play(&lines(&with(&SETUP, &[ROLL3]))).unwrap();
    let last = t.event_count() - 1;
    let facts = t.event_facts(last);
    assert!(facts.contains(&Fact::Rolled { player: 0, dice: almanac_core::Dice::new(&[1, 2]) }));
    assert!(facts.contains(&Fact::Gained {
        player: 2,
        item: "ore",
        count: 1,
        cause: almanac_core::cause::PRODUCTION,
        from: None
    }));
    // Setup facts: the second settlement's resources have cause Setup.
    let setup_facts: Vec<&Fact> = (0..12).flat_map(|i| t.event_facts(i)).collect();
    assert!(setup_facts
        .iter()
        .any(|f| matches!(f, Fact::Gained { player: 2, item: "grain", cause: almanac_core::cause::SETUP, .. })));
}

#[test]
fn state_at_any_event_matches_a_fresh_replay_to_that_point() {
    let mut l: Vec<String> = SETUP.iter().map(|s| s.to_string()).collect();
    l.extend(rounds(&[[3, 3], [2, 2], [4, 4], [1, 2], [5, 6], [2, 3], [6, 6], [1, 1], [4, 5]]));
    let whole = play(&lines(&l)).unwrap();
    for n in 0..=l.len() {
        let fresh = play(&lines(&l[..n])).unwrap();
        assert_eq!(json_of(whole.view_after(n)), json_of(fresh.view_after(usize::MAX)), "after {n} events");
    }
}

/// What each roll promised, per event: `(seat, thousandths)` said by that event.
fn promised(t: &Timeline<Catan>, event: usize) -> Vec<(u8, u32)> {
    t.event_facts(event)
        .iter()
        .filter_map(|f| match f {
            Fact::Promised { player, thousandths } => Some((*player, *thousandths)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_roll_promises_what_the_dice_and_the_board_give_and_the_robber_takes_its_share() {
    let base = robber_on_forest_three();
    let t = play(&lines(&base)).unwrap();
    let first = promised(&t, 12);
    assert_eq!(first.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0, 1, 2], "every player's first promise");
    // The robber on forest 3 takes from Ana and Bo one lumber on a 3, which comes 2 times in 36: from then on
    // each is promised 2/36 of a card less a roll, and Cem, with nothing there, hears nothing new.
    let later = promised(&t, 15);
    assert_eq!(later.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0, 1]);
    for (seat, now) in later {
        let before = first[seat as usize].1;
        assert!((55..=56).contains(&(before - now)), "seat {seat}: {before} then {now}");
    }
}
