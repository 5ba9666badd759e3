//! The charts of people across games: a player's ratings, a player's score curve against the field, and
//! two players side by side.

use crate::frame::*;
use plotters::prelude::*;

/// A player's rating after each of their games: a line per game played (`series`: its name, and
/// `[game number, rating]` points).
/// One game's rating of a player, after each of their games (`[game number, rating]`), with the day each
/// game was played.
pub struct RatingSeries {
    pub game: String,
    pub history: Vec<[f64; 2]>,
    pub dates: Vec<Option<String>>,
}

pub fn rating_history(player: &str, series: &[RatingSeries]) -> Result<String, ChartError> {
    let caption = format!("{player}'s rating, game by game");
    let finals: Vec<String> =
        series.iter().map(|s| format!("{} {:.1}", s.game, s.history.last().map_or(0.0, |p| p[1]))).collect();
    let desc = format!("Now: {}.", finals.join(", "));
    let legend: Vec<Entry> = series
        .iter()
        .enumerate()
        .map(|(k, s)| Entry::new(s.game.clone(), Swatch::Line(PALETTE[k % PALETTE.len()])))
        .collect();
    // With one game's rating, its games are labelled by the day they were played (the axis says so).
    let dated = match series {
        [one] if one.dates.iter().any(Option::is_some) => Some(&one.dates),
        _ => None,
    };
    svg_with(&caption, &desc, &legend, |root| {
        let points = series.iter().flat_map(|s| s.history.iter());
        let games = points.clone().map(|p| p[0]).fold(1.0, f64::max);
        let (low, high) = points.map(|p| p[1]).fold((0.0f64, 1.0f64), |(l, h), y| (l.min(y), h.max(y)));
        let mut chart = axes(root, &caption, 0f64..games + 0.5, (low - 1.0).floor()..(high + 1.0).ceil())?;
        mesh(&mut chart)
            .x_desc(if dated.is_some() { "game, by the day played" } else { "game" })
            .y_desc("rating (mu − 3 sigma)")
            // Games are whole: no label between two; a game's day where it has one.
            .x_label_formatter(&|x| {
                if (x - x.round()).abs() > 1e-9 || *x < 1.0 {
                    return String::new();
                }
                match dated.and_then(|d| d.get(x.round() as usize - 1)) {
                    Some(Some(day)) => day.clone(),
                    Some(None) => String::new(),
                    None => format!("{x:.0}"),
                }
            })
            .draw()
            .map_err(err)?;
        for (k, s) in series.iter().map(|s| &s.history).enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            chart.draw_series(LineSeries::new(s.iter().map(|p| (p[0], p[1])), color.stroke_width(2))).map_err(err)?;
            // A point per game, so that one game shows too.
            chart.draw_series(s.iter().map(|p| Circle::new((p[0], p[1]), 4, color.filled()))).map_err(err)?;
        }
        Ok(String::new())
    })
}

/// A player's mean score at the end of every fifth turn against the field's, over the games of one ruleset.
pub fn score_curve(
    caption: &str,
    player: &str,
    score: &str,
    mine: &[(f64, f64)],
    field: &[(f64, f64)],
) -> Result<String, ChartError> {
    let last = |s: &[(f64, f64)]| s.last().map_or("none".to_string(), |(t, v)| format!("{v:.1} at turn {t:.0}"));
    let desc = format!("{player}: {}; the field: {}.", last(mine), last(field));
    let grey = RGBColor(0x70, 0x70, 0x70);
    let legend = [Entry::new(player, Swatch::Line(PALETTE[0])), Entry::new("the field", Swatch::Line(grey))];
    svg_with(caption, &desc, &legend, |root| {
        let turns = mine.iter().chain(field).map(|p| p.0).fold(5.0, f64::max);
        let top = mine.iter().chain(field).map(|p| p.1).fold(1.0, f64::max) * 1.1;
        by_turn(root, caption, turns as u32, top.ceil() as i64, score, |chart| {
            for (series, color) in [(mine, PALETTE[0]), (field, grey)] {
                chart.draw_series(LineSeries::new(series.iter().copied(), color.stroke_width(2))).map_err(err)?;
                chart.draw_series(series.iter().map(|p| Circle::new(*p, 4, color.filled()))).map_err(err)?;
            }
            Ok(())
        })?;
        Ok(String::new())
    })
}

/// One number of two players on a side-by-side chart: what it is (in whole words, "lower is better" said
/// where it is), each player's value, and whose is the better (none where neither is, or it says nothing).
pub struct SideRow {
    pub what: String,
    pub a: f64,
    pub b: f64,
    pub a_better: Option<bool>,
}

/// Two players' numbers side by side: each number on its own scale (the larger of the two fills its half),
/// its words whole above its bars, the better of the two marked "better".
pub fn side_by_side(caption: &str, a: &str, b: &str, rows: &[SideRow]) -> Result<String, ChartError> {
    let listed: Vec<String> = rows
        .iter()
        .map(|r| {
            let better = match r.a_better {
                Some(true) => format!(" ({a} better)"),
                Some(false) => format!(" ({b} better)"),
                None => String::new(),
            };
            format!("{}: {a} {}, {b} {}{better}", r.what, whole(r.a), whole(r.b))
        })
        .collect();
    let desc = format!("{}.", listed.join("; "));
    let legend = [Entry::new(a, Swatch::Bar(PALETTE[0])), Entry::new(b, Swatch::Bar(PALETTE[1]))];
    svg_with(caption, &desc, &legend, |root| {
        let n = rows.len().max(1) as f64;
        // Each number takes a band: its words on top, then a's bar, then b's.
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(0)
            .y_label_area_size(0)
            .build_cartesian_2d(0f64..1.0, -0.5..n - 0.5)
            .map_err(err)?;
        let at = |k: usize| n - 1.0 - k as f64;
        let colors = [PALETTE[0], PALETTE[1]];
        chart
            .draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(k, r)| Text::new(r.what.clone(), (0.0, at(k) + 0.45), ("sans-serif", LABEL).into_font())),
            )
            .map_err(err)?;
        for (side, color) in colors.into_iter().enumerate() {
            let offset = if side == 0 { 0.02 } else { -0.26 };
            let length = |r: &SideRow| {
                let scale = r.a.abs().max(r.b.abs()).max(1e-9);
                let v = if side == 0 { r.a } else { r.b };
                (v.abs() / scale) * 0.72
            };
            chart
                .draw_series(rows.iter().enumerate().map(|(k, r)| {
                    Rectangle::new(
                        [(0.0, at(k) + offset - 0.1), (length(r).max(0.004), at(k) + offset + 0.1)],
                        color.filled(),
                    )
                }))
                .map_err(err)?;
            chart
                .draw_series(rows.iter().enumerate().map(|(k, r)| {
                    let v = if side == 0 { r.a } else { r.b };
                    let mine = r.a_better.map(|a_better| a_better == (side == 0));
                    let words = if mine == Some(true) { format!("{} · better", whole(v)) } else { whole(v) };
                    Text::new(words, (length(r) + 0.015, at(k) + offset + 0.08), ("sans-serif", LABEL).into_font())
                }))
                .map_err(err)?;
        }
        Ok(String::new())
    })
}
