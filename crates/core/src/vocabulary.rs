//! The words a game's facts use, declared once by the game: what players gain and spend (with the colours
//! charts draw them in), why, what they build, play and score for, the dice, and which charts and
//! per-player statistics are worth showing. Analysis and charts read these declarations and know no game.

use crate::facts::{Fact, Partner};
use std::ops::RangeInclusive;

/// One word: its id in facts, how people read it, and the colour a chart gives it (CSS hex). Served as it is
/// to a game's drawing (`{"id", "label", "color"}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Term {
    pub id: &'static str,
    pub label: &'static str,
    pub color: Option<&'static str>,
}

impl Term {
    pub const fn new(id: &'static str, label: &'static str) -> Term {
        Term { id, label, color: None }
    }

    pub const fn colored(id: &'static str, label: &'static str, color: &'static str) -> Term {
        Term { id, label, color: Some(color) }
    }
}

/// The dice whose sum a game rolls for production: `count` dice of `faces` faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceSpec {
    pub count: u8,
    pub faces: u8,
}

impl DiceSpec {
    /// Every sum the dice can show.
    pub fn sums(&self) -> RangeInclusive<u32> {
        self.count as u32..=self.count as u32 * self.faces as u32
    }

    /// The chance of rolling `sum`.
    pub fn chance(&self, sum: u32) -> f64 {
        self.chances().find(|&(s, _)| s == sum).map_or(0.0, |(_, chance)| chance)
    }

    /// Every sum the dice can show with its chance, counted once for all of them: a game asks for every sum
    /// after every change to the board.
    pub fn chances(&self) -> impl Iterator<Item = (u32, f64)> {
        // Ways to roll each sum, one die at a time, on the stack.
        const MOST: usize = 64;
        let highest = self.count as usize * self.faces as usize;
        assert!(highest < MOST, "dice of at most {MOST} pips in all");
        let mut ways = [0f64; MOST];
        ways[0] = 1.0;
        let mut reach = 0;
        for _ in 0..self.count {
            let mut next = [0f64; MOST];
            for s in 0..=reach {
                for face in 1..=self.faces as usize {
                    next[s + face] += ways[s];
                }
            }
            ways = next;
            reach += self.faces as usize;
        }
        let total = (self.faces as f64).powi(self.count as i32);
        self.sums().map(move |sum| (sum, ways[sum as usize] / total))
    }
}

/// The charts a game page can show; each is drawn from facts only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chart {
    /// Total and public score by turn.
    Score,
    /// Items gained from production, stacked by item.
    Production,
    /// Items gained from production so far, per player, by turn.
    ProductionByTurn,
    /// Trades per turn and who traded with whom.
    Trades,
    /// Dice sums against the expected distribution.
    Dice,
    /// The final score by what scored it.
    ScoreBreakdown,
    /// The game's own gauges by turn, with its moments marked.
    Gauges,
    /// Points on the table by what scored them, all players together, by turn.
    ScoreBySource,
}

impl Chart {
    /// Every chart, in the order a game that shows them all lists them.
    pub const ALL: [Chart; 8] = [
        Chart::Score,
        Chart::Production,
        Chart::ProductionByTurn,
        Chart::Trades,
        Chart::Dice,
        Chart::ScoreBreakdown,
        Chart::ScoreBySource,
        Chart::Gauges,
    ];

    /// The chart's name in URLs (`/charts/vp.svg`).
    pub fn id(self) -> &'static str {
        match self {
            Chart::Score => "vp",
            Chart::Production => "production",
            Chart::ProductionByTurn => "production-by-turn",
            Chart::Trades => "trades",
            Chart::Dice => "dice",
            Chart::ScoreBreakdown => "score",
            Chart::Gauges => "gauges",
            Chart::ScoreBySource => "score-by-source",
        }
    }

    pub fn from_id(id: &str) -> Option<Chart> {
        Chart::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The chart's name for people, in the game's words ("Victory points by turn"): what a page calls it
    /// and what a screen reader says of it.
    pub fn title(self, vocabulary: &Vocabulary) -> String {
        let title = match self {
            Chart::Score => format!("{} by turn", vocabulary.score.label),
            Chart::Production => "production by resource".to_string(),
            Chart::ProductionByTurn => "production by turn".to_string(),
            Chart::Trades => "trades per turn, and who traded with whom".to_string(),
            Chart::Dice => "dice rolled against the expected distribution".to_string(),
            Chart::ScoreBreakdown => format!("{} by what scored it", vocabulary.score.label),
            Chart::Gauges => {
                let names: Vec<&str> = vocabulary.gauges.iter().map(|t| t.label).collect();
                format!("{} by turn", names.join(" against "))
            }
            Chart::ScoreBySource => format!("{} by source, by turn", vocabulary.score.label),
        };
        let mut chars = title.chars();
        chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
    }
}

