//! Questions across games: the metrics a coach can ask about (each from facts, in the words a game
//! declares; what one game gives each of them is `crate::insights`, stored beside the game), and the preset
//! questions in words.

use crate::intervals::Bounds;
use almanac_core::Vocabulary;
use serde::Serialize;

/// 1 for the winner, 0 for everyone else (finished games only): its mean is the win rate.
pub const WON: &str = "won";
/// The final score.
pub const SCORE: &str = "score";
/// The finishing place by final score (1 = first; level scores share the better place; finished games only).
pub const PLACE: &str = "place";
/// The score at the end of turn `arg` (every fifth turn the game reached).
pub const SCORE_AT_TURN: &str = "score_at_turn";
/// The first turn at whose end the score was at least `arg` (seats that never got there are not counted).
pub const TURNS_TO_REACH: &str = "turns_to_reach";
/// Items gained from production per turn: of item `arg`, or of all when `arg` is empty.
pub const PRODUCTION_PER_TURN: &str = "production_per_turn";
/// Luck: cards produced by the dice above what the dice and the board promised over the game (games that say
/// what each roll promises).
pub const LUCK: &str = "luck";
/// Trades taken part in per turn.
pub const TRADES_PER_TURN: &str = "trades_per_turn";
/// Seconds a player's own turns took at the table, after the setup, where the entries say when they were
/// made (a game recorded at the table): see `Tally::add_times`.
pub const SECONDS_PER_TURN: &str = "seconds_per_turn";
/// Trades made with the game's winner (the winner's own seat is not counted).
pub const TRADES_WITH_WINNER: &str = "trades_with_winner";
/// Items lost for cause `arg` (a steal, a discard ...).
pub const LOST: &str = "lost";
/// Final points scored for reason `arg`.
pub const POINTS: &str = "points";
/// The game's own statistic `arg` (`Vocabulary::player_stats`).
pub const STAT: &str = "stat";
/// The chance to win a seat gained in its own turns, on average a turn: its chance at a turn's end less its
/// chance at its start, −1 to 1 (finished games of a ruleset with a win-chance model; `crate::chances`).
/// Gained rather than lost: a player's chance grows in their own turns and falls in the others', so a loss
/// per own turn read as a negative number for nearly everyone.
pub const CHANCE_GAINED: &str = "chance_gained";
/// A seat's decision accuracy in a game, 0 to 100: the mean over its own decisions of how near each came
/// to the best the rules allowed, by the chance to win it lost (`chances::accuracy`).
pub const DECISION_ACCURACY: &str = "decision_accuracy";
/// The chance to win at the end of turn `arg` (every fifth turn the game reached; as `CHANCE_GAINED`).
pub const CHANCE_AT_TURN: &str = "chance_at_turn";
/// Trades with partner `arg`: another seat (`seat:N`, counted from 0) or a market the game declares. Kept for
/// player pages (who trades with whom, at what rate), not offered as a question.
pub const TRADES_WITH: &str = "trades_with";
/// Cards given to partner `arg` in trades.
pub const CARDS_GIVEN: &str = "cards_given";
/// Cards got from partner `arg` in trades.
pub const CARDS_GOT: &str = "cards_got";

/// The argument naming another seat as a trade partner.
pub fn seat_partner(seat: u32) -> String {
    almanac_core::insights::TradePartner::Seat(seat).arg()
}

/// What a metric's argument is chosen from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    None,
    /// A turn: 5, 10, 15 ...
    Turn,
    /// A score: 1, 2, 3 ...
    Score,
    /// An item the game declares, or none for all of them.
    Item,
    /// A cause the game declares.
    Cause,
    /// A score reason the game declares.
    Reason,
    /// A statistic the game declares.
    Stat,
}

