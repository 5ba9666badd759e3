//! Charts of a game as SVG, drawn with plotters from `almanac_analysis::GameStats` (facts only), in the
//! words and colours the game's `Vocabulary` declares; no chart knows a game.
//!
//! Text is laid out with one embedded font (DejaVu Sans, `fonts/`), so a server without system fonts
//! draws the same charts. Charts with a turn axis carry invisible `<rect class="turn-target" data-turn="N">`
//! columns over the plot, so a page can move its replay to the turn a reader clicks.

use almanac_analysis::{GameStats, KeyMoment, MomentMark, PlayerStats, LEAD};
use almanac_core::{Chart, Term, Vocabulary};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::sync::Once;

const WIDTH: u32 = 760;
const HEIGHT: u32 = 380;
/// Text sizes as plotters takes them (it writes `font-size` as the size / 1.24). The dashboard never shows
/// a chart narrower than 620 px (a phone scrolls it sideways), so labels stay at 12 px or more as rendered.
const CAPTION: u32 = 24;
const LABEL: u32 = 19;

/// Why a chart could not be drawn (plotters reports drawing errors as text).
#[derive(Debug)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chart: {}", self.0)
    }
}

impl std::error::Error for ChartError {}

fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    ChartError(format!("{e:?}"))
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let font: &'static [u8] = include_bytes!("../fonts/DejaVuSans.ttf");
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font("sans-serif", style, font)
                .map_err(|_| "font")
                .expect("the embedded font is valid");
        }
    });
}

/// A player's colour by the name in the header (core's table: the replay draws the same), darkened only where
/// it would vanish on the chart's white (a white player's line, below 1.5:1); the legend names every line, so
/// a seat keeps its colour rather than taking a darker one that reads less as itself.
pub fn player_color(name: Option<&str>, seat: usize) -> RGBColor {
    use almanac_core::colours;
    let css = colours::player_colour(name, seat);
    let [r, g, b] = colours::darkened_against(colours::rgb(css).expect("the table is hex"), [255, 255, 255], 1.5);
    RGBColor(r, g, b)
}

/// Colours for words a game gave none.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0x1f, 0x5f, 0xbf),
    RGBColor(0xf3, 0x9c, 0x12),
    RGBColor(0x16, 0xa0, 0x85),
    RGBColor(0x8e, 0x44, 0xad),
    RGBColor(0xc0, 0x39, 0x2b),
    RGBColor(0x7f, 0x8c, 0x8d),
];

/// A CSS hex colour (`#2e7d32`) as RGB.
fn hex_color(css: &str) -> Option<RGBColor> {
    almanac_core::colours::rgb(css).map(|[r, g, b]| RGBColor(r, g, b))
}

/// The colour and label of a word: as the game declares them, else a palette colour and the id.
fn looks(terms: &[Term], id: &str, k: usize) -> (RGBColor, String) {
    match terms.iter().find(|t| t.id == id) {
        Some(t) => (t.color.and_then(hex_color).unwrap_or(PALETTE[k % PALETTE.len()]), t.label.to_string()),
        None => (PALETTE[k % PALETTE.len()], id.replace('_', " ")),
    }
}

/// Draws one of the charts a game may declare.
pub fn draw(
    chart: Chart,
    stats: &GameStats,
    vocabulary: &Vocabulary,
    colors: &[Option<String>],
) -> Result<String, ChartError> {
    match chart {
        Chart::Score => vp(stats, colors, vocabulary),
        Chart::Production => production(stats, vocabulary),
        Chart::ProductionByTurn => production_by_turn(stats, colors),
        Chart::Trades => trades(stats, vocabulary),
        Chart::Dice => dice(stats, vocabulary),
        Chart::ScoreBreakdown => score_breakdown(stats, vocabulary),
        Chart::Gauges => gauges(stats, vocabulary),
        Chart::ScoreBySource => score_by_source(stats, vocabulary),
    }
}

/// Draws a chart and names it for people who cannot see it: `role="img"`, a `<title>` and a `<desc>`.
/// `draw` draws the plot in the top `HEIGHT` pixels and returns what it lays over them (click targets,
/// marks with their words); the legend's rows go under the plot, where no series is drawn.
fn svg_with<F>(title: &str, desc: &str, legend: &[Entry], draw: F) -> Result<String, ChartError>
where
    F: FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<String, ChartError>,
{
    register_font();
    let legend = Legend::lay_out(legend);
    let mut svg = String::new();
    let overlay;
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT + legend.height())).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, _) = root.split_vertically(HEIGHT);
        overlay = draw(&plot)?;
        root.present().map_err(err)?;
    }
    let added = format!("{overlay}{}</svg>", legend.svg());
    let svg = match svg.rfind("</svg>") {
        Some(i) => format!("{}{added}", &svg[..i]),
        None => svg,
    };
    Ok(named(svg, title, desc))
}