/// A per-player statistic a game declares worth showing (as Board Game Arena games declare theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerStat {
    pub id: &'static str,
    pub label: &'static str,
    pub measure: Measure,
}

/// How a statistic is counted from facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Items gained for this cause.
    Gained(&'static str),
    /// Items lost for this cause.
    Lost(&'static str),
    /// Trades taken part in.
    Trades,
    /// Pieces of this kind built.
    Built(&'static str),
    /// Cards played.
    CardsPlayed,
    /// Points scored for this reason.
    Points(&'static str),
}

/// What a seat's opening is, the dimension questions call `opening`: how a player started, in the game's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// The items gained at setup (the resources the first buildings gave).
    SetupItems,
    /// The first `count` pieces of these kinds a player built, in the order built.
    FirstPieces { count: usize, pieces: &'static [&'static str] },
}

/// Everything a game's facts may say, and what its pages show.
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary {
    /// The ruleset id in headers.
    pub id: &'static str,
    /// The game's name for people.
    pub name: &'static str,
    /// What the score is called: short (`VP`, for an axis) and in words (`victory points`).
    pub score: Term,
    /// Items players gain, spend and lose, in the order charts stack them (resources, commodities, goods,
    /// cards bought, `unknown`).
    pub items: &'static [Term],
    /// Why items change hands (the shared `cause::*` ones it uses, and its own).
    pub causes: &'static [Term],
    pub pieces: &'static [Term],
    /// Cards that are played.
    pub cards: &'static [Term],
    pub score_reasons: &'static [Term],
    pub awards: &'static [Term],
    /// Trade partners that are not players (the bank, harbours).
    pub partners: &'static [Term],
    /// The production dice, when the game rolls them.
    pub dice: Option<DiceSpec>,
    /// Measures of the game's own that its facts follow (`Fact::Gauge`), with their chart colours.
    pub gauges: &'static [Term],
    /// What its timeline marks (`Fact::Moment`).
    pub moments: &'static [Term],
    /// What a seat's opening is.
    pub opening: Opening,
    pub charts: &'static [Chart],
    pub player_stats: &'static [PlayerStat],
    /// The parts of the table a coach reads at a game's end, in order: what the game's play is made of.
    pub coach: &'static [CoachPart],
    /// What its items are, in the plural, as a table's unit ("cards", "goods").
    pub items_are: &'static str,
    /// The items that stand for a card the record did not see (one stolen out of sight, one bought face
    /// down): of two records of one game, the one with fewer facts of them saw more (`Game::unseen`).
    pub unseen: &'static [&'static str],
}

/// A part of the end-of-game coach table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoachPart {
    /// Items gained, by cause.
    Gained,
    /// Items lost, by cause.
    Lost,
    /// What spending bought.
    Spent,
    /// Trades between players, and the cards given and got.
    Trades,
    /// Production against the dice's promise.
    Luck,
    /// Points by what scored them.
    Points,
    /// Pieces placed, by kind (tiles, figures).
    Placed,
    /// Pieces that came back to their players, by kind (followers home from a scored feature).
    Returned,
}

