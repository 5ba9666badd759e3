//! What the store's promise tests share, on either backend: the samples, validated logs, inserting one.

#![allow(dead_code)]

use almanac_core::{Insights, SeatMetric};
use almanac_engine::{validate, ValidatedLog};
use almanac_store::{
    Appended, Derivation, Dimension, GameFilter, Inserted, NewGame, Ownership, Question, Store, StoreError, Viewer,
};
use std::path::Path;

/// The tests every store passes (the functions below of the same names), each a `#[test]` of its own on
/// the store `$open` makes, with what must live as long as it (a directory, a scratch database). A test
/// added to this list runs on every backend.
macro_rules! every_store_test {
    (@each #[$attr:meta] $open:expr => $($test:ident),*) => {$(
        #[test]
        #[$attr]
        fn $test() {
            let (_kept, mut store) = $open;
            common::$test(&mut store);
        }
    )*};
    (#[$attr:meta] $open:expr) => {
        common::every_store_test!(@each #[$attr] $open =>
            players_are_one_identity_per_name_and_count_only_published_games,
            a_player_is_seen_only_through_games_the_viewer_may_see,
            notes_are_kept_in_the_order_of_the_game,
            questions_are_answered_over_the_games_the_viewer_may_see,
            games_stored_together_are_each_stored_whole_or_not_at_all,
            games_derived_again_together_are_each_derived_whole_or_not_at_all,
            one_game_counts_once_everywhere,
            a_players_field_is_their_peers_at_games_like_theirs,
            checkpoints_follow_the_log,
            withdrawals_are_stored_and_the_state_is_as_if_the_entry_was_not_made
        );
    };
    ($open:expr) => {
        common::every_store_test!(#[doc = "A test every store passes."] $open);
    };
}
pub(crate) use every_store_test;

pub fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples").join(name)).unwrap()
}

pub fn log_of(text: &str) -> ValidatedLog {
    validate(None, text).unwrap()
}

/// Stores a log as the operator's own (public).
pub fn insert(store: &mut Store, log: &ValidatedLog) -> Result<Inserted, StoreError> {
    insert_as(store, log, Ownership::OPERATOR)
}

pub fn insert_as(store: &mut Store, log: &ValidatedLog, owner: Ownership) -> Result<Inserted, StoreError> {
    insert_with(store, log, owner, &Insights::default())
}

pub fn insert_with(
    store: &mut Store,
    log: &ValidatedLog,
    owner: Ownership,
    insights: &Insights,
) -> Result<Inserted, StoreError> {
    let new = NewGame {
        game: log.game.as_ref(),
        header_line: log.header_line(),
        event_lines: &log.event_lines(),
        content_hash: &log.content_hash(),
        facts: &log.game.fact_rows(0),
        insights,
        ahead: None,
    };
    store.insert_game(&new, owner)
}

/// Derives game `id` again from `log`, with `insights` as its read model (`Store::reproject`).
pub fn rederive(store: &mut Store, id: &str, log: &ValidatedLog, insights: &Insights) -> Result<(), StoreError> {
    let facts = log.game.fact_rows(0);
    store.reproject(&Derivation { id, game: log.game.as_ref(), facts: &facts, insights })
}

/// A question's groups.
fn answer(store: &Store, q: &Question) -> Vec<almanac_store::AnswerRow> {
    store.ask(q, 0).unwrap().rows
}

/// How many games a question counted, and the latest `limit` of them.
fn counted(store: &Store, q: &Question, limit: u32) -> (u64, Vec<almanac_store::CountedGame>) {
    let asked = store.ask(q, limit).unwrap();
    (asked.counted, asked.games)
}

/// Every game, as the operator lists them.
pub fn everything() -> GameFilter {
    GameFilter { viewer: Viewer::Operator, ..Default::default() }
}