/// How a legend entry shows its series: a line, a bar's colour, a point, a mark along the top.
#[derive(Clone, Copy)]
enum Swatch {
    Line(RGBColor),
    Bar(RGBColor),
    Dot(RGBColor),
    Mark(RGBColor),
}

/// A series' name and how it looks, for the legend.
struct Entry {
    label: String,
    swatch: Swatch,
}

impl Entry {
    fn new(label: impl Into<String>, swatch: Swatch) -> Entry {
        Entry { label: label.into(), swatch }
    }
}

/// The legend's entries in rows under the plot, left to right, as many to a row as fit.
struct Legend {
    /// Each entry's left edge, row and (shortened to fit, if it must) label.
    placed: Vec<(u32, u32, String, Swatch)>,
    rows: u32,
}

const LEGEND_ROW: u32 = 26;
const SWATCH: u32 = 22;

impl Legend {
    fn lay_out(entries: &[Entry]) -> Legend {
        let mut placed = Vec::new();
        let (mut x, mut row) = (12u32, 0u32);
        for e in entries {
            // A label longer than a whole row is shortened, and says so.
            let label = fitted(&e.label, WIDTH - 24 - SWATCH - 6);
            let w = SWATCH + 6 + text_width(&label) + 22;
            if x > 12 && x + w > WIDTH - 12 {
                x = 12;
                row += 1;
            }
            placed.push((x, row, label, e.swatch));
            x += w;
        }
        let rows = if placed.is_empty() { 0 } else { row + 1 };
        Legend { placed, rows }
    }

    fn height(&self) -> u32 {
        if self.rows == 0 {
            0
        } else {
            self.rows * LEGEND_ROW + 10
        }
    }

    /// The legend as SVG: a `g.legend` whose first rect is its box.
    fn svg(&self) -> String {
        if self.rows == 0 {
            return String::new();
        }
        let css = |c: RGBColor| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
        let mut out = format!(
            "<g class=\"legend\"><rect x=\"0\" y=\"{HEIGHT}\" width=\"{WIDTH}\" height=\"{}\" fill=\"white\"/>",
            self.height()
        );
        for (x, row, label, swatch) in &self.placed {
            let y = HEIGHT + 4 + row * LEGEND_ROW + LEGEND_ROW / 2;
            out.push_str(&match *swatch {
                Swatch::Line(c) => format!(
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{}\" stroke-width=\"3\"/>",
                    x + SWATCH,
                    css(c)
                ),
                Swatch::Bar(c) => {
                    format!("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\"/>", x + 4, y - 7, css(c))
                }
                Swatch::Dot(c) => format!("<circle cx=\"{}\" cy=\"{y}\" r=\"5\" fill=\"{}\"/>", x + SWATCH / 2, css(c)),
                Swatch::Mark(c) => {
                    format!("<polygon points=\"{}\" fill=\"{}\"/>", triangle(x + SWATCH / 2, y, 6), css(c))
                }
            });
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{y}\" dominant-baseline=\"middle\" font-family=\"sans-serif\" font-size=\"{:.2}\" fill=\"#000000\">{}</text>",
                x + SWATCH + 6,
                LABEL as f64 / 1.24,
                escape(label)
            ));
        }
        out.push_str("</g>");
        out
    }
}

/// How wide a label is drawn, in pixels.
fn text_width(text: &str) -> u32 {
    register_font();
    ("sans-serif", LABEL).into_font().box_size(text).map_or(text.chars().count() as u32 * 9, |(w, _)| w)
}

/// A label shortened, with "…", until it is at most `width` pixels wide.
fn fitted(text: &str, width: u32) -> String {
    let mut label = text.to_string();
    while text_width(&label) > width && label.chars().count() > 2 {
        label = label.chars().take(label.chars().count() - 2).collect::<String>() + "…";
    }
    label
}

/// A triangle pointing down at `(x, y)`, `size` pixels from its centre to a corner.
fn triangle(x: u32, y: u32, size: u32) -> String {
    let (x, y, s) = (x as f64, y as f64, size as f64);
    format!("{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}", x - s, y - s * 0.6, x + s, y - s * 0.6, x, y + s * 0.8)
}

