//! What the store's promise tests share, on either backend: the samples, validated logs, inserting one.

#![allow(dead_code)]

use almanac_engine::{validate, ValidatedLog};
use almanac_store::{GameFilter, Inserted, Ownership, Store, StoreError, Viewer};
use std::path::Path;

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
    store.insert_game(log.game.as_ref(), log.header_line(), &log.event_lines(), &log.content_hash(), owner)
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
    let ayse = |g: &str, store: &Store| store.game(g).unwrap().players[0].player.expect("a seat names its player");
    assert_eq!(ayse(&a, store), ayse(&b, store), "one Ayşe across the two games");
    let lower = insert(store, &log_of(&truth.replace("Ayşe", "ayşe"))).unwrap().id().to_string();
    assert_eq!(ayse(&lower, store), ayse(&a, store), "names match in any case");
    let id = ayse(&a, store);
    let me = store.identity(id).unwrap().unwrap();
    assert_eq!((me.name.as_str(), me.club.as_deref()), ("Ayşe", None));
    let sat = store.sittings(id).unwrap();
    assert_eq!(sat.len(), 3);
    assert!(sat.iter().all(|s| s.seats.len() == 4 && s.seats[0].player == id));
    // A spelling merged in: its games count for the player, and its identity answers as the player.
    let memet = insert(store, &log_of(&truth.replace("Mehmet", "Memet"))).unwrap().id().to_string();
    let mehmet = store.game(&a).unwrap().players[1].player.unwrap();
    let other = store.game(&memet).unwrap().players[1].player.unwrap();
    assert_ne!(mehmet, other);
    assert_eq!(store.sittings(mehmet).unwrap().len(), 3);
    assert_eq!(store.merge_players(None, mehmet, other).unwrap(), mehmet);
    assert_eq!(store.sittings(mehmet).unwrap().len(), 4);
    let merged = store.identity(other).unwrap().unwrap();
    assert_eq!((merged.id, merged.spellings), (mehmet, vec!["Mehmet".to_string(), "Memet".to_string()]));
    assert_eq!(store.game(&memet).unwrap().players[1].player, Some(mehmet), "the seat names the merged player");
    assert!(matches!(store.merge_players(None, other, mehmet), Err(StoreError::Invalid(_))), "one player already");
    let zeynep = store.game(&a).unwrap().players[2].player.unwrap();
    assert!(
        matches!(store.merge_players(None, id, zeynep), Err(StoreError::Invalid(m)) if m.contains("sat at one table")),
        "two players of one game are two people"
    );
    assert_eq!(store.player_merges().unwrap(), vec![(None, "Mehmet".to_string(), "Memet".to_string())]);
    // A club's names are its own; its private games count nowhere until published, deleted ones never.
    let club = store.create_club("Kadıköy").unwrap().id;
    let private =
        insert_as(store, &log_of(&truth.replace("Zeynep", "Zeyno")), Ownership { club: Some(club), published: false })
            .unwrap()
            .id()
            .to_string();
    let theirs = store.game(&private).unwrap().players[0].player.unwrap();
    assert_ne!(theirs, id, "the club's Ayşe is not the operator's");
    assert_eq!(store.player_named(Some(club), "AYŞE").unwrap(), Some(theirs));
    assert!(store.sittings(theirs).unwrap().is_empty(), "a private game counts nowhere");
    assert!(matches!(store.merge_players(Some(club), id, mehmet), Err(StoreError::PlayerNotYours(_))));
    store.set_published(club, &private, true).unwrap();
    assert_eq!(store.sittings(theirs).unwrap().len(), 1);
    store.delete_game(club, &private).unwrap();
    assert!(store.sittings(theirs).unwrap().is_empty(), "a deleted game counts nowhere");
    assert!(matches!(store.sittings(9_999_999), Err(StoreError::NoPlayer(_))));
}

/// Notes on a game, on either backend: kept as written, in the order of the game.
pub fn notes_are_kept_in_the_order_of_the_game(store: &mut Store) {
    let club = store.create_club("Coaches").unwrap().id;
    let game =
        insert_as(store, &log_of(&sample("catan-club-game.jsonl")), Ownership { club: Some(club), published: true })
            .unwrap()
            .id()
            .to_string();
    store.add_note(&game, 40, club, "later").unwrap();
    store.add_note(&game, 3, club, "sooner").unwrap();
    let notes = store.notes(&game).unwrap();
    let words: Vec<(u64, &str, &str)> = notes.iter().map(|n| (n.seq, n.club.as_str(), n.text.as_str())).collect();
    assert_eq!(words, vec![(3, "Coaches", "sooner"), (40, "Coaches", "later")]);
}