/// A metric a question can ask about.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Metric {
    pub id: &'static str,
    /// In words, `{}` standing for the argument's label.
    pub label: &'static str,
    pub arg: ArgKind,
    /// Shown as a percentage (a rate of 0s and 1s).
    pub percent: bool,
    /// Fewer is better (a place, turns to a score): orders answers the other way.
    pub lower_is_better: bool,
    /// The values it is a mean of: what range its intervals keep to.
    pub bounds: Bounds,
}

const fn metric(id: &'static str, label: &'static str, arg: ArgKind) -> Metric {
    Metric { id, label, arg, percent: false, lower_is_better: false, bounds: Bounds::AtLeast(0) }
}

impl Metric {
    /// The 95 % interval of a mean of this metric's values (see `crate::intervals`).
    /// `players` is the mean number of players at the tables the values come from (the end of a place's).
    pub fn interval(&self, mean: f64, variance: f64, n: u64, players: f64) -> Option<(f64, f64)> {
        crate::intervals::interval(self.bounds, mean, variance, n, players)
    }
}

/// Every metric, in the order a form lists them.
pub const METRICS: &[Metric] = &[
    Metric { percent: true, bounds: Bounds::Rate, ..metric(WON, "win rate", ArgKind::None) },
    metric(SCORE, "final score", ArgKind::None),
    Metric { lower_is_better: true, bounds: Bounds::Place, ..metric(PLACE, "finishing place", ArgKind::None) },
    metric(SCORE_AT_TURN, "score at the end of turn {}", ArgKind::Turn),
    Metric { lower_is_better: true, ..metric(TURNS_TO_REACH, "turns to reach {} points", ArgKind::Score) },
    metric(PRODUCTION_PER_TURN, "production of {} per turn", ArgKind::Item),
    Metric {
        bounds: Bounds::Unbounded,
        ..metric(LUCK, "luck (cards produced above the dice's promise)", ArgKind::None)
    },
    metric(TRADES_PER_TURN, "trades per turn", ArgKind::None),
    metric(SECONDS_PER_TURN, "seconds per own turn at the table", ArgKind::None),
    metric(TRADES_WITH_WINNER, "trades with the winner", ArgKind::None),
    metric(LOST, "cards lost to {}", ArgKind::Cause),
    metric(POINTS, "points from {}", ArgKind::Reason),
    // Every statistic a game declares is a count (`Measure`): items, trades, pieces, cards, points.
    metric(STAT, "{}", ArgKind::Stat),
    Metric {
        percent: true,
        bounds: Bounds::Between(-1, 1),
        ..metric(CHANCE_GAINED, "chance to win gained per own turn", ArgKind::None)
    },
    Metric {
        percent: true,
        bounds: Bounds::Rate,
        ..metric(CHANCE_AT_TURN, "chance to win at the end of turn {}", ArgKind::Turn)
    },
    Metric {
        bounds: Bounds::Between(0, 100), ..metric(DECISION_ACCURACY, "decision accuracy (0–100)", ArgKind::None)
    },
];

pub fn metric_named(id: &str) -> Option<&'static Metric> {
    METRICS.iter().find(|m| m.id == id)
}

/// The turns `score_at_turn` is kept for: every `TURN_STEP`th, `TURNS_KEPT` of them (to turn 100).
pub const TURN_STEP: usize = 5;
pub const TURNS_KEPT: usize = 20;
/// The scores `turns_to_reach` is kept for: 1 to `SCORES_KEPT`. The read model keeps what can be asked.
pub const SCORES_KEPT: i64 = 20;