/// Marks along the top of a plot, each with its words for a reader's pointer and screen reader: a
/// `<title>` per mark.
fn marks_svg(marks: &[(i32, i32, RGBColor, String)]) -> String {
    let mut out = String::from("<g class=\"moments\">");
    for (x, y, c, words) in marks {
        out.push_str(&format!(
            "<polygon class=\"moment\" points=\"{}\" fill=\"#{:02x}{:02x}{:02x}\"><title>{}</title></polygon>",
            triangle((*x).max(0) as u32, (*y).max(0) as u32, 6),
            c.0,
            c.1,
            c.2,
            escape(words)
        ));
    }
    out.push_str("</g>");
    out
}

/// Adds `role`, `<title>` and `<desc>` to an SVG document (the text escaped).
fn named(svg: String, title: &str, desc: &str) -> String {
    let Some(open) = svg.find("<svg") else { return svg };
    let Some(end) = svg[open..].find('>').map(|i| open + i) else { return svg };
    // Ids from the title, so that several charts inlined in one page keep theirs apart.
    let slug: String = title.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    format!(
        "{} role=\"img\" aria-labelledby=\"{slug}-title {slug}-desc\">\n<title id=\"{slug}-title\">{}</title><desc id=\"{slug}-desc\">{}</desc>{}",
        &svg[..end],
        escape(title),
        escape(desc),
        &svg[end + 1..]
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// "Ayşe 10, Bora 7": each player's final number, for a chart's description.
fn finals(stats: &GameStats, value: impl Fn(&PlayerStats) -> i64) -> String {
    stats.players.iter().map(|p| format!("{} {}", p.name, value(p))).collect::<Vec<_>>().join(", ")
}

/// Where the turns are on a chart's x axis, in pixels.
struct TurnTargets {
    x: (i32, i32),
    y: (i32, i32),
    turns: u32,
}

impl TurnTargets {
    fn svg(&self) -> String {
        let mut rects = String::from("<g class=\"turn-targets\">");
        let width = (self.x.1 - self.x.0) as f64 / (self.turns as f64 + 1.0);
        for turn in 0..=self.turns {
            let x = self.x.0 as f64 + width * turn as f64;
            rects.push_str(&format!(
                "<rect class=\"turn-target\" data-turn=\"{turn}\" x=\"{x:.1}\" y=\"{}\" width=\"{:.1}\" height=\"{}\" fill=\"transparent\"><title>turn {turn}</title></rect>",
                self.y.0,
                width.max(1.0),
                self.y.1 - self.y.0
            ));
        }
        rects.push_str("</g>");
        rects
    }
}

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

/// `(turn, value)` points of one player.
type Series<'a> = &'a dyn Fn(&PlayerStats) -> Vec<(i64, i64)>;

/// Key moments to mark along the top of a chart by turn, in the game's words.
#[derive(Clone, Copy)]
struct Marks<'a> {
    moments: &'a [KeyMoment],
    vocabulary: &'a Vocabulary,
}

/// A turn, and what happened in it.
type Said = (u32, String);

impl Marks<'_> {
    /// Each kind of mark present: its colour and legend, and the turns it marks, each with what happened
    /// ("Ayşe takes the longest road").
    fn kinds(&self) -> Vec<(RGBColor, String, Vec<Said>)> {
        let mut out: Vec<(String, RGBColor, String, Vec<Said>)> = Vec::new();
        for m in self.moments {
            let (key, color, label) = if m.id == LEAD {
                ("lead".to_string(), RGBColor(0x2e, 0x7d, 0x32), "the winner pulls ahead for good".to_string())
            } else if let Some(t) = self.vocabulary.moments.iter().find(|t| t.id == m.id) {
                (t.id.to_string(), t.color.and_then(hex_color).unwrap_or(PALETTE[2]), t.label.to_string())
            } else {
                ("award".to_string(), RGBColor(0xf3, 0x9c, 0x12), "an award changes hands".to_string())
            };
            let words = match &m.player {
                Some(who) => format!("{who} {}", m.label),
                None => m.label.clone(),
            };
            match out.iter_mut().find(|(k, ..)| *k == key) {
                Some(entry) => match entry.3.iter_mut().find(|(t, _)| *t == m.turn) {
                    Some((_, said)) => *said = format!("{said}; {words}"),
                    None => entry.3.push((m.turn, words)),
                },
                None => out.push((key, color, label, vec![(m.turn, words)])),
            }
        }
        out.into_iter().map(|(_, c, l, t)| (c, l, t)).collect()
    }
}