/// The promises about players across games, on either backend: one identity per name (in any case) among
/// one club's games, every seat linked to it, merges of spellings, and only published games counted.
pub fn players_are_one_identity_per_name_and_count_only_published_games(store: &mut Store) {
    let truth = sample("catan-club-game.jsonl");
    let a = insert(store, &log_of(&truth)).unwrap().id().to_string();
    let b = insert(store, &log_of(&sample("catan-club-game-observer.jsonl"))).unwrap().id().to_string();
    let ayse = |g: &str, store: &Store| {
        store.game(&store.stored(g).unwrap()).unwrap().players[0].player.expect("a seat names its player")
    };
    assert_eq!(ayse(&a, store), ayse(&b, store), "one Ayşe across the two games");
    let lower = insert(store, &log_of(&truth.replace("Ayşe", "ayşe"))).unwrap().id().to_string();
    assert_eq!(ayse(&lower, store), ayse(&a, store), "names match in any case");
    let id = ayse(&a, store);
    let me = store.identity(&store.visible_player(Viewer::Operator, id).unwrap()).unwrap();
    assert_eq!((me.name.as_str(), me.club.as_deref()), ("Ayşe", None));
    // The observer's log and the copy with a name in another case are game `a` again: one game, counted once.
    let sat = store.sittings(&store.visible_player(Viewer::Operator, id).unwrap()).unwrap();
    assert_eq!(sat.iter().map(|s| s.game.as_str()).collect::<Vec<_>>(), [a.as_str()]);
    assert!(sat.iter().all(|s| s.seats.len() == 4 && s.seats[0].player == id));
    // A spelling merged in: its games count for the player, and its identity answers as the player.
    let memet = insert(store, &log_of(&truth.replace("Mehmet", "Memet"))).unwrap().id().to_string();
    let mehmet = store.game(&store.stored(&a).unwrap()).unwrap().players[1].player.unwrap();
    let other = store.game(&store.stored(&memet).unwrap()).unwrap().players[1].player.unwrap();
    assert_ne!(mehmet, other);
    assert_eq!(store.sittings(&store.visible_player(Viewer::Operator, mehmet).unwrap()).unwrap().len(), 1);
    assert_eq!(store.merge_players(None, mehmet, other).unwrap(), mehmet);
    assert_eq!(store.sittings(&store.visible_player(Viewer::Operator, mehmet).unwrap()).unwrap().len(), 2);
    let merged = store.identity(&store.visible_player(Viewer::Operator, other).unwrap()).unwrap();
    assert_eq!((merged.id, merged.spellings), (mehmet, vec!["Mehmet".to_string(), "Memet".to_string()]));
    assert_eq!(
        store.game(&store.stored(&memet).unwrap()).unwrap().players[1].player,
        Some(mehmet),
        "the seat names the merged player"
    );
    assert!(matches!(store.merge_players(None, other, mehmet), Err(StoreError::Invalid(_))), "one player already");
    let zeynep = store.game(&store.stored(&a).unwrap()).unwrap().players[2].player.unwrap();
    assert!(
        matches!(store.merge_players(None, id, zeynep), Err(StoreError::Invalid(m)) if m.contains("sat at one table")),
        "two players of one game are two people"
    );
    assert_eq!(store.player_merges().unwrap(), vec![(None, "Mehmet".to_string(), "Memet".to_string())]);
    // Ratings read every game of a ruleset that counts in the order played, then stored (these share a date),
    // one game once: each seat's player after merges and final score, as the games' rows say.
    let rated = |store: &Store| store.rated_games("catan").unwrap();
    let games: Vec<String> = rated(store).into_iter().map(|g| g.game).collect();
    assert_eq!(games, [a.clone(), memet.clone()], "b and {lower} are a");
    for g in rated(store) {
        let row = store.game(&store.stored(&g.game).unwrap()).unwrap();
        let seats: Vec<(i64, Option<i64>)> = row.players.iter().map(|p| (p.player.unwrap(), p.vp)).collect();
        assert_eq!(g.seats, seats, "{}", g.game);
    }
    assert_eq!(rated(store)[1].seats[1].0, mehmet, "the merged spelling rates as the player");
    // A club's names are its own; its private games count nowhere until published, deleted ones never.
    let club = store.create_club("Kadıköy").unwrap().id;
    let private =
        insert_as(store, &log_of(&truth.replace("Zeynep", "Zeyno")), Ownership { club: Some(club), published: false })
            .unwrap()
            .id()
            .to_string();
    let theirs = store.game(&store.stored(&private).unwrap()).unwrap().players[0].player.unwrap();
    assert_ne!(theirs, id, "the club's Ayşe is not the operator's");
    assert_eq!(store.player_named(Some(club), "AYŞE").unwrap(), Some(theirs));
    assert!(
        store.sittings(&store.visible_player(Viewer::Operator, theirs).unwrap()).unwrap().is_empty(),
        "a private game counts nowhere"
    );
    assert!(matches!(store.merge_players(Some(club), id, mehmet), Err(StoreError::PlayerNotYours(_))));
    assert_eq!(rated(store).len(), 2, "a private game is rated nowhere");
    store.set_published(club, &private, true).unwrap();
    assert_eq!(store.sittings(&store.visible_player(Viewer::Operator, theirs).unwrap()).unwrap().len(), 1);
    assert_eq!(rated(store).len(), 3);
    store.delete_game(club, &private).unwrap();
    assert!(
        matches!(store.visible_player(Viewer::Operator, theirs), Err(StoreError::NoPlayer(_))),
        "a player of a deleted game only is no player"
    );
    assert_eq!(rated(store).len(), 2, "nor is a deleted one rated");
    assert!(matches!(store.visible_player(Viewer::Operator, 9_999_999), Err(StoreError::NoPlayer(_))));
}

/// A player is seen only through games the viewer may see, on either backend: a player of another club's
/// private games is no player (as an id never used), a spelling of private games only names nobody, and
/// ids do not count the players.
pub fn a_player_is_seen_only_through_games_the_viewer_may_see(store: &mut Store) {
    let truth = sample("catan-club-game.jsonl");
    let (a, b) = (store.create_club("A").unwrap().id, store.create_club("B").unwrap().id);
    let public = insert_as(store, &log_of(&truth), Ownership { club: Some(b), published: true }).unwrap();
    let secret = truth.replace("Zeynep", "SecretZeynepB");
    let private = insert_as(store, &log_of(&secret), Ownership::private_to(b)).unwrap();
    let seat = |store: &Store, game: &str, k: usize| {
        store.game(&store.stored(game).unwrap()).unwrap().players[k].player.unwrap()
    };
    let (zeynep, hidden) = (seat(store, public.id(), 2), seat(store, private.id(), 2));
    for viewer in [Viewer::Public, Viewer::Club(a)] {
        let refused = store.visible_player(viewer, hidden);
        assert!(matches!(refused, Err(StoreError::NoPlayer(id)) if id == hidden), "{viewer:?}: {refused:?}");
    }
    for viewer in [Viewer::Club(b), Viewer::Operator] {
        let seen = store.visible_player(viewer, hidden).unwrap();
        assert_eq!(store.identity(&seen).unwrap().name, "SecretZeynepB", "{viewer:?}");
    }
    // The club merges its two spellings, the private one as the identity: anyone else still sees only the
    // published spelling, on the page and in the answers grouped by player.
    assert_eq!(store.merge_players(Some(b), hidden, zeynep).unwrap(), hidden);
    let seen = store.visible_player(Viewer::Public, zeynep).unwrap();
    let named = store.identity(&seen).unwrap();
    assert_eq!((named.id, named.name.as_str(), named.spellings), (hidden, "Zeynep", vec!["Zeynep".to_string()]));
    let theirs = store.identity(&store.visible_player(Viewer::Club(b), zeynep).unwrap()).unwrap();
    assert_eq!(theirs.spellings, ["SecretZeynepB", "Zeynep"], "the club sees both of its spellings");
    let labels: Vec<String> = store
        .ask(&Question::over(Viewer::Public, "won", Dimension::Player), 0)
        .unwrap()
        .rows
        .into_iter()
        .map(|r| r.label)
        .collect();
    assert!(labels.iter().all(|l| !l.contains("Secret")), "{labels:?}");
    // Ids are random, not counted from 1: none is below 2^32, and every id is a JSON-safe integer.
    let ids: Vec<i64> = (0..4).map(|k| seat(store, public.id(), k)).collect();
    assert!(ids.iter().all(|&id| (1 << 32..1 << 53).contains(&id)), "{ids:?}");
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert!(sorted.windows(2).any(|w| w[1] - w[0] > 1000), "not consecutive: {ids:?}");
}

/// Notes on a game, on either backend: kept as written, in the order of the game.
pub fn notes_are_kept_in_the_order_of_the_game(store: &mut Store) {
    let club = store.create_club("Coaches").unwrap().id;
    let game =
        insert_as(store, &log_of(&sample("catan-club-game.jsonl")), Ownership { club: Some(club), published: true })
            .unwrap()
            .id()
            .to_string();
    store.add_note(&store.stored(&game).unwrap(), 40, club, "later").unwrap();
    store.add_note(&store.stored(&game).unwrap(), 3, club, "sooner").unwrap();
    let notes = store.notes(&store.stored(&game).unwrap()).unwrap();
    let words: Vec<(u64, &str, &str)> = notes.iter().map(|n| (n.seq, n.club.as_str(), n.text.as_str())).collect();
    assert_eq!(words, vec![(3, "Coaches", "sooner"), (40, "Coaches", "later")]);
}