/// A question asked often enough to be one click: in words, with what it asks.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    pub id: &'static str,
    pub question: &'static str,
    pub metric: &'static str,
    pub arg: &'static str,
    /// The dimension's id in the store's words (`seat`, `player`, `opponent`, `ruleset`, `month`, `players`,
    /// `club`, `opening`).
    pub by: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset { id: "first-seat", question: "Does the first seat win more often?", metric: WON, arg: "", by: "seat" },
    Preset {
        id: "trades-with-winner",
        question: "Who trades most with the winner?",
        metric: TRADES_WITH_WINNER,
        arg: "",
        by: "player",
    },
    Preset { id: "best-players", question: "Who wins most often?", metric: WON, arg: "", by: "player" },
    Preset {
        id: "decision-accuracy",
        question: "Who decides best? (decision accuracy)",
        metric: DECISION_ACCURACY,
        arg: "",
        by: "player",
    },
    Preset { id: "openings", question: "Which openings win?", metric: WON, arg: "", by: "opening" },
    Preset {
        id: "fast-starts",
        question: "Who scores fastest in the first 20 turns?",
        metric: SCORE_AT_TURN,
        arg: "20",
        by: "player",
    },
    Preset {
        id: "robbed",
        question: "Who loses most cards to steals?",
        metric: LOST,
        arg: almanac_core::cause::STEAL,
        by: "player",
    },
    Preset {
        id: "table-size",
        question: "Do games with more players run to lower scores?",
        metric: SCORE,
        arg: "",
        by: "players",
    },
    Preset { id: "traders", question: "Who trades most?", metric: TRADES_PER_TURN, arg: "", by: "player" },
    Preset { id: "luckiest", question: "Who had the luckiest dice?", metric: LUCK, arg: "", by: "player" },
];

