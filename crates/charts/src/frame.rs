//! The kit every chart is drawn with: its size and text sizes, the embedded font, players' and words'
//! colours, the frame with its title and description, the legend under the plot, marks along the top, and
//! the turn columns a page clicks.

use almanac_analysis::{GameStats, KeyMoment, PlayerStats, LEAD};
use almanac_core::{Term, Vocabulary};
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::sync::Once;

/// Why a chart could not be drawn (plotters reports drawing errors as text).
#[derive(Debug)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chart: {}", self.0)
    }
}

impl std::error::Error for ChartError {}

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> ChartError {
    ChartError(format!("{e:?}"))
}

pub(crate) const WIDTH: u32 = 760;

pub(crate) const HEIGHT: u32 = 380;

/// Text sizes as plotters takes them (it writes `font-size` as the size / 1.24). The dashboard never shows
/// a chart narrower than 620 px (a phone scrolls it sideways), so labels stay at 12 px or more as rendered.
pub(crate) const CAPTION: u32 = 24;

pub(crate) const LABEL: u32 = 19;

pub(crate) fn register_font() {
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
pub(crate) const PALETTE: [RGBColor; 6] = [
    RGBColor(0x1f, 0x5f, 0xbf),
    RGBColor(0xf3, 0x9c, 0x12),
    RGBColor(0x16, 0xa0, 0x85),
    RGBColor(0x8e, 0x44, 0xad),
    RGBColor(0xc0, 0x39, 0x2b),
    RGBColor(0x7f, 0x8c, 0x8d),
];

/// A CSS hex colour (`#2e7d32`) as RGB.
pub(crate) fn hex_color(css: &str) -> Option<RGBColor> {
    almanac_core::colours::rgb(css).map(|[r, g, b]| RGBColor(r, g, b))
}

/// The colour and label of a word: as the game declares them, else a palette colour and the id.
pub(crate) fn looks(terms: &[Term], id: &str, k: usize) -> (RGBColor, String) {
    match terms.iter().find(|t| t.id == id) {
        Some(t) => (t.color.and_then(hex_color).unwrap_or(PALETTE[k % PALETTE.len()]), t.label.to_string()),
        None => (PALETTE[k % PALETTE.len()], id.replace('_', " ")),
    }
}

/// Draws a chart and names it for people who cannot see it: `role="img"`, a `<title>` and a `<desc>`.
/// `draw` draws the plot in the top `HEIGHT` pixels and returns what it lays over them (click targets,
/// marks with their words); the legend's rows go under the plot, where no series is drawn.
pub(crate) fn svg_with<F>(title: &str, desc: &str, legend: &[Entry], draw: F) -> Result<String, ChartError>
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
pub(crate) enum Swatch {
    Line(RGBColor),
    Bar(RGBColor),
    Dot(RGBColor),
    Mark(RGBColor),
}

/// A series' name and how it looks, for the legend.
pub(crate) struct Entry {
    pub(crate) label: String,
    pub(crate) swatch: Swatch,
}

impl Entry {
    pub(crate) fn new(label: impl Into<String>, swatch: Swatch) -> Entry {
        Entry { label: label.into(), swatch }
    }
}

/// The legend's entries in rows under the plot, left to right, as many to a row as fit.
pub(crate) struct Legend {
    /// Each entry's left edge, row and (shortened to fit, if it must) label.
    pub(crate) placed: Vec<(u32, u32, String, Swatch)>,
    pub(crate) rows: u32,
}

pub(crate) const LEGEND_ROW: u32 = 26;

pub(crate) const SWATCH: u32 = 22;

impl Legend {
    pub(crate) fn lay_out(entries: &[Entry]) -> Legend {
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

    pub(crate) fn height(&self) -> u32 {
        if self.rows == 0 {
            0
        } else {
            self.rows * LEGEND_ROW + 10
        }
    }

    /// The legend as SVG: a `g.legend` whose first rect is its box.
    pub(crate) fn svg(&self) -> String {
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
pub(crate) fn text_width(text: &str) -> u32 {
    register_font();
    ("sans-serif", LABEL).into_font().box_size(text).map_or(text.chars().count() as u32 * 9, |(w, _)| w)
}

/// A label shortened, with "…", until it is at most `width` pixels wide.
pub(crate) fn fitted(text: &str, width: u32) -> String {
    let mut label = text.to_string();
    while text_width(&label) > width && label.chars().count() > 2 {
        label = label.chars().take(label.chars().count() - 2).collect::<String>() + "…";
    }
    label
}

/// A triangle pointing down at `(x, y)`, `size` pixels from its centre to a corner.
pub(crate) fn triangle(x: u32, y: u32, size: u32) -> String {
    let (x, y, s) = (x as f64, y as f64, size as f64);
    format!("{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}", x - s, y - s * 0.6, x + s, y - s * 0.6, x, y + s * 0.8)
}

/// Marks along the top of a plot, each with its words for a reader's pointer and screen reader: a
/// `<title>` per mark.
pub(crate) fn marks_svg(marks: &[(i32, i32, RGBColor, String)]) -> String {
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
pub(crate) fn named(svg: String, title: &str, desc: &str) -> String {
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

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// "Ayşe 10, Bora 7": each player's final number, for a chart's description.
pub(crate) fn finals(stats: &GameStats, value: impl Fn(&PlayerStats) -> i64) -> String {
    stats.players.iter().map(|p| format!("{} {}", p.name, value(p))).collect::<Vec<_>>().join(", ")
}

/// Where the turns are on a chart's x axis, in pixels.
pub(crate) struct TurnTargets {
    pub(crate) x: (i32, i32),
    pub(crate) y: (i32, i32),
    pub(crate) turns: u32,
}

impl TurnTargets {
    pub(crate) fn svg(&self) -> String {
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

/// `(turn, value)` points of one player.
pub(crate) type Series<'a> = &'a dyn Fn(&PlayerStats) -> Vec<(i64, i64)>;

/// Key moments to mark along the top of a chart by turn, in the game's words.
#[derive(Clone, Copy)]
pub(crate) struct Marks<'a> {
    pub(crate) moments: &'a [KeyMoment],
    pub(crate) vocabulary: &'a Vocabulary,
}

/// A turn, and what happened in it.
pub(crate) type Said = (u32, String);

impl Marks<'_> {
    /// Each kind of mark present: its colour and legend, and the turns it marks, each with what happened
    /// ("Ayşe takes the longest road").
    pub(crate) fn kinds(&self) -> Vec<(RGBColor, String, Vec<Said>)> {
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
pub(crate) struct Words<'a> {
    pub(crate) caption: &'a str,
    pub(crate) desc: &'a str,
    pub(crate) y_desc: &'a str,
}

pub(crate) fn turn_lines(
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

pub(crate) type TurnChart<'a, 'b> = Axes<'a, 'b, RangedCoordf64, RangedCoordf64>;

/// A tick's label on an axis of whole things (turns, points, counts): the number where the tick is on one,
/// nothing between (a short game's axis has ticks at 0.25, 0.5..., which rounded would read 0 0 1 1).
pub(crate) fn whole_tick(v: &f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// A chart drawn on an SVG over axes `X` and `Y`.
pub(crate) type Axes<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// Axes in the house style (a caption, the margin and label areas every chart here has) over `x` and `y`.
pub(crate) fn axes<'a, 'b, X: AsRangedCoord, Y: AsRangedCoord>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: &str,
    x: X,
    y: Y,
) -> Result<Axes<'a, 'b, X::CoordDescType, Y::CoordDescType>, ChartError> {
    ChartBuilder::on(area)
        .caption(caption, ("sans-serif", CAPTION))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(x, y)
        .map_err(err)
}

/// A mesh in the house style: labels and axis descriptions in the house font, no light lines.
pub(crate) fn mesh<'a, 'b, X, Y, DB>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
    DB: DrawingBackend,
{
    let mut mesh = chart.configure_mesh();
    mesh.label_style(("sans-serif", LABEL)).axis_desc_style(("sans-serif", LABEL)).light_line_style(WHITE.mix(0.0));
    mesh
}

/// Axes for values by turn (turns 0 to the last across, 0 to `top` up, whole numbers on both), on which
/// `draw` draws.
pub(crate) fn by_turn<'a, 'b: 'a, R>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: &str,
    turns: u32,
    top: i64,
    y_desc: &str,
    draw: impl FnOnce(&mut TurnChart<'a, 'b>) -> Result<R, ChartError>,
) -> Result<R, ChartError> {
    let mut chart = axes(root, caption, 0f64..turns.max(1) as f64 + 0.999, 0f64..top as f64)?;
    mesh(&mut chart)
        .x_desc("turn")
        .y_desc(y_desc)
        .x_label_formatter(&whole_tick)
        .y_label_formatter(&whole_tick)
        .draw()
        .map_err(err)?;
    draw(&mut chart)
}

/// One colour of a stacked bar chart: a value per player.
pub(crate) struct Layer {
    pub(crate) label: String,
    pub(crate) color: RGBColor,
    pub(crate) values: Vec<i64>,
}

/// A bar per player, stacked by layer, with the players' names under the bars.
pub(crate) fn stacked_bars(
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
        // A segment per player: 0..n-1 (a range of n would add an empty one after the last).
        let mut chart = axes(root, caption, (0..n.max(1) - 1).into_segmented(), 0f64..top)?;
        let names: Vec<String> = stats.players.iter().map(|p| p.name.clone()).collect();
        mesh(&mut chart)
            .disable_x_mesh()
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

/// A number as a reader reads it: whole where it is whole, else to two places.
pub(crate) fn whole(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        format!("{v:.2}")
    }
}
