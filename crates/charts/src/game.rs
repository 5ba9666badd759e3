//! The charts of one game, from its facts (`GameStats`) in the words its `Vocabulary` declares: points,
//! production, trades, dice, scores by source, gauges, and the win chances turn by turn.

use crate::frame::*;
use almanac_analysis::{GameStats, MomentMark, PlayerStats};
use almanac_core::{Chart, Term, Vocabulary};
use plotters::prelude::*;

/// The score per player by turn: total (solid) and public (dashed).
pub fn vp(stats: &GameStats, colors: &[Option<String>], vocabulary: &Vocabulary) -> Result<String, ChartError> {
    // Each chart is captioned by its name, as the page names it (`Chart::title`).
    let mut caption = Chart::Score.title(vocabulary);
    // A game where every point scored is seen by all has no second line to explain.
    let hidden = stats.players.iter().any(|p| p.vp_by_turn.iter().any(|r| r[1] != r[2]));
    if hidden {
        caption.push_str(" (dashed: public)");
    }
    let total = |p: &PlayerStats| p.vp_by_turn.iter().map(|r| (r[0], r[1])).collect();
    let public = |p: &PlayerStats| p.vp_by_turn.iter().map(|r| (r[0], r[2])).collect();
    let desc = format!("At the end: {}.", finals(stats, |p| p.vp_by_turn.last().map_or(0, |r| r[1])));
    let marks = Marks { moments: &stats.key_moments, vocabulary };
    let words = Words { caption: &caption, desc: &desc, y_desc: vocabulary.score.label };
    turn_lines(stats, colors, words, &total, hidden.then_some(&public as Series), Some(marks))
}

/// Items gained by production so far, per player, by turn.
pub fn production_by_turn(stats: &GameStats, colors: &[Option<String>]) -> Result<String, ChartError> {
    let produced = |p: &PlayerStats| p.production_by_turn.iter().map(|r| (r[0], r[1])).collect();
    let desc = format!("Produced in all: {}.", finals(stats, |p| p.production_by_turn.last().map_or(0, |r| r[1])));
    let words = Words { caption: "Production by turn (running total)", desc: &desc, y_desc: "cards" };
    turn_lines(stats, colors, words, &produced, None, None)
}

/// Items gained by production, per player, stacked by item: every item produced, in the order the game
/// declares its items (anything undeclared after them, never left out).
pub fn production(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let mut items: Vec<&str> = vocabulary.items.iter().map(|t| t.id).collect();
    for p in &stats.players {
        for item in p.production.keys() {
            if !items.contains(&item.as_str()) {
                items.push(item);
            }
        }
    }
    let layers: Vec<Layer> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| stats.players.iter().any(|p| p.production.contains_key(**item)))
        .map(|(k, item)| {
            let (color, label) = looks(vocabulary.items, item, k);
            Layer {
                label,
                color,
                values: stats.players.iter().map(|p| p.production.get(*item).copied().unwrap_or(0)).collect(),
            }
        })
        .collect();
    let desc = format!("Produced: {}.", finals(stats, |p| p.production.values().sum()));
    stacked_bars(stats, &Chart::Production.title(vocabulary), &desc, "cards", &layers)
}

