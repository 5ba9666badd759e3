//! How a table begins a game at the recorder: the rulebook's beginner board, and variable boards drawn
//! from a seed by the rulebook's variable set-up, held to the box's contents.

use almanac_catan::beginnings::{beginner, check_against_box, red_neighbours, variable, BASE, EXTENSION};
use almanac_catan::board::BoardSpec;
use almanac_catan::resources::Terrain;
use almanac_core::next::{Begin, HeaderFields, Laid, Layout};
use almanac_core::SetupError;
use serde_json::{json, Value};

/// A beginning as a table asks for it.
fn begin(beginning: &str, seats: usize, seed: u64, laid: &Laid) -> Result<HeaderFields, SetupError> {
    almanac_catan::beginnings::begin(&Begin { beginning, seats, seed, laid })
}

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
            let mut header = begin("variable", players, seed, &Laid::new()).unwrap();
            assert_eq!(header["board"], board);
            header.insert("format".into(), json!("almanac/1"));
            header.insert("ruleset".into(), json!("catan"));
            let names = ["A", "B", "C", "D", "E", "F"];
            header.insert(
                "players".into(),
                json!(names[..players].iter().map(|n| json!({"name": n})).collect::<Vec<_>>()),
            );
            let line = serde_json::to_string(&header).unwrap();
            let (envelope, header) = (almanac_core::Envelope::parse(&line).unwrap(), &line);
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
    let err = begin("beginner", 6, 0, &Laid::new()).unwrap_err();
    assert!(err.0.contains("3 to 4 players, not 6"), "{err}");
    assert!(begin("hexagonal", 4, 0, &Laid::new()).unwrap_err().0.contains("no beginning `hexagonal`"));
    assert_eq!(begin("helpers-beginner", 3, 0, &Laid::new()).unwrap()["helpers"]["stack"][0], "Nassir");
}

/// What a table taps to lay `board` on `layout`: per place, per kind, the piece.
fn laid_from(board: &Value) -> Laid {
    let mut laid = Laid::new();
    for (i, h) in board["hexes"].as_array().unwrap().iter().enumerate() {
        let place = laid.entry(format!("h{i}")).or_default();
        place.insert("terrain".into(), h["terrain"].as_str().unwrap().into());
        if let Some(n) = h["number"].as_u64() {
            place.insert("number".into(), n.to_string());
        }
    }
    for hb in board["harbours"].as_array().unwrap() {
        let piece = hb["resource"].as_str().unwrap_or("3:1");
        laid.entry(hb["edge"].as_str().unwrap().into()).or_default().insert("harbour".into(), piece.into());
    }
    laid
}

fn own_layouts() -> Vec<Layout> {
    almanac_catan::beginnings::beginnings().into_iter().find(|b| b.id == "own").unwrap().layouts
}

#[test]
fn a_tables_own_board_laid_piece_by_piece_is_the_board_it_laid() {
    // The beginner board and the six-player sample's board, entered as a table would enter them.
    let six = sample_header("catan-six-players.jsonl");
    for (board, players) in [(beginner(), 4), (six["board"].clone(), 6)] {
        let header = begin("own", players, 0, &laid_from(&board)).unwrap();
        assert_eq!(header["board"], board);
    }
    let helped = begin("helpers-own", 3, 0, &laid_from(&beginner())).unwrap();
    assert_eq!(helped["board"], beginner());
    assert_eq!(helped["helpers"]["stack"][0], "Nassir");
}

#[test]
fn an_own_boards_layout_has_a_place_for_each_piece_of_the_box_and_no_place_over_another() {
    let layouts = own_layouts();
    for (layout, contents) in layouts.iter().zip([&BASE, &EXTENSION]) {
        let hexes: Vec<_> = layout.places.iter().filter(|p| p.kind == "hex").collect();
        let harbours: Vec<_> = layout.places.iter().filter(|p| p.kind == "harbour").collect();
        assert_eq!(hexes.len(), contents.hexes.len());
        assert_eq!(harbours.len(), contents.harbour_places.len());
        let count = |kind: &str| -> usize {
            layout.kinds.iter().find(|k| k.id == kind).unwrap().pieces.iter().map(|p| p.count as usize).sum()
        };
        assert_eq!(count("terrain"), hexes.len());
        assert_eq!(count("harbour"), harbours.len());
        let deserts = contents.terrains.iter().find(|t| t.0 == Terrain::Desert).unwrap().1;
        assert_eq!(count("number"), hexes.len() - deserts);
        // Each place's middle, and how far its outline reaches from it.
        let middle = |outline: &[[f32; 2]]| {
            let n = outline.len() as f32;
            let (x, y) = outline.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0] / n, y + p[1] / n));
            let reach = outline.iter().map(|p| (p[0] - x).hypot(p[1] - y)).fold(0.0, f32::max);
            (x, y, reach)
        };
        for (i, h) in harbours.iter().enumerate() {
            let (x, y, r) = middle(&h.outline);
            for other in hexes.iter().chain(&harbours[..i]) {
                let (ox, oy, or) = middle(&other.outline);
                assert!((x - ox).hypot(y - oy) >= r + or - 0.01, "{} lies over {}", h.words, other.words);
            }
        }
    }
}