/// A read model whose seat `s` has `won` = 1 for the winner's seat and `score` = `scores[s]`.
pub fn won_by(winner: u32, scores: [f64; 4], opening: &str) -> Insights {
    let mut metrics = Vec::new();
    for seat in 0..4u32 {
        let won = (seat == winner) as u8 as f64;
        metrics.push(SeatMetric { seat, metric: "won", arg: String::new(), value: won });
        metrics.push(SeatMetric { seat, metric: "score", arg: String::new(), value: scores[seat as usize] });
    }
    metrics.push(SeatMetric { seat: 0, metric: "trades_with", arg: "seat:1".into(), value: 2.0 });
    metrics.push(SeatMetric { seat: 0, metric: "trades_with", arg: "bank".into(), value: 1.0 });
    Insights {
        metrics,
        openings: vec![Some(opening.to_string()), None, None, None],
        chances_model: None,
        decisions: Vec::new(),
    }
}

/// Every seat of a game finished by seat 0, each with its score.
fn scored(scores: &[f64]) -> Insights {
    let mut metrics = Vec::new();
    for (seat, &score) in scores.iter().enumerate() {
        let seat = seat as u32;
        metrics.push(SeatMetric { seat, metric: "won", arg: String::new(), value: (seat == 0) as u8 as f64 });
        metrics.push(SeatMetric { seat, metric: "score", arg: String::new(), value: score });
    }
    Insights { metrics, openings: vec![None; scores.len()], chances_model: None, decisions: Vec::new() }
}

/// A player's field, on either backend: their peers at games like theirs (the same ruleset, table size and
/// edition), the kinds weighted as the player's own seats are; games of other table sizes or editions left out.
pub fn a_players_field_is_their_peers_at_games_like_theirs(store: &mut Store) {
    let names = |text: &str, to: [&str; 6]| -> String {
        let from = ["Ayşe", "Mehmet", "Zeynep", "Can", "Elif", "Burak"];
        from.iter().zip(to).fold(text.to_string(), |t, (a, b)| t.replace(&format!("\"{a}\""), &format!("\"{b}\"")))
    };
    let others = ["Deniz", "Emre", "Selin", "Tolga", "Umut", "Yusuf"];
    let public = Ownership::OPERATOR;
    let four = sample("catan-club-game.jsonl");
    let ayse = insert_with(store, &log_of(&four), public, &scored(&[10.0, 7.0, 5.0, 4.0])).unwrap().id().to_string();
    insert_with(store, &log_of(&names(&four, others)), public, &scored(&[2.0; 4])).unwrap();
    // Games unlike hers: six players, and four with the Helpers.
    let six = sample("catan-six-players.jsonl");
    insert_with(store, &log_of(&names(&six, others)), public, &scored(&[100.0; 6])).unwrap();
    let helpers = sample("catan-helpers.jsonl");
    insert_with(store, &log_of(&names(&helpers, others)), public, &scored(&[50.0; 4])).unwrap();
    store.read_seats().unwrap();
    let me = store.game(&store.stored(&ayse).unwrap()).unwrap().players[0].player.unwrap();
    let profile =
        |store: &Store| store.player_profile(&store.visible_player(Viewer::Public, me).unwrap(), &[], "won").unwrap();
    let score =
        |p: &almanac_store::PlayerProfile| p.numbers.iter().find(|n| n.metric == "score").unwrap().field.unwrap();
    let like = |players: u16, edition: &str, seats: u64, games: u64, mine: u64| almanac_store::LikeField {
        players,
        edition: edition.to_string(),
        seats,
        games,
        mine,
    };
    let p = profile(store);
    assert!((score(&p) - (10.0 + 7.0 + 5.0 + 4.0 + 8.0) / 8.0).abs() < 1e-9, "{:?}", p.numbers);
    assert_eq!(p.fields.len(), 1);
    assert_eq!((p.fields[0].seats, p.fields[0].games), (8, 2));
    assert_eq!(p.fields[0].like, [like(4, "Catan", 8, 2, 1)]);
    // She plays six too: the field is the mean of both kinds' means, one seat of hers at each.
    insert_with(store, &log_of(&six), public, &scored(&[12.0, 100.0, 100.0, 100.0, 100.0, 100.0])).unwrap();
    store.read_seats().unwrap();
    let p = profile(store);
    let (mean4, mean6) = ((10.0 + 7.0 + 5.0 + 4.0 + 8.0) / 8.0, (12.0 + 1100.0) / 12.0);
    assert!((score(&p) - (mean4 + mean6) / 2.0).abs() < 1e-9, "{:?}", p.numbers);
    assert_eq!(p.fields[0].like, [like(4, "Catan", 8, 2, 1), like(6, "Catan 5–6 players", 12, 2, 1)]);
}