/// A line per player by turn (and a dashed one beside it, if given), with clickable turns.
/// What a chart says in words: its caption, its description for screen readers, its vertical axis.
struct Words<'a> {
    caption: &'a str,
    desc: &'a str,
    y_desc: &'a str,
}

fn turn_lines(
    stats: &GameStats,
    colors: &[Option<String>],
    words: Words,
    solid: Series,
    dashed: Option<Series>,
    marks: Option<Marks>,
) -> Result<String, ChartError> {
    let Words { caption, desc, y_desc } = words;
    // Players level with each other would hide one another's line: each is drawn a hair apart.
    let n = stats.players.len().max(1) as f64;
    let apart = |i: usize| (i as f64 - (n - 1.0) / 2.0) * 0.07;
    let points = |series: Series, i: usize, p: &PlayerStats| -> Vec<(f64, f64)> {
        series(p).into_iter().map(|(turn, v)| (turn as f64 + 0.5, v as f64 + apart(i))).collect()
    };
    let kinds = marks.map(|m| m.kinds()).unwrap_or_default();
    let color_of = |i: usize| player_color(colors.get(i).and_then(|c| c.as_deref()), i);
    let mut legend: Vec<Entry> =
        stats.players.iter().enumerate().map(|(i, p)| Entry::new(p.name.clone(), Swatch::Line(color_of(i)))).collect();
    legend.extend(kinds.iter().map(|(color, label, _)| Entry::new(label.clone(), Swatch::Mark(*color))));
    svg_with(caption, desc, &legend, |root| {
        let room = if kinds.is_empty() { 1 } else { 2 };
        let top =
            stats.players.iter().flat_map(|p| solid(p).into_iter().map(|(_, v)| v)).max().unwrap_or(0).max(2) + room;
        by_turn(root, caption, stats.turns, top, y_desc, |chart| {
            for (i, p) in stats.players.iter().enumerate() {
                let color = color_of(i);
                chart.draw_series(LineSeries::new(points(solid, i, p), color.stroke_width(2))).map_err(err)?;
                if let Some(dashed) = dashed {
                    chart
                        .draw_series(DashedLineSeries::new(points(dashed, i, p), 4, 4, color.stroke_width(1)))
                        .map_err(err)?;
                }
            }
            // Key moments: a row of marks per kind along the top, at each turn it happened, each saying what.
            let mut marks = Vec::new();
            for (k, (color, _, turns)) in kinds.iter().enumerate() {
                let y = top as f64 - 0.3 - 0.35 * k as f64;
                for (t, words) in turns {
                    let (px, py) = chart.backend_coord(&(*t as f64 + 0.5, y));
                    marks.push((px, py, *color, format!("turn {t}: {words}")));
                }
            }
            let (x, y) = chart.plotting_area().get_pixel_range();
            let targets = TurnTargets { x: (x.start, x.end), y: (y.start, y.end), turns: stats.turns };
            // The marks over the click targets, so that a pointer on a mark reads it.
            Ok(format!("{}{}", targets.svg(), marks_svg(&marks)))
        })
    })
}

type TurnChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A tick's label on an axis of whole things (turns, points, counts): the number where the tick is on one,
/// nothing between (a short game's axis has ticks at 0.25, 0.5..., which rounded would read 0 0 1 1).
fn whole_tick(v: &f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// Axes for values by turn (turns 0 to the last across, 0 to `top` up, whole numbers on both), on which
/// `draw` draws.
fn by_turn<'a, 'b: 'a, R>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: &str,
    turns: u32,
    top: i64,
    y_desc: &str,
    draw: impl FnOnce(&mut TurnChart<'a, 'b>) -> Result<R, ChartError>,
) -> Result<R, ChartError> {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", CAPTION))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..turns.max(1) as f64 + 0.999, 0f64..top as f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", LABEL))
        .axis_desc_style(("sans-serif", LABEL))
        .x_desc("turn")
        .y_desc(y_desc)
        .x_label_formatter(&whole_tick)
        .y_label_formatter(&whole_tick)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(err)?;
    draw(&mut chart)
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

/// One colour of a stacked bar chart: a value per player.
struct Layer {
    label: String,
    color: RGBColor,
    values: Vec<i64>,
}