pub fn preset_named(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The argument choices of `arg` for a game's vocabulary (`(id, label)`; the empty id for "all" items).
pub fn arg_choices(arg: ArgKind, vocabulary: &Vocabulary) -> Vec<(String, String)> {
    let terms = |t: &[almanac_core::Term]| t.iter().map(|t| (t.id.to_string(), t.label.to_string())).collect();
    match arg {
        ArgKind::None => Vec::new(),
        ArgKind::Turn => (1..=TURNS_KEPT).map(|k| ((k * TURN_STEP).to_string(), (k * TURN_STEP).to_string())).collect(),
        ArgKind::Score => (1..=SCORES_KEPT).map(|k| (k.to_string(), k.to_string())).collect(),
        ArgKind::Item => {
            let mut all = vec![(String::new(), "everything".to_string())];
            all.extend(terms(vocabulary.items));
            all
        }
        ArgKind::Cause => terms(vocabulary.causes),
        ArgKind::Reason => terms(vocabulary.score_reasons),
        ArgKind::Stat => vocabulary.player_stats.iter().map(|s| (s.id.to_string(), s.label.to_string())).collect(),
    }
}

/// The metric's label with its argument's (`production of apples per turn`).
pub fn metric_label(metric: &Metric, arg: &str, vocabulary: Option<&Vocabulary>) -> String {
    let arg_label = vocabulary
        .and_then(|v| arg_choices(metric.arg, v).into_iter().find(|(id, _)| id == arg).map(|(_, label)| label))
        .unwrap_or_else(|| if arg.is_empty() { "everything".to_string() } else { arg.to_string() });
    metric.label.replace("{}", &arg_label)
}

#[cfg(test)]
mod tests {
    //! A made-up game: two players, items `a` and `b`; analysis names no real game.
    use super::*;
    use crate::insights::insights;
    use crate::made_up::WORDS;
    use almanac_core::{cause, Fact, FactRow, Insights, Opening, Partner, Term};

    fn rows(facts: &[(u32, Fact)]) -> Vec<FactRow> {
        facts.iter().enumerate().map(|(i, (turn, f))| f.row(i as u64 + 1, *turn)).collect()
    }

    fn value(i: &Insights, seat: u32, metric: &str, arg: &str) -> Option<f64> {
        i.metrics.iter().find(|m| m.seat == seat && m.metric == metric && m.arg == arg).map(|m| m.value)
    }

    #[test]
    fn a_finished_game_gives_each_seat_its_numbers() {
        let gained = |player, item, count, cause| Fact::Gained { player, item, count, cause, from: None };
        let score = |player, delta, total| Fact::Score {
            player,
            reason: "tower",
            delta,
            delta_public: delta,
            total,
            public: total,
        };
        let mut facts = vec![(0, gained(0, "a", 2, cause::SETUP)), (0, gained(0, "b", 1, cause::SETUP))];
        for turn in 1..=10 {
            facts.push((turn, gained(0, "a", 1, cause::PRODUCTION)));
        }
        facts.extend([
            (3, score(1, 2, 2)),
            (4, Fact::Traded { player: 0, partner: Partner::Player(1), gave: vec![("a", 1)], got: vec![("b", 1)] }),
            (4, Fact::Traded { player: 1, partner: Partner::Player(0), gave: vec![("b", 1)], got: vec![("a", 1)] }),
            (6, Fact::Lost { player: 0, item: "a", count: 1, cause: cause::STEAL, to: Some(1) }),
            (7, score(0, 3, 3)),
            (10, score(1, 2, 4)),
            (10, Fact::GameOver { winner: Some(1) }),
        ]);
        facts.sort_by_key(|(turn, _)| *turn); // facts come in the order of their events
        let i = insights(&["A".into(), "B".into()], &rows(&facts), &WORDS);
        assert_eq!((value(&i, 0, WON, ""), value(&i, 1, WON, "")), (Some(0.0), Some(1.0)));
        assert_eq!((value(&i, 0, PLACE, ""), value(&i, 1, PLACE, "")), (Some(2.0), Some(1.0)));
        assert_eq!((value(&i, 0, SCORE, ""), value(&i, 1, SCORE, "")), (Some(3.0), Some(4.0)));
        // Turn 5: A had nothing yet, B 2; turn 10: 3 and 4.
        assert_eq!((value(&i, 0, SCORE_AT_TURN, "5"), value(&i, 1, SCORE_AT_TURN, "5")), (Some(0.0), Some(2.0)));
        assert_eq!(value(&i, 1, SCORE_AT_TURN, "10"), Some(4.0));
        assert_eq!(value(&i, 1, SCORE_AT_TURN, "15"), None, "the game ended at turn 10");
        // What is kept is what can be asked: a long game's scores to turn 100, turns to reach scores to 20.
        let long: Vec<(u32, Fact)> = (1..=300).map(|t| (t, score(0, 1, t as i32))).collect();
        let l = insights(&["A".into(), "B".into()], &rows(&long), &WORDS);
        assert_eq!(value(&l, 0, SCORE_AT_TURN, "100"), Some(100.0));
        assert_eq!(value(&l, 0, SCORE_AT_TURN, "105"), None);
        assert_eq!((value(&l, 0, TURNS_TO_REACH, "20"), value(&l, 0, TURNS_TO_REACH, "21")), (Some(20.0), None));
        assert_eq!((value(&i, 0, TURNS_TO_REACH, "3"), value(&i, 1, TURNS_TO_REACH, "3")), (Some(7.0), Some(10.0)));
        assert_eq!(value(&i, 0, TURNS_TO_REACH, "4"), None, "A never reached 4");
        assert_eq!(value(&i, 0, PRODUCTION_PER_TURN, ""), Some(1.0));
        assert_eq!(value(&i, 0, PRODUCTION_PER_TURN, "a"), Some(1.0));
        assert_eq!(value(&i, 0, TRADES_PER_TURN, ""), Some(0.1));
        assert_eq!(value(&i, 0, TRADES_WITH_WINNER, ""), Some(1.0));
        assert_eq!(value(&i, 1, TRADES_WITH_WINNER, ""), None, "the winner does not trade with itself");
        assert_eq!((value(&i, 0, LOST, cause::STEAL), value(&i, 1, LOST, cause::STEAL)), (Some(1.0), Some(0.0)));
        assert_eq!((value(&i, 0, POINTS, "tower"), value(&i, 1, POINTS, "tower")), (Some(3.0), Some(4.0)));
        assert_eq!(value(&i, 0, TRADES_WITH, "seat:1"), Some(1.0));
        assert_eq!((value(&i, 0, CARDS_GIVEN, "seat:1"), value(&i, 0, CARDS_GOT, "seat:1")), (Some(1.0), Some(1.0)));
        assert_eq!(value(&i, 1, TRADES_WITH, "seat:0"), Some(1.0));
        assert_eq!(i.openings, vec![Some("2 apples + bricks".to_string()), None]);
    }

    #[test]
    fn an_opening_of_setup_items_says_the_pips_the_board_promised_at_the_first_roll() {
        const DICE: Vocabulary = Vocabulary { dice: Some(almanac_core::DiceSpec { count: 2, faces: 6 }), ..WORDS };
        let gained = |player, item, count| Fact::Gained { player, item, count, cause: cause::SETUP, from: None };
        let promised = |player, thousandths| Fact::Promised { player, thousandths };
        let facts = rows(&[
            (0, gained(0, "a", 2)),
            (0, promised(0, 139)), // a settlement on a 6: 5 pips
            (0, promised(0, 278)), // and one on an 8: 10
            (0, promised(1, 83)),  // 3 pips
            (1, Fact::Rolled { player: 0, dice: almanac_core::Dice::new(&[3, 4]) }),
            (1, promised(0, 500)), // after the first roll: not the opening
        ]);
        let i = insights(&["A".into(), "B".into()], &facts, &DICE);
        assert_eq!(i.openings, vec![Some("2 apples · 10 pips".to_string()), None], "B got no items at setup");
        // A game without dice has no pips to say.
        let plain = insights(&["A".into(), "B".into()], &facts, &WORDS);
        assert_eq!(plain.openings[0].as_deref(), Some("2 apples"));
    }

    #[test]
    fn an_opening_of_first_pieces_names_them_in_the_order_built() {
        const PIECES: Vocabulary = Vocabulary {
            pieces: &[Term::new("tile", "tile"), Term::new("k", "knight"), Term::new("m", "monk")],
            opening: Opening::FirstPieces { count: 2, pieces: &["k", "m"] },
            ..WORDS
        };
        let built = |player, piece| Fact::Built { player, piece };
        let facts = rows(&[
            (1, built(0, "tile")),
            (1, built(0, "m")),
            (2, built(1, "tile")),
            (3, built(0, "k")),
            (4, built(0, "k")),
            (5, built(1, "tile")),
        ]);
        let i = insights(&["A".into(), "B".into(), "C".into()], &facts, &PIECES);
        // A's tiles are not of the kinds asked, its third follower is past the count; B and C placed none.
        assert_eq!(i.openings, vec![Some("monk + knight".to_string()), None, None]);
    }

    #[test]
    fn an_unfinished_game_has_no_winner_to_count() {
        let facts = rows(&[(1, Fact::TurnStarted { turn: 1, player: 0 })]);
        let i = insights(&["A".into(), "B".into()], &facts, &WORDS);
        assert_eq!(value(&i, 0, WON, ""), None);
        assert_eq!(value(&i, 0, PLACE, ""), None);
        assert_eq!(value(&i, 0, SCORE, ""), Some(0.0));
    }

    #[test]
    fn every_preset_asks_a_known_metric() {
        for p in PRESETS {
            let m = metric_named(p.metric).unwrap_or_else(|| panic!("{}", p.id));
            assert_eq!(m.arg == ArgKind::None, p.arg.is_empty(), "{}", p.id);
        }
        assert_eq!(
            metric_label(metric_named(PRODUCTION_PER_TURN).unwrap(), "a", Some(&WORDS)),
            "production of apples per turn"
        );
        assert_eq!(
            metric_label(metric_named(PRODUCTION_PER_TURN).unwrap(), "", Some(&WORDS)),
            "production of everything per turn"
        );
    }
}