/// The read model of questions across games, on either backend: stored with the game, grouped by any
/// dimension, only the viewer's games counted, replaced by `reproject`.
pub fn questions_are_answered_over_the_games_the_viewer_may_see(store: &mut Store) {
    let club = store.create_club("Coaches").unwrap().id;
    let truth = sample("catan-club-game.jsonl");
    let public = Ownership::OPERATOR;
    let private = Ownership { club: Some(club), published: false };
    let a = insert_with(store, &log_of(&truth), public, &won_by(0, [10.0, 7.0, 5.0, 4.0], "x + y")).unwrap();
    let b_log = log_of(&truth.replace("Zeynep", "Zerrin"));
    insert_with(store, &b_log, public, &won_by(1, [6.0, 10.0, 5.0, 4.0], "x + y")).unwrap();
    let c = insert_with(store, &log_of(&truth.replace("Can", "Cem")), private, &won_by(2, [1.0, 2.0, 10.0, 3.0], "z"))
        .unwrap();
    let ask = |viewer, by, group: Option<&str>| Question {
        group: group.map(str::to_string),
        ..Question::over(viewer, "won", by)
    };
    let mut by_seat = answer(store, &ask(Viewer::Public, Dimension::Seat, None));
    by_seat.sort_by(|x, y| x.key.cmp(&y.key));
    let seats: Vec<(&str, &str, u64, u64, f64)> =
        by_seat.iter().map(|r| (r.key.as_str(), r.label.as_str(), r.seats, r.games, r.mean)).collect();
    // The club's private game (won by seat 3) is not the public's.
    assert_eq!(
        seats,
        vec![
            ("1", "seat 1", 2, 2, 0.5),
            ("2", "seat 2", 2, 2, 0.5),
            ("3", "seat 3", 2, 2, 0.0),
            ("4", "seat 4", 2, 2, 0.0)
        ]
    );
    let club_sees = answer(store, &ask(Viewer::Club(club), Dimension::Seat, Some("3")));
    assert_eq!((club_sees[0].seats, club_sees[0].mean), (3, 1.0 / 3.0));
    // By player: Ayşe (seat 1 of both public games) won one of two; her key is her identity.
    let ayse = store.game(&store.stored(a.id()).unwrap()).unwrap().players[0].player.unwrap();
    let by_player = answer(store, &ask(Viewer::Public, Dimension::Player, None));
    let row = by_player.iter().find(|r| r.key == ayse.to_string()).unwrap();
    assert_eq!((row.label.as_str(), row.seats, row.mean), ("Ayşe", 2, 0.5));
    assert_eq!(by_player.len(), 5, "Ayşe, Mehmet, Zeynep, Zerrin, Can");
    // Opponents: each of Ayşe's seats counts once per other player at her table.
    let only_ayse = Question { player: Some(ayse), ..ask(Viewer::Public, Dimension::Opponent, None) };
    let opponents = answer(store, &only_ayse);
    assert_eq!(opponents.iter().map(|r| r.seats).sum::<u64>(), 6);
    let by_opening = answer(store, &ask(Viewer::Club(club), Dimension::Opening, None));
    let openings: std::collections::BTreeMap<&str, (u64, f64)> =
        by_opening.iter().map(|r| (r.label.as_str(), (r.seats, r.mean))).collect();
    assert_eq!(openings["x + y"], (2, 0.5));
    assert_eq!(openings["z"], (1, 0.0));
    let (count, games) = counted(store, &ask(Viewer::Public, Dimension::Seat, Some("2")), 10);
    assert_eq!((count, games.len()), (2, 2));
    let (count, _) = counted(store, &ask(Viewer::Club(club), Dimension::Seat, None), 1);
    assert_eq!(count, 3);
    // Deriving again replaces the read model, and moves the ruleset's revision (what kept ratings are checked
    // against), as publishing, deleting and merging below do.
    let ruleset = store.game(&store.stored(c.id()).unwrap()).unwrap().ruleset;
    let mut revision = store.ruleset_revision(&ruleset).unwrap();
    let mut moved = |store: &Store, what: &str| {
        let now = store.ruleset_revision(&ruleset).unwrap();
        assert!(now > revision, "{what} moves the ruleset's revision ({revision} → {now})");
        revision = now;
    };
    assert_eq!(store.ruleset_revision("no-such-game").unwrap(), 0);
    rederive(store, c.id(), &log_of(&truth.replace("Can", "Cem")), &won_by(0, [9.0; 4], "z")).unwrap();
    moved(store, "deriving a game again");
    let seat_one = answer(store, &ask(Viewer::Club(club), Dimension::Seat, Some("1")));
    assert_eq!((seat_one[0].seats, seat_one[0].mean), (3, 2.0 / 3.0));
    let scores = Question { metric: "score", ..ask(Viewer::Operator, Dimension::Ruleset, None) };
    let total = answer(store, &scores);
    assert_eq!((total.len(), total[0].seats), (1, 12));
    // A player's numbers beside the field's (published seats of the ruleset), and their trade partners.
    let won_field = |store: &Store| {
        let numbers = store
            .player_profile(&store.visible_player(Viewer::Operator, ayse).unwrap(), &["trades_with"], "")
            .unwrap()
            .numbers;
        let won = numbers.iter().find(|n| n.metric == "won").unwrap().clone();
        assert!(numbers.iter().all(|n| n.metric != "trades_with"));
        (won.mean, won.seats, won.field)
    };
    assert_eq!(won_field(store), (0.5, 2, Some(0.25)), "Ayşe won 1 of 2; 2 winners among 8 public seats");
    // Some metrics only: the same means, and no other metric.
    let some =
        store.player_numbers_of(&store.visible_player(Viewer::Operator, ayse).unwrap(), &["won", "score"]).unwrap();
    let all = store
        .player_profile(&store.visible_player(Viewer::Operator, ayse).unwrap(), &["trades_with"], "")
        .unwrap()
        .numbers;
    let of = |numbers: &[almanac_store::PlayerNumber], metric: &str| -> Vec<(String, f64, u64, Option<f64>)> {
        numbers.iter().filter(|n| n.metric == metric).map(|n| (n.arg.clone(), n.mean, n.seats, n.field)).collect()
    };
    assert!(some.iter().all(|n| n.metric == "won" || n.metric == "score"));
    assert_eq!((of(&some, "won"), of(&some, "score")), (of(&all, "won"), of(&all, "score")));
    assert!(!of(&some, "score").is_empty());
    let partners = store
        .player_profile(&store.visible_player(Viewer::Operator, ayse).unwrap(), &["trades_with"], "")
        .unwrap()
        .partners;
    let mehmet = store.game(&store.stored(a.id()).unwrap()).unwrap().players[1].player.unwrap();
    let with = |who: Option<i64>, market: Option<&str>| {
        partners.iter().find(|p| p.player == who && p.market.as_deref() == market).map(|p| p.total)
    };
    assert_eq!((with(Some(mehmet), None), with(None, Some("bank"))), (Some(4.0), Some(2.0)));
    let openings =
        store.player_profile(&store.visible_player(Viewer::Operator, ayse).unwrap(), &[], "won").unwrap().openings;
    assert_eq!(openings.len(), 1);
    assert_eq!((openings[0].opening.as_deref(), openings[0].seats, openings[0].mean), (Some("x + y"), 2, 0.5));
    // The read model follows a game published, a game deleted, and spellings merged; its version grows at each.
    let games_seen = |store: &Store| counted(store, &ask(Viewer::Public, Dimension::Seat, None), 10).0;
    let version = store.read_model_version().unwrap();
    assert!(version >= 4, "three games stored and one derived again: {version}");
    store.set_published(club, c.id(), true).unwrap();
    assert!(store.read_model_version().unwrap() > version);
    moved(store, "publishing");
    assert_eq!(games_seen(store), 3);
    assert_eq!(won_field(store).2, Some(3.0 / 12.0), "the published game joins the field");
    store.delete_game(club, c.id()).unwrap();
    moved(store, "deleting");
    assert_eq!(games_seen(store), 2);
    assert_eq!(won_field(store).2, Some(0.25), "a deleted game leaves it");
    let zeynep = store.game(&store.stored(a.id()).unwrap()).unwrap().players[2].player.unwrap();
    let zerrin = store.list_games(&everything()).unwrap().into_iter().find(|g| g.players[2].name == "Zerrin").unwrap();
    let zerrin = zerrin.players[2].player.unwrap();
    store.merge_players(None, zeynep, zerrin).unwrap();
    moved(store, "merging spellings");
    let by_player = answer(store, &ask(Viewer::Public, Dimension::Player, None));
    let row = by_player.iter().find(|r| r.key == zeynep.to_string()).unwrap();
    assert_eq!((row.label.as_str(), row.seats), ("Zeynep", 2));
    assert!(!by_player.iter().any(|r| r.label == "Zerrin"));
}