/// Trades per turn (left) and who traded with whom (right: players, and the markets the game declares).
pub fn trades(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let desc = format!("Trades made: {}.", finals(stats, |p| p.trades.count));
    svg_with(&Chart::Trades.title(vocabulary), &desc, &[], |root| {
        let (left, right) = root.split_horizontally(WIDTH / 2);
        let turns = stats.turns.max(1);
        let top = stats.trades_by_turn.iter().copied().max().unwrap_or(0).max(1) as f64 + 0.5;
        let mut chart = axes(&left, "Trades per turn", 0f64..turns as f64 + 0.999, 0f64..top)?;
        mesh(&mut chart)
            .disable_x_mesh()
            .x_desc("turn")
            .y_desc("trades")
            .x_label_formatter(&whole_tick)
            .y_label_formatter(&whole_tick)
            .draw()
            .map_err(err)?;
        chart
            .draw_series(stats.trades_by_turn.iter().enumerate().filter(|(_, &n)| n > 0).map(|(t, &n)| {
                Rectangle::new([(t as f64 + 0.1, 0.0), (t as f64 + 0.9, n as f64)], RGBColor(0x1f, 0x5f, 0xbf).filled())
            }))
            .map_err(err)?;
        let (x, y) = chart.plotting_area().get_pixel_range();
        let targets = TurnTargets { x: (x.start, x.end), y: (y.start, y.end), turns: stats.turns };

        // The matrix: rows are players, columns every partner that occurs.
        let mut partners: Vec<String> = stats.players.iter().map(|p| p.name.clone()).collect();
        for p in &stats.players {
            for k in p.trades.partners.keys() {
                if !partners.contains(k) {
                    partners.push(k.clone());
                }
            }
        }
        let rows = stats.players.len();
        let cols = partners.len();
        let most = stats.players.iter().flat_map(|p| p.trades.partners.values().copied()).max().unwrap_or(0).max(1);
        right.titled("Who traded with whom", ("sans-serif", CAPTION)).map_err(err)?;
        let (w, h) = right.dim_in_pixel();
        // Row names whole where they fit in a third of the half; a longer one is shortened and says so.
        let label_w =
            stats.players.iter().map(|p| text_width(&p.name) as i32 + 8).max().unwrap_or(40).min(w as i32 / 3);
        let cell_w = ((w as i32 - label_w - 6) / cols.max(1) as i32).max(8);
        let top_y = 150i32;
        let cell_h = ((h as i32 - top_y - 8) / rows.max(1) as i32).clamp(8, 40);
        // Which way it reads: a row's trades with each column (a trade counts once for each side).
        let note = ("sans-serif", LABEL).into_font().color(&RGBColor(0x44, 0x44, 0x44));
        right.draw(&Text::new("row's trades with column", (2, 34), note)).map_err(err)?;
        // Column heads read upwards, so that every name fits its column.
        for (c, name) in partners.iter().enumerate() {
            let x = label_w + c as i32 * cell_w + cell_w / 2 + 7;
            let label = vocabulary.partner(name).map_or(name.as_str(), |t| t.label);
            let short = fitted(label, top_y as u32 - 10);
            let font = ("sans-serif", LABEL).into_font().transform(FontTransform::Rotate270);
            right.draw(&Text::new(short, (x, top_y - 6), font)).map_err(err)?;
        }
        for (r, p) in stats.players.iter().enumerate() {
            let y = top_y + r as i32 * cell_h;
            let short = fitted(&p.name, label_w as u32 - 8);
            right.draw(&Text::new(short, (2, y + cell_h / 2 - 8), ("sans-serif", LABEL).into_font())).map_err(err)?;
            for (c, partner) in partners.iter().enumerate() {
                let n = p.trades.partners.get(partner).copied().unwrap_or(0);
                let x = label_w + c as i32 * cell_w;
                let strength = n as f64 / most as f64;
                let shade = 1.0 - 0.85 * strength;
                let fill = RGBColor((255.0 * shade) as u8, (255.0 * shade) as u8, 255);
                right.draw(&Rectangle::new([(x, y), (x + cell_w - 2, y + cell_h - 2)], fill.filled())).map_err(err)?;
                if n > 0 {
                    // White on the dark cells, black on the light ones.
                    let ink = if strength > 0.5 { WHITE } else { BLACK };
                    let text = ("sans-serif", LABEL).into_font().color(&ink);
                    right.draw(&Text::new(n.to_string(), (x + 4, y + cell_h / 2 - 8), text)).map_err(err)?;
                }
            }
        }
        Ok(targets.svg())
    })
}

