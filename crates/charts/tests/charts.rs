//! Every chart of a real game is well-formed SVG with its text, and the turn charts carry one click
//! target per turn.

use almanac_analysis::{game_stats, GameStats};
use almanac_core::{cause, Chart, DiceSpec, FactKind, FactRow, Term, Vocabulary};
use std::path::Path;

fn stats(sample: &str) -> (GameStats, Vec<Option<String>>, &'static Vocabulary) {
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
    let vocabulary = g.vocabulary();
    (game_stats(&names, &rows, vocabulary), colors, vocabulary)
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}"))
}

fn texts(doc: &roxmltree::Document) -> String {
    doc.descendants().filter(|n| n.is_text()).map(|n| n.text().unwrap_or("")).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_vp_chart_names_every_player_and_has_a_target_per_turn() {
    let (s, colors, v) = stats("catan-club-game.jsonl");
    let svg = almanac_charts::vp(&s, &colors, v).unwrap();
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
fn production_by_turn_runs_up_to_each_players_total_with_a_target_per_turn() {
    let (s, colors, _) = stats("catan-cards-four-players.jsonl");
    for p in &s.players {
        let series: Vec<i64> = p.production_by_turn.iter().map(|r| r[1]).collect();
        assert_eq!(series.len(), s.turns as usize + 1, "a point per turn, turn 0 included");
        assert!(series.windows(2).all(|w| w[0] <= w[1]), "{}: a running total never falls", p.name);
        assert_eq!(*series.last().unwrap(), p.production_total, "{}", p.name);
    }
    let doc_text = almanac_charts::production_by_turn(&s, &colors).unwrap();
    let doc = parse(&doc_text);
    let text = texts(&doc);
    for p in &s.players {
        assert!(text.contains(&p.name), "{} missing from the legend: {text}", p.name);
    }
    let targets = doc.descendants().filter(|n| n.attribute("class") == Some("turn-target")).count();
    assert_eq!(targets, s.turns as usize + 1);
}

#[test]
fn production_trades_and_dice_charts_are_well_formed() {
    let (s, _, v) = stats("catan-club-game.jsonl");
    let production = almanac_charts::production(&s, v).unwrap();
    assert!(texts(&parse(&production)).contains("grain"));
    let trades = almanac_charts::trades(&s, v).unwrap();
    let doc = parse(&trades);
    assert!(texts(&doc).contains("Who traded with whom"));
    assert!(texts(&doc).contains("bank"), "the bank is a trade partner in this game");
    let dice = almanac_charts::dice(&s, v).unwrap();
    let text = texts(&parse(&dice));
    let rolls: i64 = s.dice.values().sum();
    assert!(text.contains(&format!("{rolls} rolls")), "{text}");
}

#[test]
fn names_that_look_like_markup_stay_text() {
    let (mut s, colors, v) = stats("catan-club-game.jsonl");
    s.players[0].name = "<script>alert(1)</script>".into();
    let svg = almanac_charts::vp(&s, &colors, v).unwrap();
    assert!(!svg.contains("<script>"));
    assert!(texts(&parse(&svg)).contains("<script>alert(1)</script>"));
}

/// A game nobody has written yet: eight resources, among them a commodity, and three dice.
const EIGHT: Vocabulary = Vocabulary {
    id: "eight",
    name: "Eight resources",
    score: Term::new("VP", "victory points"),
    items: &[
        Term::colored("lumber", "lumber", "#2e7d32"),
        Term::colored("brick", "brick", "#b7472a"),
        Term::colored("wool", "wool", "#9ccc65"),
        Term::colored("grain", "grain", "#f9a825"),
        Term::colored("ore", "ore", "#607d8b"),
        Term::colored("coin", "coin", "#d4af37"),
        Term::colored("paper", "paper", "#d7ccc8"),
        Term::colored("cloth", "cloth", "#7e57c2"),
    ],
    causes: &[Term::new(cause::PRODUCTION, "production")],
    score_reasons: &[Term::colored("metropolis", "metropolises", "#123456")],
    partners: &[Term::new("merchant", "the merchant")],
    dice: Some(DiceSpec { count: 3, faces: 6 }),
    gauges: &[Term::colored("raiders", "the raiders", "#c0392b"), Term::colored("guards", "the guards", "#1f5fbf")],
    moments: &[Term::colored("raid", "a raid", "#222222")],
    charts: &[
        Chart::Score,
        Chart::Production,
        Chart::Trades,
        Chart::Dice,
        Chart::ScoreBreakdown,
        Chart::Gauges,
        Chart::ScoreBySource,
    ],
    items_are: "cards",
    ..Vocabulary::NONE
};

fn row(seq: u64, kind: FactKind, player: u32, item: Option<&str>, count: i64, cause: Option<&str>) -> FactRow {
    FactRow {
        seq,
        turn: 1 + seq as u32 / 4,
        kind,
        player: Some(player),
        item: item.map(String::from),
        count: Some(count),
        cause: cause.map(String::from),
        other: None,
        total: None,
        public: None,
        detail: None,
    }
}

#[test]
fn a_game_with_eight_resources_and_three_dice_draws_every_resource_and_every_sum() {
    let mut facts = Vec::new();
    let items = ["lumber", "brick", "wool", "grain", "ore", "coin", "paper", "cloth"];
    for (k, item) in items.iter().enumerate() {
        facts.push(row(k as u64 * 2 + 1, FactKind::Rolled, 0, None, 3 + k as i64 * 2, None));
        facts.push(row(
            k as u64 * 2 + 2,
            FactKind::Gained,
            (k % 2) as u32,
            Some(item),
            1 + k as i64,
            Some(cause::PRODUCTION),
        ));
    }
    let s = game_stats(&["Ana".into(), "Bo".into()], &facts, &EIGHT);
    assert_eq!(s.dice.len(), 16);
    for chart in EIGHT.charts {
        let svg = almanac_charts::draw(*chart, &s, &EIGHT, &[None, None]).unwrap();
        parse(&svg);
    }
    let production = almanac_charts::production(&s, &EIGHT).unwrap();
    let text = texts(&parse(&production));
    for item in items {
        assert!(text.contains(item), "{item} is missing from the production legend: {text}");
    }
    assert!(production.contains("#D4AF37") || production.contains("#d4af37"), "coin keeps its declared colour");
    let dice = almanac_charts::dice(&s, &EIGHT).unwrap();
    let text = texts(&parse(&dice));
    for sum in ["3", "10", "18"] {
        assert!(text.split_whitespace().any(|w| w == sum), "sum {sum} is not on the axis: {text}");
    }
}

#[test]
fn a_games_own_gauges_run_by_turn_with_its_moments_marked() {
    let gauge = |seq: u64, turn: u32, id: &str, value: i64| FactRow {
        seq,
        turn,
        kind: FactKind::Gauge,
        player: None,
        item: Some(id.into()),
        count: Some(value),
        cause: None,
        other: None,
        total: None,
        public: None,
        detail: None,
    };
    let mut raid = gauge(5, 4, "raid", 0);
    raid.kind = FactKind::Moment;
    raid.count = None;
    let facts = vec![
        gauge(1, 1, "raiders", 2),
        gauge(2, 2, "guards", 1),
        gauge(3, 2, "raiders", 3),
        gauge(4, 4, "guards", 4),
        raid,
    ];
    let s = game_stats(&["Ana".into(), "Bo".into()], &facts, &EIGHT);
    let series =
        |id: &str| s.gauges.iter().find(|g| g.id == id).unwrap().by_turn.iter().map(|r| r[1]).collect::<Vec<_>>();
    assert_eq!(series("raiders"), vec![0, 2, 3, 3, 3], "carried forward from the turn it changed");
    assert_eq!(series("guards"), vec![0, 0, 1, 1, 4]);
    assert_eq!(s.moments.len(), 1);
    assert_eq!((s.moments[0].id, s.moments[0].turn), ("raid", 4));
    let svg = almanac_charts::gauges(&s, &EIGHT).unwrap();
    let doc = parse(&svg);
    let words = texts(&doc);
    for label in ["The raiders against the guards by turn", "the raiders", "the guards", "a raid"] {
        assert!(words.contains(label), "`{label}` missing from {words}");
    }
    assert!(svg.contains("a raid in turn 4"), "the description names the moment's turn");
}

#[test]
fn points_by_source_run_by_turn_for_all_players_together() {
    let score = |seq: u64, turn: u32, player: u32, reason: &str, delta: i64| FactRow {
        seq,
        turn,
        kind: FactKind::Score,
        player: Some(player),
        item: Some(reason.into()),
        count: Some(delta),
        cause: None,
        other: None,
        total: None,
        public: None,
        detail: None,
    };
    let facts = vec![
        score(1, 1, 0, "metropolis", 3),
        score(2, 2, 1, "metropolis", 3),
        score(3, 2, 0, "harbour", 1),
        score(4, 4, 0, "metropolis", -3),
    ];
    let s = game_stats(&["Ana".into(), "Bo".into()], &facts, &EIGHT);
    let series =
        |r: &str| s.score_by_reason.iter().find(|(x, _)| x == r).unwrap().1.iter().map(|p| p[1]).collect::<Vec<_>>();
    assert_eq!(series("metropolis"), vec![0, 3, 6, 6, 3], "the declared reason, both players, points lost too");
    assert_eq!(series("harbour"), vec![0, 0, 1, 1, 1], "an undeclared reason still counts");
    assert_eq!(s.score_by_reason[0].0, "metropolis", "declared reasons first");
    let svg = almanac_charts::score_by_source(&s, &EIGHT).unwrap();
    let words = texts(&parse(&svg));
    for label in ["Victory points by source, by turn", "metropolises", "harbour"] {
        assert!(words.contains(label), "`{label}` missing from {words}");
    }
}

/// The box `(x0, y0, x1, y1)` an SVG shape covers, from its own attributes (a text by its anchor point).
fn extent(n: roxmltree::Node) -> Option<(f64, f64, f64, f64)> {
    let num = |a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
    let points = |list: &str| -> Option<(f64, f64, f64, f64)> {
        let xy: Vec<f64> = list.split([' ', ',']).filter(|v| !v.is_empty()).filter_map(|v| v.parse().ok()).collect();
        let xs = xy.iter().step_by(2);
        let ys = xy.iter().skip(1).step_by(2);
        Some((
            xs.clone().copied().fold(f64::MAX, f64::min),
            ys.clone().copied().fold(f64::MAX, f64::min),
            xs.copied().fold(f64::MIN, f64::max),
            ys.copied().fold(f64::MIN, f64::max),
        ))
        .filter(|b| b.0 <= b.2)
    };
    match n.tag_name().name() {
        "rect" => Some((num("x")?, num("y")?, num("x")? + num("width")?, num("y")? + num("height")?)),
        "circle" => {
            let (x, y, r) = (num("cx")?, num("cy")?, num("r")?);
            Some((x - r, y - r, x + r, y + r))
        }
        "line" => Some((
            num("x1")?.min(num("x2")?),
            num("y1")?.min(num("y2")?),
            num("x1")?.max(num("x2")?),
            num("y1")?.max(num("y2")?),
        )),
        "polyline" | "polygon" => points(n.attribute("points")?),
        "text" => Some((num("x")?, num("y")?, num("x")?, num("y")?)),
        _ => None,
    }
}

fn inside(n: roxmltree::Node, class: &str) -> bool {
    n.ancestors().any(|a| a.attribute("class") == Some(class))
}

/// Every chart of every sample: where it has a legend, no plotted mark (line, bar, point, mark, value)
/// touches the legend's box.
#[test]
fn no_legend_sits_on_a_plotted_mark_in_any_chart_of_any_sample() {
    let mut samples: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    samples.sort();
    let mut legends = 0;
    for sample in &samples {
        let (s, colors, v) = stats(sample);
        for &chart in v.charts {
            let svg = almanac_charts::draw(chart, &s, v, &colors).unwrap();
            let doc = parse(&svg);
            let root = doc.root_element();
            let (w, h) = (root.attribute("width").unwrap(), root.attribute("height").unwrap());
            let Some(legend) = doc.descendants().find(|n| n.attribute("class") == Some("legend")) else { continue };
            legends += 1;
            let frame = extent(legend.children().find(|n| n.tag_name().name() == "rect").unwrap()).unwrap();
            let hits = |b: (f64, f64, f64, f64)| b.0 < frame.2 && b.2 > frame.0 && b.1 < frame.3 && b.3 > frame.1;
            for n in doc.descendants().filter(|n| n.is_element()) {
                if inside(n, "legend") || inside(n, "turn-targets") {
                    continue;
                }
                // The white page under everything.
                if n.tag_name().name() == "rect" && n.attribute("width") == Some(w) && n.attribute("height") == Some(h)
                {
                    continue;
                }
                if let Some(b) = extent(n) {
                    assert!(
                        !hits(b),
                        "{sample}, chart {}: a {} at {b:?} under the legend {frame:?}",
                        chart.id(),
                        n.tag_name().name()
                    );
                }
            }
            // And the legend names what it must: every player on the score chart.
            if chart == Chart::Score {
                for p in &s.players {
                    assert!(texts(&parse(&svg)).contains(&p.name), "{sample}: {} not in the legend", p.name);
                }
            }
        }
    }
    assert!(legends > samples.len(), "only {legends} legends in {} samples", samples.len());
}

/// Key moments are marks that say what they mark: each its turn and who did what.
#[test]
fn each_key_moment_mark_says_its_turn_and_what_happened() {
    let (s, colors, v) = stats("catan-club-game.jsonl");
    assert!(!s.key_moments.is_empty());
    let svg = almanac_charts::vp(&s, &colors, v).unwrap();
    let doc = parse(&svg);
    let said: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("moment"))
        .map(|n| n.children().find(|c| c.tag_name().name() == "title").and_then(|t| t.text()).unwrap_or("").to_string())
        .collect();
    for m in &s.key_moments {
        let turn = format!("turn {}: ", m.turn);
        let who = m.player.as_deref().unwrap_or("");
        assert!(
            said.iter().any(|t| t.starts_with(&turn) && t.contains(who) && t.contains(&m.label)),
            "no mark says turn {} {who} {}: {said:?}",
            m.turn,
            m.label
        );
    }
}

fn bar(label: &str, value: f64) -> almanac_charts::AnswerBar {
    almanac_charts::AnswerBar { label: label.to_string(), value, interval: None, thin: false, fair: None }
}

/// A question's bars carry what stands behind them: each interval as a whisker spanning it on the bar's own
/// scale, a fair game's share as a mark, a thin group pale; the description says them all in words.
#[test]
fn the_answer_chart_draws_intervals_fair_shares_and_thin_groups() {
    let groups = vec![
        almanac_charts::AnswerBar { interval: Some((0.25, 0.75)), fair: Some(0.25), ..bar("seat 1", 0.5) },
        almanac_charts::AnswerBar { interval: Some((0.1, 0.9)), thin: true, fair: Some(0.25), ..bar("seat 2", 0.4) },
    ];
    let svg = almanac_charts::answer("Who wins?", &groups, true).unwrap();
    let doc = parse(&svg);
    let desc = texts(&doc);
    assert!(desc.contains("seat 1 50% (25% to 75%), fair 25%"), "{desc}");
    assert!(desc.contains("seat 2 40% (10% to 90%), fair 25%, too few games to rank"), "{desc}");
    // The bars: rectangles in the bar colour, the solid one opaque and the thin one pale.
    let rects: Vec<_> =
        doc.descendants().filter(|n| n.tag_name().name() == "rect" && n.attribute("fill") == Some("#1F5FBF")).collect();
    assert_eq!(rects.len(), 2, "{svg}");
    let opacity = |n: &roxmltree::Node| n.attribute("opacity").and_then(|o| o.parse::<f64>().ok()).unwrap_or(1.0);
    assert!(opacity(&rects[0]) > 0.8 && opacity(&rects[1]) < 0.4, "solid, then pale");
    // On the first bar's scale (x from 0 to 0.5), the whisker runs from 0.25 to 0.75.
    let num = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let (x0, width) = (num(&rects[0], "x"), num(&rects[0], "width"));
    let x_of = |v: f64| x0 + width * v / 0.5;
    let lines: Vec<Vec<(f64, f64)>> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polyline" && n.attribute("stroke") == Some("#222222"))
        .map(|n| {
            n.attribute("points")
                .unwrap()
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect();
    let across: Vec<&Vec<(f64, f64)>> = lines.iter().filter(|l| l.len() == 2 && l[0].1 == l[1].1).collect();
    assert_eq!(across.len(), 2, "a whisker a bar: {lines:?}");
    let (from, to) = (across[0][0].0, across[0][1].0);
    assert!((from - x_of(0.25)).abs() <= 2.0 && (to - x_of(0.75)).abs() <= 2.0, "{from}..{to} against {x0}+{width}");
    let marks: Vec<f64> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "polyline" && n.attribute("stroke") == Some("#B03000"))
        .map(|n| {
            n.attribute("points")
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(marks.len(), 2);
    assert!(marks.iter().all(|m| (m - x_of(0.25)).abs() <= 2.0), "{marks:?}");
    for key in ["95 % interval", "a fair game's share", "too few games to rank"] {
        assert!(svg.contains(&format!(">{key}</text>")), "the legend says {key}");
    }
}

/// Rates close together: every tick of the question chart reads differently.
#[test]
fn the_answer_charts_ticks_never_repeat() {
    for (groups, percent) in [
        (vec![bar("a", 0.21), bar("b", 0.12), bar("c", 0.05)], false),
        (vec![bar("a", 0.031), bar("b", 0.012)], true),
        (vec![bar("a", 41.0), bar("b", 7.5)], false),
    ] {
        let svg = almanac_charts::answer("How often?", &groups, percent).unwrap();
        let doc = parse(&svg);
        // The tick labels: the numbers on the axis under the bars (the bars' own values are drawn inside).
        let mut ticks: Vec<String> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter(|n| n.attribute("y").and_then(|y| y.parse::<f64>().ok()).is_some_and(|y| y > 340.0))
            .filter_map(|n| n.text().map(str::to_string))
            .collect();
        assert!(ticks.len() >= 3, "{ticks:?}");
        let all = ticks.len();
        ticks.dedup();
        assert_eq!(ticks.len(), all, "a tick repeats: {ticks:?}");
    }
}

/// Long names and names that differ only at their end stay apart on the trade matrix.
#[test]
fn the_trade_matrix_keeps_names_apart() {
    let (mut s, _, v) = stats("catan-club-game.jsonl");
    for (i, p) in s.players.iter_mut().enumerate() {
        p.name = format!("robot 1{i}");
    }
    let svg = almanac_charts::trades(&s, v).unwrap();
    let text = texts(&parse(&svg));
    for p in &s.players {
        assert!(text.contains(&p.name), "{} cut: {text}", p.name);
    }
}

#[test]
fn a_rating_of_one_game_is_drawn_by_the_day_each_game_was_played() {
    let series = [almanac_charts::RatingSeries {
        game: "Catan".into(),
        history: vec![[1.0, -2.0], [2.0, 1.5], [3.0, 3.0]],
        dates: vec![Some("2026-10-01".into()), None, Some("2026-11-12".into())],
    }];
    let svg = almanac_charts::rating_history("Ayşe", &series).unwrap();
    let doc = parse(&svg);
    let words = texts(&doc);
    assert!(words.contains("2026-10-01") && words.contains("2026-11-12"), "{words}");
    assert!(words.contains("game, by the day played"));
    // Two games' ratings share no days: numbered.
    let two = [
        almanac_charts::RatingSeries {
            game: "Catan".into(),
            history: vec![[1.0, 0.0]],
            dates: vec![Some("2026-10-01".into())],
        },
        almanac_charts::RatingSeries { game: "Elasund".into(), history: vec![[1.0, 1.0]], dates: vec![None] },
    ];
    let words = texts(&parse(&almanac_charts::rating_history("Ayşe", &two).unwrap()));
    assert!(!words.contains("2026-10-01") && words.contains("game"), "{words}");
}

/// A game of a turn or two has an axis of few whole numbers: each is written once, never a rounded
/// in-between tick (`0 0 1 1`).
#[test]
fn a_short_games_axes_write_each_whole_number_once() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/samples/catan-club-game.jsonl"))
            .unwrap();
    let short: Vec<&str> = text.lines().take(13).collect();
    let log = almanac_engine::validate(None, &short.join("\n")).unwrap();
    let g = log.game;
    let rows = g.fact_rows(0);
    let names: Vec<String> = g.envelope().players.iter().map(|p| p.name.clone()).collect();
    let colors: Vec<Option<String>> = g.envelope().players.iter().map(|p| p.color.clone()).collect();
    let s = game_stats(&names, &rows, g.vocabulary());
    let svg = almanac_charts::vp(&s, &colors, g.vocabulary()).unwrap();
    let doc = parse(&svg);
    let numbers: Vec<(f64, f64, String)> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| {
            let t = n.text()?.trim().to_string();
            t.parse::<i64>().ok()?;
            Some((n.attribute("x")?.parse().ok()?, n.attribute("y")?.parse().ok()?, t))
        })
        .collect();
    // The y axis's labels share the smallest x; the x axis's the largest y.
    let left = numbers.iter().map(|n| n.0).fold(f64::MAX, f64::min);
    let bottom = numbers.iter().map(|n| n.1).fold(f64::MIN, f64::max);
    for (axis, labels) in [
        (
            "y",
            numbers
                .iter()
                .filter(|n| (n.0 - left).abs() < 12.0 && (n.1 - bottom).abs() >= 2.0)
                .map(|n| n.2.clone())
                .collect::<Vec<_>>(),
        ),
        ("x", numbers.iter().filter(|n| (n.1 - bottom).abs() < 2.0).map(|n| n.2.clone()).collect::<Vec<_>>()),
    ] {
        assert!(labels.len() >= 2, "{axis}: {labels:?} of {numbers:?}");
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), labels.len(), "the {axis} axis repeats a number: {labels:?}");
    }
}
