//! Charts of a game as SVG, drawn with plotters from `almanac_analysis::GameStats` (facts only), in the
//! words and colours the game's `Vocabulary` declares; no chart knows a game.
//!
//! Text is laid out with one embedded font (DejaVu Sans, `fonts/`), so a server without system fonts
//! draws the same charts. Charts with a turn axis carry invisible `<rect class="turn-target" data-turn="N">`
//! columns over the plot, so a page can move its replay to the turn a reader clicks.
//!
//! `frame` is the kit every chart is drawn with (size, font, colours, legend, marks, turn columns); `game`
//! draws one game's charts, `people` a player's and two players' side by side, `questions` an answer's.

use almanac_analysis::GameStats;
use almanac_core::{Chart, Vocabulary};

mod frame;
mod game;
mod people;
mod questions;

pub use frame::{player_color, ChartError};
pub use game::{
    dice, gauges, production, production_by_turn, score_breakdown, score_by_source, trades, vp, win_chances,
};
pub use people::{rating_history, score_curve, side_by_side, RatingSeries, SideRow};
pub use questions::{answer, AnswerBar};

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