/// Dice sums rolled (bars) against the expected number for as many rolls (points), for the dice the game
/// declares.
pub fn dice(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let spec = vocabulary.dice.unwrap_or(almanac_core::DiceSpec { count: 2, faces: 6 });
    let sums = spec.sums();
    let (low, high) = (*sums.start(), *sums.end());
    let rolls: i64 = stats.dice.values().sum();
    let most = stats
        .dice
        .iter()
        .max_by_key(|(_, n)| **n)
        .map_or(String::new(), |(s, n)| format!(" {s} came most, {n} times."));
    let desc = format!("{rolls} rolls.{most}");
    let caption = format!("Dice: {rolls} rolls against the expected distribution");
    let blue = RGBColor(0x1f, 0x5f, 0xbf);
    let legend = [Entry::new("rolled", Swatch::Bar(blue)), Entry::new("expected", Swatch::Dot(BLACK))];
    svg_with(&caption, &desc, &legend, |root| {
        let expected = |s: u32| rolls as f64 * spec.chance(s);
        let rolled = |s: u32| stats.dice.get(&s.to_string()).copied().unwrap_or(0) as f64;
        let top = sums.clone().map(|s| rolled(s).max(expected(s))).fold(0.0, f64::max) * 1.15 + 1.0;
        let mut chart = axes(root, &caption, low as f64 - 0.5..high as f64 + 0.5, 0f64..top)?;
        mesh(&mut chart)
            .disable_x_mesh()
            .x_labels((high - low + 1) as usize)
            .x_label_formatter(&whole_tick)
            // Counts are whole: no 5.0 and no ticks between them.
            .y_labels(10)
            .y_label_formatter(&whole_tick)
            .y_desc("rolls")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(sums.clone().map(|s| {
                let n = rolled(s);
                Rectangle::new([(s as f64 - 0.35, 0.0), (s as f64 + 0.35, n)], blue.mix(0.8).filled())
            }))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(sums.clone().map(|s| (s as f64, expected(s))), BLACK.stroke_width(1)))
            .map_err(err)?;
        chart
            .draw_series(sums.clone().map(|s| Circle::new((s as f64, expected(s)), 4, BLACK.filled())))
            .map_err(err)?;
        Ok(String::new())
    })
}

/// The final score of each player broken down by what scored it (city, road, field, goods ...), in the
/// order and colours the game declares its reasons.
pub fn score_breakdown(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let mut reasons: Vec<&str> = vocabulary.score_reasons.iter().map(|t| t.id).collect();
    for p in &stats.players {
        for reason in p.vp_by_reason.keys() {
            if !reasons.contains(&reason.as_str()) {
                reasons.push(reason);
            }
        }
    }
    let layers: Vec<Layer> = reasons
        .iter()
        .enumerate()
        .filter(|(_, r)| stats.players.iter().any(|p| p.vp_by_reason.get(**r).is_some_and(|&v| v != 0)))
        .map(|(k, reason)| {
            let (color, label) = looks(vocabulary.score_reasons, reason, k);
            Layer {
                label,
                color,
                values: stats.players.iter().map(|p| p.vp_by_reason.get(*reason).copied().unwrap_or(0)).collect(),
            }
        })
        .collect();
    let desc = format!("Final {}: {}.", vocabulary.score.label, finals(stats, |p| p.vp_by_reason.values().sum()));
    stacked_bars(stats, &Chart::ScoreBreakdown.title(vocabulary), &desc, vocabulary.score.label, &layers)
}

