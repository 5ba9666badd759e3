//! A game as a coach reads it at the end, one row per player: cards gained by where they came from, cards
//! lost by how, what the spending bought, and the trades. Every number keeps the events behind it, so a page
//! can link each to the moment it began. All from facts, in the words the game declares.

use almanac_core::{FactKind, FactRow, Vocabulary};
use serde::Serialize;
use std::collections::BTreeMap;

/// A column: a cause of cards gained or lost, or a piece bought.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    pub id: String,
    pub label: String,
}

/// A number and the events (by seq) behind it, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Cell {
    pub count: i64,
    pub events: Vec<u64>,
}

impl Cell {
    fn add(&mut self, n: i64, seq: u64) {
        self.count += n;
        if self.events.last() != Some(&seq) {
            self.events.push(seq);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoachRow {
    pub player: String,
    /// By the table's `gained_by` columns.
    pub gained: Vec<Cell>,
    pub lost: Vec<Cell>,
    pub spent: Vec<Cell>,
    /// By the table's `points_by` columns: points scored for each reason.
    pub points: Vec<Cell>,
    /// By the table's `placed` columns: pieces placed of each kind.
    pub placed: Vec<Cell>,
    /// By the table's `returned` columns: pieces that came back to their player's supply.
    pub returned: Vec<Cell>,
    /// Trades taken part in, and the cards given and got in them.
    pub trades: Cell,
    pub gave: i64,
    pub got: i64,
    /// Luck: cards produced by the dice, and what the dice and the board promised over the game (when the
    /// game says what each roll promises).
    pub produced: i64,
    pub promised: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoachTable {
    pub gained_by: Vec<Column>,
    pub lost_by: Vec<Column>,
    /// What spending bought: a piece built in the same event, or `other`.
    pub spent_on: Vec<Column>,
    /// What scored points, in the game's declared reasons.
    pub points_by: Vec<Column>,
    /// The pieces placed, in the game's declared order.
    pub placed: Vec<Column>,
    /// The pieces returned to their players, in the game's declared order.
    pub returned: Vec<Column>,
    /// The parts its game declares, in order (`Vocabulary::coach`).
    pub parts: Vec<almanac_core::CoachPart>,
    /// What its items are ("cards", "goods"), the unit of gains, losses and spending.
    pub items_are: String,
    pub rows: Vec<CoachRow>,
}

/// The column id of spending that built nothing in its event (a card bought, a fee).
pub const OTHER: &str = "other";

pub fn coach_table(players: &[String], facts: &[FactRow], vocabulary: &Vocabulary) -> CoachTable {
    let n = players.len();
    let mut gained: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut lost: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut spent: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut points: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut placed: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut returned: Vec<BTreeMap<String, Cell>> = vec![BTreeMap::new(); n];
    let mut trades = vec![Cell::default(); n];
    let mut balance = vec![(0i64, 0i64); n];
    // The piece each player built in each event, for what their spending bought.
    let mut built: BTreeMap<(u64, u32), String> = BTreeMap::new();
    for f in facts.iter().filter(|f| f.kind == FactKind::Built) {
        if let (Some(p), Some(piece)) = (f.player, f.item.as_ref()) {
            built.entry((f.seq, p)).or_insert_with(|| piece.clone());
        }
    }
    for f in facts {
        let Some(p) = f.player.map(|p| p as usize).filter(|&p| p < n) else { continue };
        let count = f.count.unwrap_or(0);
        let cause = f.cause.clone().unwrap_or_default();
        match f.kind {
            FactKind::Gained => gained[p].entry(cause).or_default().add(count, f.seq),
            FactKind::Lost => lost[p].entry(cause).or_default().add(count, f.seq),
            FactKind::Spent => {
                let on = built.get(&(f.seq, p as u32)).cloned().unwrap_or_else(|| OTHER.to_string());
                spent[p].entry(on).or_default().add(count, f.seq);
            }
            FactKind::Traded => {
                // Each side of a trade between players has its own fact: one trade each.
                trades[p].add(1, f.seq);
                if let Some(cards) = almanac_core::facts::TradeCards::of(f.detail.as_deref()) {
                    balance[p].0 += cards.gave.total();
                    balance[p].1 += cards.got.total();
                }
            }
            FactKind::Score => {
                let delta = f.count.unwrap_or(0);
                if delta != 0 {
                    points[p].entry(f.item.clone().unwrap_or_default()).or_default().add(delta, f.seq);
                }
            }
            FactKind::Built => {
                if let Some(piece) = &f.item {
                    placed[p].entry(piece.clone()).or_default().add(1, f.seq);
                }
            }
            FactKind::Returned => {
                if let Some(piece) = &f.item {
                    returned[p].entry(piece.clone()).or_default().add(1, f.seq);
                }
            }
            FactKind::TurnStarted
            | FactKind::Rolled
            | FactKind::CardPlayed
            | FactKind::Award
            | FactKind::GameOver
            | FactKind::Gauge
            | FactKind::Moment
            | FactKind::Promised => {}
        }
    }
    let columns = |maps: &[BTreeMap<String, Cell>], terms: &[almanac_core::Term]| -> Vec<Column> {
        let mut ids: Vec<String> = terms.iter().map(|t| t.id.to_string()).collect();
        ids.extend(maps.iter().flat_map(|m| m.keys().cloned()));
        let mut seen = Vec::new();
        for id in ids {
            if !seen.contains(&id) && maps.iter().any(|m| m.contains_key(&id)) {
                seen.push(id);
            }
        }
        seen.into_iter()
            .map(|id| {
                let label =
                    terms.iter().find(|t| t.id == id).map_or_else(|| id.replace('_', " "), |t| t.label.to_string());
                Column { id, label }
            })
            .collect()
    };
    let gained_by = columns(&gained, vocabulary.causes);
    let lost_by = columns(&lost, vocabulary.causes);
    let spent_on = columns(&spent, vocabulary.pieces);
    let points_by = columns(&points, vocabulary.score_reasons);
    let placed_cols = columns(&placed, vocabulary.pieces);
    let returned_cols = columns(&returned, vocabulary.pieces);
    let cells = |map: &BTreeMap<String, Cell>, cols: &[Column]| -> Vec<Cell> {
        cols.iter().map(|c| map.get(&c.id).cloned().unwrap_or_default()).collect()
    };
    let promised = {
        let mut tally = crate::insights::Tally::new(n, *vocabulary);
        tally.add(facts);
        tally.promised()
    };
    let produced = |p: usize| gained[p].get(almanac_core::cause::PRODUCTION).map_or(0, |c| c.count);
    let rows = (0..n)
        .map(|p| CoachRow {
            produced: produced(p),
            promised: promised.as_ref().map(|all| all[p]),
            player: players[p].clone(),
            gained: cells(&gained[p], &gained_by),
            lost: cells(&lost[p], &lost_by),
            spent: cells(&spent[p], &spent_on),
            points: cells(&points[p], &points_by),
            placed: cells(&placed[p], &placed_cols),
            returned: cells(&returned[p], &returned_cols),
            trades: trades[p].clone(),
            gave: balance[p].0,
            got: balance[p].1,
        })
        .collect();
    CoachTable {
        gained_by,
        lost_by,
        spent_on,
        points_by,
        placed: placed_cols,
        returned: returned_cols,
        parts: vocabulary.coach.to_vec(),
        items_are: vocabulary.items_are.to_string(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::made_up::WORDS;
    use almanac_core::{cause, Fact, Partner};

    fn rows(facts: &[(u64, Fact)]) -> Vec<FactRow> {
        facts.iter().map(|(seq, f)| f.row(*seq, 1)).collect()
    }

    #[test]
    fn every_number_keeps_the_events_behind_it() {
        let gained = |player, count, cause| Fact::Gained { player, item: "a", count, cause, from: None };
        let facts = rows(&[
            (1, gained(0, 2, cause::PRODUCTION)),
            (3, gained(0, 1, cause::PRODUCTION)),
            (4, gained(1, 1, cause::STEAL)),
            (4, Fact::Lost { player: 0, item: "a", count: 1, cause: cause::STEAL, to: Some(1) }),
            (5, Fact::Spent { player: 0, item: "a", count: 2, cause: cause::PURCHASE }),
            (5, Fact::Built { player: 0, piece: "tower" }),
            (6, Fact::Spent { player: 0, item: "b", count: 1, cause: cause::PURCHASE }),
            (
                7,
                Fact::Traded { player: 1, partner: Partner::Market("bank"), gave: vec![("b", 4)], got: vec![("a", 1)] },
            ),
        ]);
        let t = coach_table(&["A".into(), "B".into()], &facts, &WORDS);
        let ids = |cols: &[Column]| cols.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&t.gained_by), vec!["production", "steal"]);
        assert_eq!(ids(&t.spent_on), vec!["tower", OTHER]);
        assert_eq!(t.gained_by[0].label, "production");
        assert_eq!(t.rows[0].gained[0], Cell { count: 3, events: vec![1, 3] });
        assert_eq!(t.rows[1].gained[1], Cell { count: 1, events: vec![4] });
        assert_eq!(t.rows[0].lost[0], Cell { count: 1, events: vec![4] });
        assert_eq!((t.rows[0].spent[0].count, t.rows[0].spent[1].count), (2, 1), "a tower, and something else");
        assert_eq!((t.rows[1].trades.count, t.rows[1].gave, t.rows[1].got), (1, 4, 1));
        assert_eq!((t.rows[0].produced, t.rows[0].promised), (3, None), "no promise said, no luck to read");
    }

    #[test]
    fn luck_is_production_against_what_every_roll_promised() {
        let roll = |player| Fact::Rolled { player, dice: almanac_core::Dice::new(&[3, 4]) };
        let gained = |player, count| Fact::Gained { player, item: "a", count, cause: cause::PRODUCTION, from: None };
        let facts = rows(&[
            (1, Fact::Promised { player: 0, thousandths: 500 }),
            (1, Fact::Promised { player: 1, thousandths: 250 }),
            (1, roll(0)),
            (1, gained(0, 2)),
            (2, roll(1)),
            (3, Fact::Promised { player: 1, thousandths: 1000 }),
            (3, roll(0)),
            (3, gained(1, 1)),
        ]);
        let t = coach_table(&["A".into(), "B".into()], &facts, &WORDS);
        // A: three rolls at half a card; B: two at a quarter, one at a whole card.
        assert_eq!((t.rows[0].produced, t.rows[0].promised), (2, Some(1.5)));
        assert_eq!((t.rows[1].produced, t.rows[1].promised), (1, Some(1.5)));
    }
}