/// Games stored together (a bulk import, uploads that waited together) are each whole or not at all, as if
/// stored one by one: a game another club keeps private fails alone, the same log twice is one game, and the
/// others are stored with their read model, each owned by its own uploader.
pub fn games_stored_together_are_each_stored_whole_or_not_at_all(store: &mut Store) {
    let truth = sample("catan-club-game.jsonl");
    let other_club = store.create_club("Elsewhere").unwrap().id;
    let mine = store.create_club("Here").unwrap().id;
    let kept = log_of(&truth);
    // Kept private by another club under the log's own hash, as games were stored before a club's key named
    // the club: the operator's upload of it is refused.
    let kept_hash = kept.content_hash();
    let kept_game = NewGame {
        game: kept.game.as_ref(),
        header_line: kept.header_line(),
        event_lines: &kept.event_lines(),
        content_hash: &kept_hash,
        facts: &kept.game.fact_rows(0),
        insights: &Insights::default(),
        ahead: None,
    };
    store
        .insert_game_as(
            &almanac_store::game_id(&kept_hash),
            &kept_game,
            Ownership { club: Some(other_club), published: false },
        )
        .unwrap();
    let logs = [log_of(&truth.replace("Zeynep", "Zerrin")), kept, log_of(&truth.replace("Can", "Cem"))];
    let logs = [&logs[0], &logs[1], &logs[2], &logs[0]];
    let lines: Vec<Vec<&str>> = logs.iter().map(|l| l.event_lines()).collect();
    let hashes: Vec<String> = logs.iter().map(|l| l.content_hash()).collect();
    let facts: Vec<Vec<almanac_core::FactRow>> = logs.iter().map(|l| l.game.fact_rows(0)).collect();
    // Each game brings a number of a metric no game had before: a key made for it in the batch that is rolled
    // back must not be taken for one that exists.
    let judged = almanac_core::JudgedDecision {
        seq: 40,
        seat: 1,
        chosen: 0.21,
        best: 0.26,
        alternatives: 7,
        best_line: r#"{"type":"build_road","player":"Mehmet","at":"9:SE"}"#.into(),
        best_words: "builds a road at 9:SE".into(),
        spread: 0.012,
    };
    // A trade's partner is judged at the same event (accepting against declining).
    let partner = almanac_core::JudgedDecision {
        seat: 2,
        chosen: 0.30,
        best: 0.31,
        alternatives: 2,
        best_line: String::new(),
        best_words: "declines the trade".into(),
        spread: f64::NAN,
        ..judged.clone()
    };
    let insights = Insights {
        metrics: vec![SeatMetric { seat: 0, metric: "first_seen_here", arg: "a".into(), value: 5.0 }],
        openings: Vec::new(),
        chances_model: None,
        decisions: vec![judged.clone(), partner.clone()],
    };
    let new_game = |k: usize| NewGame {
        game: logs[k].game.as_ref(),
        header_line: logs[k].header_line(),
        event_lines: &lines[k],
        content_hash: &hashes[k],
        facts: &facts[k],
        insights: &insights,
        ahead: None,
    };
    // The first game packed ahead (as `almanac import` packs on its preparing threads), the others by the store.
    let ahead = almanac_store::Ahead::of(&new_game(0));
    let mut games: Vec<NewGame> = (0..logs.len()).map(new_game).collect();
    games[0].ahead = Some(&ahead);
    let before = store.read_model_version().unwrap();
    // Each game as its own uploader owns it: the second the operator's, the third the other club's, published.
    let owners = [Some(mine), None, Some(other_club), Some(mine)];
    let games: Vec<(NewGame, Ownership)> =
        games.into_iter().zip(owners).map(|(g, club)| (g, Ownership { club, published: true })).collect();
    let out = store.insert_games(&games).unwrap();
    assert!(matches!(out[0], Ok(Inserted::New(_))), "{:?}", out[0]);
    assert!(matches!(out[1], Err(StoreError::TakenElsewhere(_))), "{:?}", out[1]);
    assert!(matches!(out[2], Ok(Inserted::New(_))), "{:?}", out[2]);
    assert_eq!(out[3].as_ref().unwrap(), &Inserted::Existing(out[0].as_ref().unwrap().id().to_string()));
    assert!(store.read_model_version().unwrap() > before);
    let stored = store.list_games(&everything()).unwrap();
    assert_eq!(stored.len(), 3, "the other club's game and the two new ones");
    for k in [0, 2] {
        let id = out[k].as_ref().unwrap().id();
        let (header, events) = store.log(&store.stored(id).unwrap()).unwrap();
        assert_eq!((header.as_str(), events.len()), (logs[k].header_line(), 553), "stored whole");
        assert_eq!(events, lines[k], "the log as it came");
        assert_eq!(store.facts(&store.stored(id).unwrap()).unwrap(), facts[k], "its facts as they came");
        assert_eq!(store.access_of(id).unwrap().owner, owners[k]);
        // Its judged decisions with its read model (judged by no model kept: none named).
        let seen = store.visible(Viewer::Operator, id).unwrap();
        let (model, decisions) = store.judged_decisions(&seen).unwrap();
        assert_eq!((model, decisions.len()), (None, 2), "its decisions judged");
        assert_eq!(decisions[0], judged, "the mover's");
        assert_eq!((decisions[1].seat, decisions[1].seq, decisions[1].spread.is_nan()), (2, 40, true), "the partner's");
    }
    let asked = Question { arg: "a".into(), ..Question::over(Viewer::Operator, "first_seen_here", Dimension::Ruleset) };
    let rows = answer(store, &asked);
    assert_eq!(rows.iter().map(|r| (r.seats, r.mean)).collect::<Vec<_>>(), vec![(2, 5.0)], "both games' numbers");
}