/// A bar per player, stacked by layer, with the players' names under the bars.
fn stacked_bars(
    stats: &GameStats,
    caption: &str,
    desc: &str,
    y_desc: &str,
    layers: &[Layer],
) -> Result<String, ChartError> {
    let legend: Vec<Entry> = layers.iter().map(|l| Entry::new(l.label.clone(), Swatch::Bar(l.color))).collect();
    svg_with(caption, desc, &legend, |root| {
        let n = stats.players.len() as u32;
        let total = |i: usize| layers.iter().map(|l| l.values[i].max(0)).sum::<i64>();
        let top = (0..n as usize).map(total).max().unwrap_or(0).max(1) as f64 * 1.15;
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            // A segment per player: 0..n-1 (a range of n would add an empty one after the last).
            .build_cartesian_2d((0..n.max(1) - 1).into_segmented(), 0f64..top)
            .map_err(err)?;
        let names: Vec<String> = stats.players.iter().map(|p| p.name.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .light_line_style(WHITE.mix(0.0))
            .x_labels(n.max(1) as usize)
            .x_label_formatter(&|x| match x {
                SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&whole_tick)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for (k, layer) in layers.iter().enumerate() {
            let bars: Vec<Rectangle<(SegmentValue<u32>, f64)>> = (0..n as usize)
                .map(|i| {
                    let below: i64 = layers[..k].iter().map(|l| l.values[i].max(0)).sum();
                    let mine = layer.values[i].max(0);
                    let mut bar = Rectangle::new(
                        [
                            (SegmentValue::Exact(i as u32), below as f64),
                            (SegmentValue::Exact(i as u32 + 1), (below + mine) as f64),
                        ],
                        layer.color.filled(),
                    );
                    bar.set_margin(0, 0, 18, 18);
                    bar
                })
                .collect();
            chart.draw_series(bars).map_err(err)?;
        }
        Ok(String::new())
    })
}

/// Trades per turn (left) and who traded with whom (right: players, and the markets the game declares).
pub fn trades(stats: &GameStats, vocabulary: &Vocabulary) -> Result<String, ChartError> {
    let desc = format!("Trades made: {}.", finals(stats, |p| p.trades.count));
    svg_with(&Chart::Trades.title(vocabulary), &desc, &[], |root| {
        let (left, right) = root.split_horizontally(WIDTH / 2);
        let turns = stats.turns.max(1);
        let top = stats.trades_by_turn.iter().copied().max().unwrap_or(0).max(1) as f64 + 0.5;
        let mut chart = ChartBuilder::on(&left)
            .caption("Trades per turn", ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..turns as f64 + 0.999, 0f64..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .light_line_style(WHITE.mix(0.0))
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
        let mut chart = ChartBuilder::on(root)
            .caption(&caption, ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(low as f64 - 0.5..high as f64 + 0.5, 0f64..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .light_line_style(WHITE.mix(0.0))
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
        let mut chart = ChartBuilder::on(root)
            .caption(&caption, ("sans-serif", CAPTION))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..games + 0.5, (low - 1.0).floor()..(high + 1.0).ceil())
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
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
            .light_line_style(WHITE.mix(0.0))
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
    let show = |v: f64| if percent { format!("{:.0}%", v * 100.0) } else { format!("{v:.2}") };
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
        let top = ends().fold(0.0, f64::max).max(if percent { 1.0 } else { 1e-9 }) * 1.15;
        let low = ends().fold(0.0, f64::min);
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

/// A number as a reader reads it: whole where it is whole, else to two places.
fn whole(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v:.2}")
    }
}

/// Each seat's chance to win at the end of every turn (`chances[t][seat]`, 0 to 1), with the turns where a
/// chance moved most marked along the top, each saying who and how far (`marks`: turn and words).
pub fn win_chances(
    players: &[String],
    colors: &[Option<String>],
    chances: &[Vec<f64>],
    marks: &[(u32, String)],
) -> Result<String, ChartError> {
    let caption = "Chance to win, by turn";
    let finals: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(s, name)| format!("{name} {:.0}%", chances.last().map_or(0.0, |c| c[s]) * 100.0))
        .collect();
    let desc = format!("At the end: {}.", finals.join(", "));
    let color_of = |i: usize| player_color(colors.get(i).and_then(|c| c.as_deref()), i);
    let mut legend: Vec<Entry> =
        players.iter().enumerate().map(|(i, p)| Entry::new(p.clone(), Swatch::Line(color_of(i)))).collect();
    let mark = RGBColor(0x8e, 0x44, 0xad);
    if !marks.is_empty() {
        legend.push(Entry::new("where a chance moved most", Swatch::Mark(mark)));
    }
    let turns = chances.len().saturating_sub(1) as u32;
    svg_with(caption, &desc, &legend, |root| {
        by_turn(root, caption, turns, 108, "chance to win (%)", |chart| {
            for s in 0..players.len() {
                let points = chances.iter().enumerate().map(|(t, c)| (t as f64 + 0.5, c[s] * 100.0));
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