/// Points by what scored them, all players together, by turn: a line per reason in its declared colour.
pub fn score_by_source(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let caption = Chart::ScoreBySource.title(vocabulary);
    let finals: Vec<String> = stats
        .score_by_reason
        .iter()
        .enumerate()
        .map(|(k, (r, series))| {
            format!("{} {}", looks(vocabulary.score_reasons, r, k).1, series.last().map_or(0, |p| p[1]))
        })
        .collect();
    let desc = format!("At the end, all players together: {}.", finals.join(", "));
    let legend: Vec<Entry> = stats
        .score_by_reason
        .iter()
        .enumerate()
        .map(|(k, (reason, _))| {
            let (color, label) = looks(vocabulary.score_reasons, reason, k);
            Entry::new(label, Swatch::Line(color))
        })
        .collect();
    svg_with(&caption, &desc, &legend, |root| {
        let top = stats.score_by_reason.iter().flat_map(|(_, s)| s.iter().map(|p| p[1])).max().unwrap_or(0).max(2) + 1;
        by_turn(root, &caption, stats.turns, top, vocabulary.score.label, |chart| {
            for (k, (reason, series)) in stats.score_by_reason.iter().enumerate() {
                let (color, _) = looks(vocabulary.score_reasons, reason, k);
                let points = series.iter().map(|p| (p[0] as f64 + 0.5, p[1] as f64));
                chart.draw_series(LineSeries::new(points, color.stroke_width(2))).map_err(err)?;
            }
            let (x, y) = chart.plotting_area().get_pixel_range();
            Ok(TurnTargets { x: (x.start, x.end), y: (y.start, y.end), turns: stats.turns }.svg())
        })
    })
}

/// The game's gauges by turn, a line each in its declared colour, and its moments as marks along the top,
/// each kind in its colour (a battle won, a battle lost ...).
pub fn gauges(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let caption = Chart::Gauges.title(vocabulary);
    let finals: Vec<String> =
        stats.gauges.iter().map(|g| format!("{} {}", g.label, g.by_turn.last().map_or(0, |r| r[1]))).collect();
    let mut desc = format!("At the end: {}.", finals.join(", "));
    for t in vocabulary.moments {
        let turns: Vec<String> = stats.moments.iter().filter(|m| m.id == t.id).map(|m| m.turn.to_string()).collect();
        if !turns.is_empty() {
            desc.push_str(&format!(" {} in turn {}.", t.label, turns.join(", ")));
        }
    }
    // The moment kinds that happened, each in its colour.
    let kinds: Vec<(&Term, RGBColor, String)> = vocabulary
        .moments
        .iter()
        .enumerate()
        .filter(|(_, t)| stats.moments.iter().any(|m| m.id == t.id))
        .map(|(k, t)| {
            let (color, label) = looks(vocabulary.moments, t.id, k + stats.gauges.len());
            (t, color, label)
        })
        .collect();
    let mut legend: Vec<Entry> = stats
        .gauges
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let (color, label) = looks(vocabulary.gauges, g.id, k);
            Entry::new(label, Swatch::Line(color))
        })
        .collect();
    legend.extend(kinds.iter().map(|(_, color, label)| Entry::new(label.clone(), Swatch::Mark(*color))));
    svg_with(&caption, &desc, &legend, |root| {
        let top = stats.gauges.iter().flat_map(|g| g.by_turn.iter().map(|r| r[1])).max().unwrap_or(0).max(2) + 2;
        by_turn(root, &caption, stats.turns, top, "", |chart| {
            for (k, g) in stats.gauges.iter().enumerate() {
                let (color, _) = looks(vocabulary.gauges, g.id, k);
                let points = g.by_turn.iter().map(|r| (r[0] as f64 + 0.5, r[1] as f64));
                chart.draw_series(LineSeries::new(points, color.stroke_width(2))).map_err(err)?;
            }
            let y = top as f64 - 0.6;
            let mut marks = Vec::new();
            for (t, color, label) in &kinds {
                let at: Vec<&MomentMark> = stats.moments.iter().filter(|m| m.id == t.id).collect();
                chart
                    .draw_series(at.iter().map(|m| {
                        let x = m.turn as f64 + 0.5;
                        PathElement::new(vec![(x, 0.0), (x, y)], color.mix(0.35).stroke_width(1))
                    }))
                    .map_err(err)?;
                for m in at {
                    let (px, py) = chart.backend_coord(&(m.turn as f64 + 0.5, y));
                    let whose = m.player.as_ref().map_or(String::new(), |p| format!(" ({p})"));
                    marks.push((px, py, *color, format!("turn {}: {label}{whose}", m.turn)));
                }
            }
            let (x, y) = chart.plotting_area().get_pixel_range();
            let targets = TurnTargets { x: (x.start, x.end), y: (y.start, y.end), turns: stats.turns };
            Ok(format!("{}{}", targets.svg(), marks_svg(&marks)))
        })
    })
}

