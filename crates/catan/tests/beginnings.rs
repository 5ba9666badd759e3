//! How a table begins a game at the recorder: the rulebook's beginner board, and variable boards drawn
//! from a seed by the rulebook's variable set-up, held to the box's contents.

use almanac_catan::beginnings::{begin, beginner, check_against_box, red_neighbours, variable, BASE, EXTENSION};
use almanac_catan::board::BoardSpec;
use almanac_catan::resources::Terrain;
use serde_json::{json, Value};

fn sample_header(name: &str) -> Value {
    let path = format!("{}/../../data/samples/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(std::fs::read_to_string(path).unwrap().lines().next().unwrap()).unwrap()
}

fn spec(board: &Value) -> BoardSpec {
    serde_json::from_value(board.clone()).unwrap()
}

fn layout(board: &Value) -> Vec<(Terrain, Option<u8>)> {
    spec(board).hexes.iter().map(|h| (Terrain::from_name(&h.terrain).unwrap(), h.number)).collect()
}

#[test]
fn the_club_sample_was_played_on_the_beginner_board_and_the_samples_boards_are_the_boxes() {
    let club = sample_header("catan-club-game.jsonl");
    assert_eq!(beginner(), club["board"]);
    assert_eq!(check_against_box(&spec(&club["board"])), Vec::<String>::new());
    let six = sample_header("catan-six-players.jsonl");
    assert_eq!(check_against_box(&spec(&six["board"])), Vec::<String>::new());
    let coordinates: Vec<Value> = six["board"]["hexes"].as_array().unwrap().iter().map(|h| h["at"].clone()).collect();
    assert_eq!(coordinates, EXTENSION.hexes.iter().map(|h| json!(h)).collect::<Vec<_>>());
}

#[test]
fn a_variable_board_is_the_boxs_contents_with_no_red_numbers_side_by_side_and_one_seed_is_one_board() {
    for (contents, players) in [(&BASE, 4), (&EXTENSION, 6)] {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200u64 {
            let board = variable(contents, seed);
            assert_eq!(check_against_box(&spec(&board)), Vec::<String>::new(), "seed {seed}");
            assert_eq!(red_neighbours(contents.hexes, &layout(&board)), None, "seed {seed}");
            assert_eq!(board, variable(contents, seed), "seed {seed} twice");
            seen.insert(board.to_string());
            // A game begins on it: the rules read the header.
            let mut header = begin("variable", players, seed).unwrap();
            assert_eq!(header["board"], board);
            header.insert("format".into(), json!("almanac/1"));
            header.insert("ruleset".into(), json!("catan"));
            let names = ["A", "B", "C", "D", "E", "F"];
            header.insert(
                "players".into(),
                json!(names[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>()),
            );
            let line = serde_json::to_string(&header).unwrap();
            let (envelope, header) = almanac_core::Envelope::read(&line).unwrap();
            almanac_core::read_events::<almanac_catan::Catan>(envelope, header, &line)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        assert_eq!(seen.len(), 200, "every seed its own board");
    }
}

#[test]
fn a_board_off_the_boxs_counts_is_refused_mistake_by_mistake() {
    let mut board = beginner();
    // A forest laid where a hill was, and a 6 where a 5 was.
    board["hexes"][4]["terrain"] = json!("forest");
    board["hexes"][15]["number"] = json!(6);
    let problems = check_against_box(&spec(&board));
    assert!(problems.contains(&"the box holds 4 forest hexes; the board has 5".to_string()), "{problems:?}");
    assert!(problems.contains(&"the box holds 3 hills hexes; the board has 2".to_string()), "{problems:?}");
    assert!(problems.contains(&"the box holds 2 number token(s) 5; the board has 1".to_string()), "{problems:?}");
    assert!(problems.contains(&"the box holds 2 number token(s) 6; the board has 3".to_string()), "{problems:?}");
    assert_eq!(problems.len(), 4, "{problems:?}");
}

#[test]
fn a_beginning_is_for_its_players_only() {
    let err = begin("beginner", 6, 0).unwrap_err();
    assert!(err.0.contains("3 to 4 players, not 6"), "{err}");
    assert!(begin("hexagonal", 4, 0).unwrap_err().0.contains("no beginning `hexagonal`"));
    assert_eq!(begin("helpers-beginner", 3, 0).unwrap()["helpers"]["stack"][0], "Nassir");
}
