//! The chart of a question's answer: a bar per group with its interval.

use crate::frame::*;
use plotters::prelude::*;

/// One group of a question's answer as its chart draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerBar {
    pub label: String,
    pub value: f64,
    /// The 95 % interval around the value, drawn as a whisker, where there is one.
    pub interval: Option<(f64, f64)>,
    /// Behind too few games to rank: drawn pale.
    pub thin: bool,
    /// What a fair game gives this group (a win rate's 1/n), drawn as a mark across the bar.
    pub fair: Option<f64>,
}

/// The answer to a question across games: one horizontal bar per group (the first 20, in the order given),
/// its value written at its end, its interval as a whisker, a fair game's share as a dark mark, thin groups
/// pale. `percent`: values are rates from 0 to 1, drawn as percentages.
pub fn answer(question: &str, groups: &[AnswerBar], percent: bool) -> Result<String, ChartError> {
    const SHOWN: usize = 20;
    let shown = &groups[..groups.len().min(SHOWN)];
    // A few points of percent (a chance gained in a turn) keep a decimal.
    let show = |v: f64| {
        if percent {
            format!("{:.*}%", if (v * 100.0).abs() < 10.0 && v != 0.0 { 1 } else { 0 }, v * 100.0)
        } else {
            format!("{v:.2}")
        }
    };
    let listed: Vec<String> = shown
        .iter()
        .map(|b| {
            let mut said = format!("{} {}", b.label, show(b.value));
            if let Some((low, high)) = b.interval {
                said += &format!(" ({} to {})", show(low), show(high));
            }
            if let Some(fair) = b.fair {
                said += &format!(", fair {}", show(fair));
            }
            if b.thin {
                said += ", too few games to rank";
            }
            said
        })
        .collect();
    let more = groups.len().saturating_sub(SHOWN);
    let desc = if more > 0 {
        format!("{}; {more} more in the table.", listed.join(", "))
    } else {
        format!("{}.", listed.join(", "))
    };
    let color = RGBColor(0x1f, 0x5f, 0xbf);
    let ink = RGBColor(0x22, 0x22, 0x22);
    let fair_ink = RGBColor(0xb0, 0x30, 0x00);
    // The pale bar as it shows on white.
    let pale = |c: u8| (0.3 * c as f64 + 0.7 * 255.0).round() as u8;
    let mut legend = Vec::new();
    if shown.iter().any(|b| b.interval.is_some()) {
        legend.push(Entry::new("95 % interval", Swatch::Line(ink)));
    }
    if shown.iter().any(|b| b.fair.is_some()) {
        legend.push(Entry::new("a fair game's share", Swatch::Line(fair_ink)));
    }
    if shown.iter().any(|b| b.thin) {
        legend.push(Entry::new(
            "too few games to rank",
            Swatch::Bar(RGBColor(pale(color.0), pale(color.1), pale(color.2))),
        ));
    }
    svg_with(question, &desc, &legend, |root| {
        // The axis holds every value, whisker and mark.
        let ends = || {
            shown
                .iter()
                .flat_map(|b| [Some(b.value), b.interval.map(|i| i.0), b.interval.map(|i| i.1), b.fair])
                .flatten()
        };
        // To the largest end, not to 100 %: a few points of percent would not show on a whole axis.
        let top = ends().fold(0.0, f64::max).max(1e-9) * 1.15;
        let low = ends().fold(0.0, f64::min) * 1.15;
        let rows = shown.len().max(1) as f64;
        let longest = shown.iter().map(|b| b.label.chars().count()).max().unwrap_or(4).min(24) as u32;
        // As many decimals as the ticks' step needs (about a tenth of the axis), so no two ticks read alike.
        let span = (top - low).max(1e-9) * if percent { 100.0 } else { 1.0 };
        let decimals = (-(span / 10.0).log10()).ceil().max(0.0) as usize;
        let mut chart = ChartBuilder::on(root)
            .caption(question, ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(longest * 8 + 16)
            .build_cartesian_2d(low..top, -0.5..rows - 0.5)
            .map_err(err)?;
        let label_of = |y: &f64| -> String {
            let k = y.round();
            if (y - k).abs() > 1e-6 || k < 0.0 {
                return String::new();
            }
            // The first group is drawn at the top.
            let index = shown.len() as f64 - 1.0 - k;
            if index < 0.0 {
                return String::new();
            }
            shown.get(index as usize).map_or(String::new(), |b| b.label.chars().take(24).collect())
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .label_style(("sans-serif", LABEL))
            .light_line_style(WHITE.mix(0.0))
            .y_labels(shown.len().max(1))
            .y_label_formatter(&label_of)
            .x_label_formatter(&|x| {
                if percent {
                    format!("{:.*}%", decimals, x * 100.0)
                } else {
                    format!("{x:.decimals$}")
                }
            })
            .draw()
            .map_err(err)?;
        let at = |k: usize| rows - 1.0 - k as f64;
        chart
            .draw_series(shown.iter().enumerate().map(|(k, b)| {
                let fill = if b.thin { color.mix(0.3) } else { color.mix(0.85) };
                Rectangle::new([(0.0, at(k) - 0.35), (b.value, at(k) + 0.35)], fill.filled())
            }))
            .map_err(err)?;
        // The whisker: a line across the interval with a short end at each side.
        for (k, b) in shown.iter().enumerate() {
            let Some((from, to)) = b.interval else { continue };
            let y = at(k);
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(from, y), (to, y)], ink.stroke_width(2))))
                .map_err(err)?;
            for end in [from, to] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(end, y - 0.15), (end, y + 0.15)],
                        ink.stroke_width(2),
                    )))
                    .map_err(err)?;
            }
        }
        chart
            .draw_series(shown.iter().enumerate().filter_map(|(k, b)| {
                let fair = b.fair?;
                Some(PathElement::new(vec![(fair, at(k) - 0.42), (fair, at(k) + 0.42)], fair_ink.stroke_width(3)))
            }))
            .map_err(err)?;
        // The value just past the bar and its whisker.
        chart
            .draw_series(shown.iter().enumerate().map(|(k, b)| {
                let end = b.interval.map_or(b.value, |i| i.1.max(b.value)).max(0.0);
                Text::new(show(b.value), (end + top * 0.01, at(k) + 0.15), ("sans-serif", LABEL).into_font())
            }))
            .map_err(err)?;
        Ok(String::new())
    })
}