/// Games derived again together are each derived whole or not at all: a game whose log does not match what is
/// stored is refused alone (`Conflict`), and the others are derived.
pub fn games_derived_again_together_are_each_derived_whole_or_not_at_all(store: &mut Store) {
    let club = log_of(&sample("catan-club-game.jsonl"));
    let six = log_of(&sample("catan-six-players.jsonl"));
    let a = insert(store, &club).unwrap().id().to_string();
    let b = insert(store, &six).unwrap().id().to_string();
    let facts_of_b = store.facts(&store.stored(&b).unwrap()).unwrap();
    let insights = won_by(1, [3.0, 10.0, 4.0, 5.0], "x");
    let club_facts = club.game.fact_rows(0);
    let out = store
        .reproject_games(&[
            Derivation { id: &a, game: club.game.as_ref(), facts: &club_facts, insights: &insights },
            Derivation { id: &b, game: club.game.as_ref(), facts: &club_facts, insights: &insights },
        ])
        .unwrap();
    assert!(out[0].is_ok(), "{:?}", out[0]);
    assert!(matches!(out[1], Err(StoreError::Conflict { .. })), "{:?}", out[1]);
    assert_eq!(store.facts(&store.stored(&a).unwrap()).unwrap().len(), club.game.fact_rows(0).len());
    assert_eq!(store.facts(&store.stored(&b).unwrap()).unwrap(), facts_of_b, "the refused game is as it was");
    let q = Question { group: Some("2".into()), ..Question::over(Viewer::Public, "won", Dimension::Seat) };
    assert_eq!(answer(store, &q)[0].mean, 1.0, "the derived game's new numbers are asked");
}

/// Two trainings of one ruleset: the newer is its model; another ruleset has none.
pub fn models_are_kept_newest_first(store: &mut Store) {
    assert_eq!(store.model("catan").unwrap(), None);
    let first = almanac_store::WinModel {
        id: 0,
        ruleset: "catan".into(),
        version: 1,
        games: 30,
        positions: 4000,
        trained_at: String::new(),
        body: "{\"weights\":[1]}".into(),
    };
    store.save_model(&first).unwrap();
    let second =
        almanac_store::WinModel { games: 60, positions: 9000, body: "{\"weights\":[2]}".into(), ..first.clone() };
    store.save_model(&second).unwrap();
    let kept = store.model("catan").unwrap().unwrap();
    assert_eq!((kept.games, kept.positions, kept.body.as_str()), (60, 9000, "{\"weights\":[2]}"));
    assert!(kept.trained_at.starts_with("20"), "{}", kept.trained_at);
    assert_eq!(store.model("carcassonne").unwrap(), None);
    models_are_kept_newest_first_read(store);
}

/// After `models_are_kept_newest_first` and every statement that tried to change its models: the newest is
/// still the second, as stored.
pub fn models_are_kept_newest_first_read(store: &Store) {
    let kept = store.model("catan").unwrap().unwrap();
    assert_eq!((kept.games, kept.positions, kept.body.as_str()), (60, 9000, "{\"weights\":[2]}"));
}

/// One game is one game, on either backend: a spectator's log of a game, the same log uploaded again under
/// another title, and another club's copy count once in ratings, records, questions and the field's sums; a
/// game without a winner counts in none of them; making the first copy private lets the next one count.
pub fn one_game_counts_once_everywhere(store: &mut Store) {
    let truth = sample("catan-club-game.jsonl");
    let home = store.create_club("Kadıköy").unwrap().id;
    let club = store.create_club("Spectators").unwrap().id;
    let published = |club| Ownership { club: Some(club), published: true };
    let stored = |store: &mut Store, text: &str, owner: Ownership| {
        let log = log_of(text);
        insert_with(store, &log, owner, &won_by(0, [10.0, 8.0, 7.0, 5.0], "o")).unwrap().id().to_string()
    };
    let first = stored(store, &truth, published(home));
    let spectator = stored(store, &sample("catan-club-game-observer.jsonl"), published(home));
    let again = stored(store, &truth.replacen("Thursday league, table 2", "The final", 1), published(home));
    let theirs = stored(store, &truth.replacen("Thursday", "Our Thursday", 1), published(club));
    // A game stopped early (its first 60 events): no winner.
    let stopped: Vec<&str> = truth.lines().take(61).collect();
    let unfinished = stored(store, &(stopped.join("\n") + "\n"), published(home));
    let ids: std::collections::BTreeSet<&String> = [&first, &spectator, &again, &theirs, &unfinished].into();
    assert_eq!(ids.len(), 5, "five games stored");
    store.read_seats().unwrap();
    let rated =
        |store: &Store| -> Vec<String> { store.rated_games("catan").unwrap().into_iter().map(|g| g.game).collect() };
    let ayse = store.game(&store.stored(&first).unwrap()).unwrap().players[0].player.unwrap();
    let won = |store: &Store| -> (f64, u64, Option<f64>) {
        let me = store.visible_player(Viewer::Public, ayse).unwrap();
        let profile = store.player_profile(&me, &[], "won").unwrap();
        let n = profile.numbers.iter().find(|n| n.metric == "won").expect("a win rate");
        (n.mean, n.seats, n.field)
    };

    assert_eq!(rated(store), [first.as_str()], "rated once, the unfinished game not at all");
    let sat = store.sittings(&store.visible_player(Viewer::Operator, ayse).unwrap()).unwrap();
    assert_eq!(sat.iter().map(|s| s.game.clone()).collect::<Vec<_>>(), [first.as_str()], "one game in the record");
    for viewer in [Viewer::Public, Viewer::Club(club), Viewer::Club(home), Viewer::Operator] {
        let q = Question::over(viewer, "won", Dimension::Player);
        let (n, games) = counted(store, &q, 10);
        assert_eq!((n, games.len()), (1, 1), "{viewer:?} counts one game");
        let rows = answer(store, &q);
        assert!(rows.iter().all(|r| r.games == 1 && r.seats == 1), "{viewer:?}: {rows:?}");
    }
    assert_eq!(won(store), (1.0, 1, Some(0.25)), "one game's seats in the player's numbers and the field's");
    // Each record names the others its viewer may see, and which one counts.
    let seen_by = |store: &Store, game: &str, viewer: Viewer| {
        let visible = store.visible(viewer, game).unwrap();
        let (counts, others) = store.recordings(&visible).unwrap();
        (counts, others.into_iter().map(|r| (r.id, r.counted)).collect::<Vec<_>>())
    };
    assert_eq!(
        seen_by(store, &spectator, Viewer::Public),
        (false, vec![(first.clone(), true), (again.clone(), false), (theirs.clone(), false)])
    );
    assert_eq!(seen_by(store, &unfinished, Viewer::Public), (false, vec![]), "a game stopped early is another game");

    // The first copy made private: of the others, the re-titled full copy saw more than the spectator's log,
    // stored before it (which could not see the hidden cards): it is the game now, and counts once.
    store.set_published(home, &first, false).unwrap();
    store.read_seats().unwrap();
    assert_eq!(rated(store), [again.as_str()]);
    assert_eq!(counted(store, &Question::over(Viewer::Public, "won", Dimension::Player), 10).0, 1);
    assert_eq!(won(store), (1.0, 1, Some(0.25)));
    // Its own club still sees it, once: the first stored of what it may see.
    let (_, games) = counted(store, &Question::over(Viewer::Club(home), "won", Dimension::Player), 10);
    assert_eq!(games.iter().map(|g| g.id.clone()).collect::<Vec<_>>(), [first.as_str()]);
    store.set_published(home, &first, true).unwrap();
    store.read_seats().unwrap();
    assert_eq!(rated(store), [first.as_str()], "the first stored counts again");
    assert_eq!(won(store), (1.0, 1, Some(0.25)));
}

