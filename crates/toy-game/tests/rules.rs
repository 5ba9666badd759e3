//! The race's rules (its crate's documentation is its rulebook), one test each, through log lines as users
//! write them: the turn passes in seat order, a step is one to three squares, square ten wins and ends the
//! game, and the table is two to four players.

use almanac_core::testing::{act, refused};
use almanac_core::{Fact, Ruleset};
use almanac_toy_game::{Race, State};

fn table(names: &[&str]) -> State {
    let players: Vec<String> = names.iter().map(|n| format!("{{\"name\":\"{n}\"}}")).collect();
    let header =
        format!("{{\"format\":\"almanac/1\",\"ruleset\":\"ten-squares\",\"players\":[{}]}}", players.join(","));
    Race::initial(&header).unwrap_or_else(|e| panic!("{e}"))
}

fn step(player: &str, by: u32) -> String {
    format!("{{\"type\":\"step\",\"player\":\"{player}\",\"by\":{by}}}")
}

#[test]
fn the_turn_passes_in_seat_order_and_comes_back_to_the_first() {
    let mut s = table(&["Ayşe", "Bo", "Cem"]);
    refused::<Race>(&mut s, &step("Bo", 1), "it is Ayşe's turn, not Bo's");
    for name in ["Ayşe", "Bo", "Cem", "Ayşe"] {
        act::<Race>(&mut s, &step(name, 1)).unwrap();
    }
    assert_eq!(s.squares, [2, 1, 1]);
}

#[test]
fn a_step_is_one_to_three_squares() {
    let mut s = table(&["Ayşe", "Bo"]);
    refused::<Race>(&mut s, &step("Ayşe", 0), "a step is 1 to 3 squares, not 0");
    refused::<Race>(&mut s, &step("Ayşe", 4), "a step is 1 to 3 squares, not 4");
    let facts = act::<Race>(&mut s, &step("Ayşe", 3)).unwrap();
    assert!(
        matches!(facts[0], Fact::Score { player: 0, delta: 3, total: 3, .. }),
        "the step scores its squares: {facts:?}"
    );
}

#[test]
fn reaching_square_ten_wins_and_nothing_is_played_after() {
    let mut s = table(&["Ayşe", "Bo"]);
    for (name, by) in [("Ayşe", 3), ("Bo", 3), ("Ayşe", 3), ("Bo", 3), ("Ayşe", 3), ("Bo", 2)] {
        act::<Race>(&mut s, &step(name, by)).unwrap();
    }
    // Ayşe stands on 9; two squares take her past the goal, which wins as surely as landing on it.
    let facts = act::<Race>(&mut s, &step("Ayşe", 2)).unwrap();
    assert!(facts.iter().any(|f| matches!(f, Fact::GameOver { winner: Some(0) })), "{facts:?}");
    assert_eq!(s.winner, Some(0));
    refused::<Race>(&mut s, &step("Bo", 1), "the race is over: Ayşe won");
}

#[test]
fn a_table_is_two_to_four_players() {
    let header = |n: usize| {
        let players: Vec<String> = (0..n).map(|k| format!("{{\"name\":\"P{k}\"}}")).collect();
        format!("{{\"format\":\"almanac/1\",\"ruleset\":\"ten-squares\",\"players\":[{}]}}", players.join(","))
    };
    for n in [1, 5] {
        let refused = Race::initial(&header(n)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains(&format!("2 to 4 players, not {n}")), "{n} players: `{refused}`");
    }
    for n in 2..=4 {
        assert!(Race::initial(&header(n)).is_ok(), "{n} players");
    }
}