#[test]
fn an_own_board_with_mistakes_is_refused_with_each_mistake_in_words() {
    let mut laid = laid_from(&beginner());
    // The 5 of row 4 moved onto the desert, a harbour left empty, and the 8 of row 3 put beside a 6.
    let five = laid.get_mut("h15").unwrap().remove("number").unwrap();
    laid.get_mut("h9").unwrap().insert("number".into(), five);
    laid.remove("0:NW");
    let err = begin("own", 4, 0, &laid).unwrap_err().0;
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "The board is not one the box lays out:",
            "row 3, hex 3 from the left is the desert: it takes no token (5)",
            "row 4, hex 4 from the left (pasture) has no number token",
            "the harbour off row 1, hex 1 from the left (NW side) has no harbour piece",
        ]
    );
    // Every place filled, but two forests too many; red numbers side by side are the table's to choose.
    let mut laid = laid_from(&beginner());
    laid.get_mut("h0").unwrap().insert("terrain".into(), "forest".into());
    laid.get_mut("h1").unwrap().insert("terrain".into(), "forest".into());
    assert_eq!((laid["h4"]["number"].as_str(), laid["h11"]["number"].as_str()), ("6", "8"));
    let (six, three) = (laid["h4"]["number"].clone(), laid["h10"]["number"].clone());
    laid.get_mut("h10").unwrap().insert("number".into(), six);
    laid.get_mut("h4").unwrap().insert("number".into(), three);
    let err = begin("own", 4, 0, &laid).unwrap_err().0;
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[1..],
        [
            "the box holds 4 forest hexes; the board has 6",
            "the box holds 4 pasture hexes; the board has 3",
            "the box holds 3 mountains hexes; the board has 2",
        ]
    );
    assert!(begin("own", 4, 0, &Laid::new()).unwrap_err().0.lines().count() == 1 + 19 + 9);
}

/// The game a beginning lays out for `names`: its header and opening entries, read by the rules.
fn begun(beginning: &str, names: &[&str]) -> (Vec<String>, almanac_core::Timeline<almanac_catan::Catan>) {
    let opening = almanac_catan::beginnings::opening(beginning, names);
    let mut header = begin(beginning, names.len(), 0, &Laid::new()).unwrap();
    header.insert("format".into(), json!("almanac/1"));
    header.insert("ruleset".into(), json!("catan"));
    let players: Vec<Value> =
        names.iter().zip(&opening.colors).map(|(n, c)| json!({ "name": n, "color": c })).collect();
    header.insert("players".into(), json!(players));
    let text = std::iter::once(serde_json::to_string(&header).unwrap()).chain(opening.lines).collect::<Vec<_>>();
    let log = text.join("\n");
    let (envelope, header) = (almanac_core::Envelope::parse(&text[0]).unwrap(), &text[0]);
    let game = almanac_core::read_events::<almanac_catan::Catan>(envelope, header, &log)
        .unwrap_or_else(|e| panic!("{beginning} for {names:?}: {e}"));
    (opening.colors.iter().map(|c| c.to_string()).collect(), game)
}

/// The rulebook's beginner set-up: each colour's two settlements and roads placed, the set-up over and the
/// first player to roll. Its worked example: blue takes 1 brick, 1 lumber and 1 ore for its leftmost
/// settlement, the one marked with a star; everyone takes the 3 resources around their starred settlement.
/// With three players the red pieces stay in the box.
#[test]
fn the_beginner_set_up_places_every_colours_pieces_and_blue_takes_brick_lumber_and_ore() {
    use almanac_catan::resources::Resources;
    use almanac_catan::state::Phase;
    for names in [&["Ana", "Ben", "Cem", "Dua"][..], &["Ana", "Ben", "Cem"][..]] {
        let (colors, game) = begun("beginner-pieces", names);
        let expected: &[&str] =
            if names.len() == 4 { &["red", "blue", "white", "orange"] } else { &["blue", "white", "orange"] };
        assert_eq!(colors, expected);
        let state = game.last();
        assert_eq!(state.phase, Phase::BeforeRoll, "{names:?}: the set-up is over");
        assert_eq!((state.turn, state.active), (1, 0), "{names:?}: the first player rolls first");
        for (seat, p) in state.players.iter().enumerate() {
            assert_eq!((p.settlements, p.roads), (2, 2), "{names:?}: seat {seat}'s pieces");
            assert_eq!(p.hand.total(), 3, "{names:?}: seat {seat} takes three resources");
            assert_eq!(p.hand.unknown, 0);
        }
        let blue = colors.iter().position(|c| c == "blue").unwrap();
        let blues = state.players[blue].hand.known;
        // Resources::new takes lumber, brick, wool, grain, ore.
        assert_eq!(blues, Resources::new(1, 1, 0, 0, 1), "{names:?}: blue's starting hand");
        assert_eq!(state.vp(blue as u8), 2);
    }
    // Any other beginning places nothing.
    assert_eq!(almanac_catan::beginnings::opening("beginner", &["A", "B", "C"]), Default::default());
}