fn find(terms: &'static [Term], id: &str) -> Option<&'static Term> {
    terms.iter().find(|t| t.id == id)
}

impl Vocabulary {
    /// A vocabulary that declares nothing: a game's own names what it has (its id, name and score at the
    /// least) and takes the rest from this, `..Vocabulary::NONE`. A word a game's facts use and its
    /// vocabulary leaves out fails the registry's tests, so nothing is left out unseen.
    pub const NONE: Vocabulary = Vocabulary {
        id: "",
        name: "",
        score: Term::new("points", "points"),
        items: &[],
        causes: &[],
        pieces: &[],
        cards: &[],
        score_reasons: &[],
        awards: &[],
        partners: &[],
        dice: None,
        gauges: &[],
        moments: &[],
        opening: Opening::SetupItems,
        charts: &[],
        player_stats: &[],
        coach: &[],
        items_are: "items",
        unseen: &[],
    };

    pub fn item(&self, id: &str) -> Option<&'static Term> {
        find(self.items, id)
    }

    pub fn score_reason(&self, id: &str) -> Option<&'static Term> {
        find(self.score_reasons, id)
    }

    pub fn partner(&self, id: &str) -> Option<&'static Term> {
        find(self.partners, id)
    }

    pub fn shows(&self, chart: Chart) -> bool {
        self.charts.contains(&chart)
    }

    /// The words of `fact` this vocabulary does not declare, as `kind word` (none when all are declared).
    pub fn undeclared(&self, fact: &Fact) -> Vec<String> {
        let mut missing = Vec::new();
        let mut check = |what: &str, terms: &'static [Term], id: &str| {
            if find(terms, id).is_none() {
                missing.push(format!("{what} `{id}`"));
            }
        };
        match fact {
            Fact::Gained { item, cause, .. } | Fact::Spent { item, cause, .. } | Fact::Lost { item, cause, .. } => {
                check("item", self.items, item);
                check("cause", self.causes, cause);
            }
            Fact::Traded { partner, gave, got, .. } => {
                if let Partner::Market(id) = partner {
                    check("partner", self.partners, id);
                }
                for (item, _) in gave.iter().chain(got) {
                    check("item", self.items, item);
                }
            }
            Fact::Built { piece, .. } | Fact::Returned { piece, .. } => check("piece", self.pieces, piece),
            Fact::CardPlayed { card, .. } => check("card", self.cards, card),
            Fact::Score { reason, .. } => check("score reason", self.score_reasons, reason),
            Fact::Award { award, .. } => check("award", self.awards, award),
            Fact::Rolled { dice, .. } => {
                // A roll known by its sum alone has no values to count.
                let fits =
                    self.dice.is_some_and(|d| d.count as usize == dice.values().len() || dice.values().is_empty());
                if !fits {
                    missing.push(format!("dice {:?}", dice.values()));
                }
            }
            Fact::Gauge { gauge, .. } => check("gauge", self.gauges, gauge),
            Fact::Moment { moment, .. } => check("moment", self.moments, moment),
            Fact::TurnStarted { .. } | Fact::GameOver { .. } | Fact::Promised { .. } => {}
        }
        missing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dice_make_the_familiar_triangle() {
        let d = DiceSpec { count: 2, faces: 6 };
        assert_eq!(d.sums(), 2..=12);
        assert!((d.chance(7) - 6.0 / 36.0).abs() < 1e-12);
        assert!((d.chance(2) - 1.0 / 36.0).abs() < 1e-12);
        assert_eq!(d.chance(13), 0.0);
        let total: f64 = d.sums().map(|s| d.chance(s)).sum();
        assert!((total - 1.0).abs() < 1e-12);
        let each: Vec<(u32, f64)> = d.chances().collect();
        assert_eq!(each, d.sums().map(|s| (s, d.chance(s))).collect::<Vec<_>>());
    }

    #[test]
    fn three_dice_sum_from_3_to_18() {
        let d = DiceSpec { count: 3, faces: 6 };
        assert_eq!(d.sums(), 3..=18);
        assert!((d.chance(10) - 27.0 / 216.0).abs() < 1e-12);
    }

    #[test]
    fn chart_ids_read_back() {
        for c in Chart::ALL {
            assert_eq!(Chart::from_id(c.id()), Some(c));
        }
        assert_eq!(Chart::from_id("pie"), None);
    }
}