/// Checkpoints follow the log: written with the events, the old end replaced by an append, the newest one
/// at or before an event found with exactly the events after it, and one written by another version of the
/// ruleset never used. The states they hold equal a full replay's.
pub fn checkpoints_follow_the_log(store: &mut Store) {
    use almanac_core::checkpoint::EVERY;
    let full = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = full.lines().collect();
    let total = lines.len() - 1;
    let club = store.create_club("Kadıköy").unwrap().id;
    // A live game of its first 100 events, then 5 more, then to the end.
    let start = log_of(&(lines[..101].join("\n") + "\n"));
    let id = insert_as(store, &start, Ownership::private_to(club)).unwrap().id().to_string();
    let seen = store.stored(&id).unwrap();
    let current = start.game.ruleset_version();
    let version_of = |ruleset: &str| (ruleset == "catan").then_some(current);
    let kept = |store: &Store, n: u64| store.resume_point(&seen, Some(n), &version_of).unwrap();
    let at = |store: &Store, n: u64| kept(store, n).checkpoint.map(|c| c.events);
    assert_eq!((at(store, 100), at(store, 99), at(store, 63)), (Some(100), Some(64), None));
    let mut game = start.game;
    let mut appended = 100;
    for (first, last) in [(101, 105), (106, total)] {
        let next: Vec<String> = lines[first..=last].iter().map(|s| s.to_string()).collect();
        for (k, l) in next.iter().enumerate() {
            game.push_line(first + 1 + k, l).unwrap();
        }
        store
            .append_events(
                club,
                &id,
                appended,
                Appended { game: game.as_ref(), lines: &next, insights: &Default::default() },
            )
            .unwrap();
        appended = last as u64;
    }
    // The old ends (100, 105) are gone; every multiple of EVERY and the new end are kept.
    let point = kept(store, 100);
    assert_eq!(point.checkpoint.as_ref().map(|c| c.events), Some(EVERY as u64));
    assert_eq!(point.lines, lines[EVERY + 1..=100], "the events after the checkpoint, in order");
    assert_eq!(at(store, 105), Some(EVERY as u64));
    let end = store.resume_point(&seen, None, &version_of).unwrap();
    assert_eq!(
        (end.events, end.checkpoint.as_ref().map(|c| c.events), end.lines.len()),
        (total as u64, Some(total as u64), 0)
    );
    // What a checkpoint holds is the replayed state at it.
    let kind = almanac_engine::GAMES.iter().find(|g| g.id() == "catan").unwrap();
    let header: serde_json::Value = serde_json::from_str(&end.header).unwrap();
    for n in [1u64, 64, 100, 200, total as u64] {
        let p = kept(store, n);
        let from = p.checkpoint.as_ref().map(|c| (c.events as usize, c.state.as_slice()));
        assert_eq!(
            kind.state_dump_from(&header.to_string(), from, &p.lines).unwrap(),
            game.state_dump_after(n as usize),
            "after {n}"
        );
    }
    // Another version wrote none of them: nothing is read but the log.
    let other = |_: &str| Some(current + 1);
    let old = store.resume_point(&seen, Some(100), &other).unwrap();
    assert_eq!((old.checkpoint, old.lines.len()), (None, 100));
    // Derived again, the game has the same checkpoints.
    let before = (1..=total as u64).map(|n| at(store, n)).collect::<Vec<_>>();
    let log = log_of(&full);
    rederive(store, &id, &log, &Insights::default()).unwrap();
    assert_eq!((1..=total as u64).map(|n| at(store, n)).collect::<Vec<_>>(), before);
    assert!(store.checkpoint_bytes().unwrap() > 0);
    let due = store.games_to_reproject(Some("catan"), Some(current)).unwrap();
    assert!(!due.iter().any(|g| g.id == id), "a game with its checkpoints is not due: {due:?}");
}