/// Each seat's chance to win at the end of every turn (`chances[t][seat]`, 0 to 1; none for a turn whose
/// chances are withheld, which the chart leaves blank) with its 95 % interval shaded about it (`spread[t]
/// [seat]`: the chance's standard error), and the turns where a chance moved most marked along the top, each
/// saying who and how far (`marks`: turn and words).
pub fn win_chances(
    players: &[String],
    colors: &[Option<String>],
    chances: &[Option<Vec<f64>>],
    spread: &[Option<Vec<f64>>],
    marks: &[(u32, String)],
) -> Result<String, ChartError> {
    let caption = "Chance to win, by turn";
    let last = chances.iter().rev().flatten().next();
    let finals: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(s, name)| format!("{name} {:.0}%", last.map_or(0.0, |c| c[s]) * 100.0))
        .collect();
    let desc = match chances.iter().position(Option::is_some) {
        Some(0) => format!("At the end: {}.", finals.join(", ")),
        Some(t) => format!("From turn {t} (none shown before it). At the end: {}.", finals.join(", ")),
        None => "No chance is shown for any turn.".to_string(),
    };
    let color_of = |i: usize| player_color(colors.get(i).and_then(|c| c.as_deref()), i);
    let mut legend: Vec<Entry> =
        players.iter().enumerate().map(|(i, p)| Entry::new(p.clone(), Swatch::Line(color_of(i)))).collect();
    legend.push(Entry::new(
        "shaded: each chance's 95 % interval (the model's own uncertainty)",
        Swatch::Bar(RGBColor(0xcc, 0xcc, 0xcc)),
    ));
    let mark = RGBColor(0x8e, 0x44, 0xad);
    if !marks.is_empty() {
        legend.push(Entry::new("where a chance moved most", Swatch::Mark(mark)));
    }
    let turns = chances.len().saturating_sub(1) as u32;
    svg_with(caption, &desc, &legend, |root| {
        by_turn(root, caption, turns, 108, "chance to win (%)", |chart| {
            let shown = || chances.iter().enumerate().filter_map(|(t, c)| c.as_ref().map(|c| (t, c)));
            for s in 0..players.len() {
                // The band: the interval's top from the first turn to the last, then its bottom back.
                let half = |t: usize| spread.get(t).and_then(|r| r.as_ref()).map_or(0.0, |r| 1.96 * r[s]);
                let top = shown().map(|(t, c)| (t as f64 + 0.5, ((c[s] + half(t)).min(1.0)) * 100.0));
                let bottom: Vec<(f64, f64)> =
                    shown().map(|(t, c)| (t as f64 + 0.5, ((c[s] - half(t)).max(0.0)) * 100.0)).collect();
                let band: Vec<(f64, f64)> = top.chain(bottom.into_iter().rev()).collect();
                if band.len() > 2 {
                    chart
                        .draw_series(std::iter::once(Polygon::new(band, color_of(s).mix(0.15).filled())))
                        .map_err(err)?;
                }
            }
            for s in 0..players.len() {
                let points = shown().map(|(t, c)| (t as f64 + 0.5, c[s] * 100.0));
                chart.draw_series(LineSeries::new(points, color_of(s).stroke_width(2))).map_err(err)?;
            }
            let drawn: Vec<(i32, i32, RGBColor, String)> = marks
                .iter()
                .map(|(t, words)| {
                    let (x, y) = chart.backend_coord(&(*t as f64 + 0.5, 104.0));
                    (x, y, mark, format!("turn {t}: {words}"))
                })
                .collect();
            let (x, y) = chart.plotting_area().get_pixel_range();
            let targets = TurnTargets { x: (x.start, x.end), y: (y.start, y.end), turns };
            Ok(format!("{}{}", targets.svg(), marks_svg(&drawn)))
        })
    })
}
