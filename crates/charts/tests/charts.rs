//! Every chart of a real game is well-formed SVG with its text, and the turn charts carry one click
//! target per turn.

use almanac_analysis::{game_stats, GameStats};
use std::path::Path;

fn stats(sample: &str) -> (GameStats, Vec<Option<String>>) {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples").join(sample)).unwrap();
    let log = almanac_engine::validate(None, &text).unwrap();
    let g = log.game;
    let mut rows = Vec::new();
    for i in 0..g.event_count() {
        for f in g.event_facts(i) {
            rows.push(f.row(i as u64 + 1, g.event_turn(i)));
        }
    }
    let names: Vec<String> = g.envelope().players.iter().map(|p| p.name.clone()).collect();
    let colors = g.envelope().players.iter().map(|p| p.color.clone()).collect();
    (game_stats(&names, &rows), colors)
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}"))
}

fn texts(doc: &roxmltree::Document) -> String {
    doc.descendants().filter(|n| n.is_text()).map(|n| n.text().unwrap_or("")).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_vp_chart_names_every_player_and_has_a_target_per_turn() {
    let (s, colors) = stats("catan-club-game.jsonl");
    let svg = almanac_charts::vp(&s, &colors).unwrap();
    let doc = parse(&svg);
    let text = texts(&doc);
    for name in ["Ayşe", "Mehmet", "Zeynep", "Can"] {
        assert!(text.contains(name), "{name} missing from the legend: {text}");
    }
    let targets: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some("turn-target")).collect();
    assert_eq!(targets.len(), s.turns as usize + 1);
    assert_eq!(targets.last().unwrap().attribute("data-turn"), Some(s.turns.to_string().as_str()));
}

#[test]
fn production_trades_and_dice_charts_are_well_formed() {
    let (s, _) = stats("catan-club-game.jsonl");
    let production = almanac_charts::production(&s).unwrap();
    assert!(texts(&parse(&production)).contains("grain"));
    let trades = almanac_charts::trades(&s).unwrap();
    let doc = parse(&trades);
    assert!(texts(&doc).contains("Who traded with whom"));
    assert!(texts(&doc).contains("bank"), "the bank is a trade partner in this game");
    let dice = almanac_charts::dice(&s).unwrap();
    let text = texts(&parse(&dice));
    let rolls: i64 = s.dice.values().sum();
    assert!(text.contains(&format!("{rolls} rolls")), "{text}");
}

#[test]
fn names_that_look_like_markup_stay_text() {
    let (mut s, colors) = stats("catan-club-game.jsonl");
    s.players[0].name = "<script>alert(1)</script>".into();
    let svg = almanac_charts::vp(&s, &colors).unwrap();
    assert!(!svg.contains("<script>"));
    assert!(texts(&parse(&svg)).contains("<script>alert(1)</script>"));
}