/// A withdrawal is stored as an event of its own: the entry it takes back stays in the log, its facts are
/// gone from the read model (the facts stored are the game's own, as a fresh read derives them), and the
/// state from the store's checkpoints is as if the entry had not been made — a withdrawal reaching behind a
/// checkpoint too.
pub fn withdrawals_are_stored_and_the_state_is_as_if_the_entry_was_not_made(store: &mut Store) {
    use almanac_core::{checkpoint::EVERY, withdrawal};
    let full = sample("catan-club-game.jsonl");
    let lines: Vec<&str> = full.lines().collect();
    let club = store.create_club("Kadıköy").unwrap().id;
    // A live game of its first EVERY events: a checkpoint after the last one.
    let start = log_of(&(lines[..=EVERY].join("\n") + "\n"));
    let id = insert_as(store, &start, Ownership::private_to(club)).unwrap().id().to_string();
    let seen = store.stored(&id).unwrap();
    let current = start.game.ruleset_version();
    let version_of = |ruleset: &str| (ruleset == "catan").then_some(current);
    let kind = almanac_engine::GAMES.iter().find(|g| g.id() == "catan").unwrap();
    let header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    let state_at = |store: &Store, n: Option<u64>| {
        let p = store.resume_point(&seen, n, &version_of).unwrap();
        let from = p.checkpoint.as_ref().map(|c| (c.events as usize, c.state.as_slice()));
        kind.state_dump_from(&header.to_string(), from, &p.lines).unwrap()
    };
    let mut game = start.game;
    let mut stored = EVERY as u64;
    let mut append = |store: &mut Store, game: &mut Box<dyn almanac_core::Game>, line: String| {
        game.push_line(stored as usize + 2, &line).unwrap();
        stored = store
            .append_events(
                club,
                &id,
                stored,
                Appended { game: game.as_ref(), lines: &[line], insights: &Default::default() },
            )
            .unwrap();
    };
    // The last entry before the checkpoint is withdrawn: the checkpoint holds it, so the state steps back.
    append(store, &mut game, withdrawal::line(EVERY as u64));
    // An entry after it is made and withdrawn; then the game goes on as the sample does.
    append(store, &mut game, lines[EVERY].to_string());
    append(store, &mut game, withdrawal::line(EVERY as u64 + 2));
    for line in &lines[EVERY..EVERY + 10] {
        append(store, &mut game, line.to_string());
    }
    assert_eq!(stored, EVERY as u64 + 13);
    let clean = log_of(&lines[..EVERY + 10].join("\n"));
    assert_eq!(game.state_dump(), clean.game.state_dump());
    // The log keeps every line; the facts are those of the entries in effect, as a fresh read has them.
    let (_, log) = store.log(&seen).unwrap();
    assert_eq!(log.len(), EVERY + 13);
    assert_eq!((log[EVERY - 1].as_str(), log[EVERY].as_str()), (lines[EVERY], withdrawal::line(EVERY as u64).as_str()));
    let again = log_of(&(lines[0].to_string() + "\n" + &log.join("\n")));
    assert_eq!(store.facts(&seen).unwrap(), again.game.fact_rows(0));
    assert_eq!(store.facts(&seen).unwrap().len(), clean.game.fact_rows(0).len());
    // Every state, from the store's checkpoints, is the replay's.
    for n in (EVERY as u64 - 2)..=stored {
        assert_eq!(state_at(store, Some(n)), game.state_dump_after(n as usize), "after {n}");
    }
    assert_eq!(state_at(store, None), clean.game.state_dump());
    assert_eq!(state_at(store, Some(EVERY as u64 + 1)), clean.game.state_dump_after(EVERY - 1));
}

/// A club's private game: listed, found and changed by its club alone; deleted, it is gone from every view
/// (its events stay), and its owner's upload of the same log shows it again.
pub fn a_clubs_private_game_is_found_by_nobody_else(store: &mut Store) {
    let (a, b) = (store.create_club("A").unwrap().id, store.create_club("B").unwrap().id);
    let log = log_of(&sample("catan-club-game.jsonl"));
    let id = insert_as(store, &log, Ownership::private_to(a)).unwrap().id().to_string();
    let listed = |store: &Store, viewer| store.list_games(&GameFilter { viewer, ..Default::default() }).unwrap().len();
    assert_eq!(
        (listed(store, Viewer::Club(a)), listed(store, Viewer::Club(b)), listed(store, Viewer::Public)),
        (1, 0, 0)
    );
    assert_eq!(store.resolve(Viewer::Club(a), &id[..4]).unwrap(), id);
    for viewer in [Viewer::Club(b), Viewer::Public] {
        assert!(matches!(store.resolve(viewer, &id), Err(StoreError::NotFound(_))));
        assert!(matches!(store.resolve(viewer, &id[..4]), Err(StoreError::NotFound(_))));
    }
    // Another club uploading the same log stores its own record of it, and hears nothing of A's: another id,
    // in its own view only; the same upload again is that record.
    let theirs = insert_as(store, &log, Ownership::private_to(b)).unwrap();
    assert!(matches!(&theirs, Inserted::New(other) if *other != id), "{theirs:?}");
    let theirs = theirs.id().to_string();
    assert_eq!(
        (listed(store, Viewer::Club(a)), listed(store, Viewer::Club(b)), listed(store, Viewer::Public)),
        (1, 1, 0)
    );
    assert_eq!(insert_as(store, &log, Ownership::private_to(b)).unwrap(), Inserted::Existing(theirs.clone()));
    // Only the owner changes it.
    assert!(matches!(store.set_published(b, &id, true), Err(StoreError::NotFound(_))));
    store.set_published(a, &id, true).unwrap();
    assert_eq!((listed(store, Viewer::Club(b)), listed(store, Viewer::Public)), (2, 1));
    assert!(matches!(store.delete_game(b, &id), Err(StoreError::NotYours(_))));
    assert_eq!(insert_as(store, &log, Ownership::private_to(b)).unwrap(), Inserted::Existing(theirs.clone()));
    // Deleted: gone from every view, the owner's and the operator's too (B's own record stays B's); the events
    // stay.
    store.delete_game(a, &id).unwrap();
    for viewer in [Viewer::Club(a), Viewer::Club(b), Viewer::Public, Viewer::Operator] {
        let own = usize::from(matches!(viewer, Viewer::Club(c) if c == b) || viewer == Viewer::Operator);
        assert_eq!(listed(store, viewer), own);
        assert!(store.resolve(viewer, &id).is_err());
    }
    store.delete_game(b, &theirs).unwrap();
    // The owner's upload of the same log shows it again.
    assert_eq!(insert_as(store, &log, Ownership::private_to(a)).unwrap(), Inserted::Existing(id.clone()));
    assert_eq!(listed(store, Viewer::Public), 1, "still published");
}

/// A club's token is found by its hash alone, and no more once revoked.
pub fn tokens_are_stored_as_hashes_and_stop_working_when_revoked(store: &mut Store) {
    let club = store.create_club("Kadıköy").unwrap();
    assert!(matches!(store.create_club("Kadıköy"), Err(StoreError::Invalid(_))));
    let token = store.add_token(club.id, "hash-of-secret", "laptop").unwrap();
    assert_eq!(store.club_of_token("hash-of-secret").unwrap(), Some(club.clone()));
    assert_eq!(store.club_of_token("secret").unwrap(), None);
    store.revoke_token(token).unwrap();
    assert_eq!(store.club_of_token("hash-of-secret").unwrap(), None);
    assert!(store.tokens(Some(club.id)).unwrap()[0].revoked_at.is_some());
    assert!(matches!(store.revoke_token(999), Err(StoreError::NotFound(_))));
}
