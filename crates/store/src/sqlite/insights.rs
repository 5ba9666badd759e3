//! The questions' read model on SQLite: writing a game's numbers per seat, and answering questions.

use super::Sqlite;
use crate::error::Result;
use crate::questions;
use crate::rows::{CountedGame, Question};
use crate::seats::{SeatRow, Seats, Sieve, Tally};
use almanac_core::{Insights, JudgedDecision};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;

/// Replaces game `id`'s read model by `insights` (in the caller's transaction): its seats, made once from the
/// game's row and players, and their numbers; what that changes in the field's sums is added to `change`, for
/// the caller to write before it commits.
pub fn write(tx: &Connection, id: &str, insights: &Insights, change: &mut Change) -> Result<()> {
    tx.prepare_cached("UPDATE games SET chances_model = ?2 WHERE id = ?1")?
        .execute(rusqlite::params![id, insights.chances_model])?;
    let made = tx.prepare_cached(&numbered(questions::INSERT_SEATS.to_string()))?.execute([id])?;
    let keys: Vec<i64> = {
        let mut stmt = tx.prepare_cached("SELECT key FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let rows = stmt.query_map([id], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    // The field counts the seats that count (`recount`): all of a game's seats or none, in the field of games
    // like it (`seats::LikeGames`: its ruleset, table size and edition, one word for `Change`'s sums).
    let (like, counted): (String, bool) = tx
        .prepare_cached(
            "SELECT ruleset || char(1) || players || char(1) || edition, MAX(counted) = 1 FROM seats WHERE game_id = ?1",
        )?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    // Seats made just now have no numbers yet; seats kept from before (an append, a reproject) lose theirs.
    if made < keys.len() {
        let mut old = tx.prepare_cached(
            "SELECT m.metric, m.arg, n.value FROM seat_numbers n JOIN metrics m ON m.key = n.metric
             WHERE n.seat_key = ?1",
        )?;
        let mut clear = tx.prepare_cached("DELETE FROM seat_numbers WHERE seat_key = ?1")?;
        for key in &keys {
            if counted {
                let mut rows = old.query([key])?;
                while let Some(r) = rows.next()? {
                    change.field.add(
                        [&like, &r.get::<_, String>(0)?, &r.get::<_, String>(1)?],
                        -r.get::<_, f64>(2)?,
                        -1,
                    );
                }
            }
            clear.execute([key])?;
        }
    }
    let mut numbers = Vec::with_capacity(insights.metrics.len());
    for m in &insights.metrics {
        if let Some(&key) = keys.get(m.seat as usize) {
            numbers.push((change.keys.key(tx, m.metric, &m.arg)?, key, m.value));
            if counted {
                change.field.add([&like, m.metric, &m.arg], m.value, 1);
            }
        }
    }
    insert_numbers(tx, &numbers)?;
    // Every seat is written (its opening, or none), which also revises it: what was kept from the game's
    // seats, ratings among it, is known to be stale.
    let mut opening = tx.prepare_cached("UPDATE seats SET opening = ?2 WHERE key = ?1")?;
    for (seat, key) in keys.iter().enumerate() {
        opening.execute(params![key, insights.openings.get(seat).cloned().flatten()])?;
    }
    // Its decisions judged, replaced whole.
    tx.prepare_cached("DELETE FROM judged_decisions WHERE game_id = ?1")?.execute([id])?;
    let mut judged = tx.prepare_cached(
        "INSERT INTO judged_decisions (game_id, seq, seat, chosen, best, alternatives, best_line, best_words, spread)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for d in &insights.decisions {
        // An unknown spread (NaN) is kept as NULL.
        let spread = d.spread.is_finite().then_some(d.spread);
        judged.execute(params![
            id,
            d.seq,
            d.seat,
            d.chosen,
            d.best,
            d.alternatives,
            d.best_line,
            d.best_words,
            spread
        ])?;
    }
    tx.prepare_cached("UPDATE games SET insights_version = ?2 WHERE id = ?1")?
        .execute(params![id, almanac_core::insights::VERSION])?;
    Ok(())
}

/// The most seat numbers one statement inserts: a statement per number was most of the time a game took to
/// store (about 60 numbers a seat).
const NUMBERS_TOGETHER: usize = 64;

/// Inserts a game's numbers (metric key, seat key, value) a few statements at a time: as many of
/// `NUMBERS_TOGETHER` as there are, then the rest by powers of two, so that a handful of statements, each
/// prepared once, serve every game.
fn insert_numbers(tx: &Connection, numbers: &[(i64, i64, f64)]) -> Result<()> {
    let mut rest = numbers;
    while !rest.is_empty() {
        let n = if rest.len() >= NUMBERS_TOGETHER { NUMBERS_TOGETHER } else { 1 << rest.len().ilog2() };
        let (now, later) = rest.split_at(n);
        let sql =
            format!("INSERT INTO seat_numbers (metric, seat_key, value) VALUES {}", vec!["(?, ?, ?)"; n].join(", "));
        let values = now.iter().flat_map(|(metric, seat, value)| [metric as &dyn rusqlite::ToSql, seat, value]);
        tx.prepare_cached(&sql)?.execute(rusqlite::params_from_iter(values))?;
        rest = later;
    }
    Ok(())
}

impl Sqlite {
    /// Game `id`'s judged decisions as its read model keeps them, in the game's order, and when the model
    /// they were judged with was trained (none: no model judged them).
    pub fn judged_decisions(&self, id: &str) -> Result<(Option<String>, Vec<JudgedDecision>)> {
        judged_decisions(&self.conn, id)
    }
}

fn judged_decisions(conn: &Connection, id: &str) -> Result<(Option<String>, Vec<JudgedDecision>)> {
    let trained_at: Option<String> = conn
        .prepare_cached("SELECT w.trained_at FROM games g JOIN win_models w ON w.id = g.chances_model WHERE g.id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    let mut stmt = conn.prepare_cached(
        "SELECT seq, seat, chosen, best, alternatives, best_line, best_words, spread FROM judged_decisions
         WHERE game_id = ?1 ORDER BY seq, seat",
    )?;
    let rows = stmt.query_map([id], |r| {
        Ok(JudgedDecision {
            seq: r.get(0)?,
            seat: r.get(1)?,
            chosen: r.get(2)?,
            best: r.get(3)?,
            alternatives: r.get(4)?,
            best_line: r.get(5)?,
            best_words: r.get(6)?,
            spread: r.get::<_, Option<f64>>(7)?.unwrap_or(f64::NAN),
        })
    })?;
    Ok((trained_at, rows.collect::<rusqlite::Result<_>>()?))
}

/// What a transaction's writes to the read model carry beyond their rows: what its games change in the field's
/// sums (`field_metrics`, keyed by the like games' ruleset, table size and edition joined by `\u{1}` as one
/// word), written once before it commits (a trigger per number, as PostgreSQL keeps, took
/// more than half the time of storing the numbers themselves); and the metrics' keys, which the connection
/// keeps once the transaction commits.
pub struct Change {
    field: questions::Sums,
    keys: MetricKeys,
}

impl Change {
    /// A change that starts from the metrics' keys the connection knows.
    pub fn new(keys: MetricKeys) -> Change {
        Change { field: questions::Sums::default(), keys }
    }

    /// Adds the change to `field_metrics`; gives back the metrics' keys, the new ones among them, for the
    /// connection to keep once the transaction commits.
    pub fn write(self, tx: &Connection) -> Result<MetricKeys> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO field_metrics (ruleset, players, edition, metric, arg, total, seats)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (ruleset, players, edition, metric, arg)
             DO UPDATE SET total = total + excluded.total, seats = seats + excluded.seats",
        )?;
        for ([like, metric, arg], total, _, seats, _) in self.field.iter() {
            // Written by `write` as three words; anything else is this file's own mistake.
            let mut words = like.splitn(3, '\u{1}');
            let (ruleset, players, edition) = (words.next(), words.next(), words.next());
            let players: i64 = players.and_then(|p| p.parse().ok()).expect("`write` joins a table size");
            let edition = edition.expect("`write` joins an edition");
            upsert.execute(params![ruleset, players, edition, metric, arg, total, seats])?;
        }
        Ok(self.keys)
    }
}

/// The integer keys of metrics with their arguments (`metrics`) that a connection has used. Only keys of
/// committed transactions are kept: a key made in a transaction that was rolled back is forgotten with it.
#[derive(Default)]
pub struct MetricKeys {
    by_name: HashMap<String, i64, questions::Quick>,
    name: String,
}

impl MetricKeys {
    /// The key of `metric` with `arg`, made (in the caller's transaction) if it is new.
    fn key(&mut self, tx: &Connection, metric: &str, arg: &str) -> Result<i64> {
        self.name.clear();
        self.name.extend([metric, "\0", arg]);
        if let Some(&key) = self.by_name.get(self.name.as_str()) {
            return Ok(key);
        }
        tx.prepare_cached("INSERT INTO metrics (metric, arg) VALUES (?1, ?2) ON CONFLICT DO NOTHING")?
            .execute(params![metric, arg])?;
        let key = tx
            .prepare_cached("SELECT key FROM metrics WHERE metric = ?1 AND arg = ?2")?
            .query_row(params![metric, arg], |r| r.get(0))?;
        self.by_name.insert(self.name.clone(), key);
        Ok(key)
    }
}

impl Sqlite {
    /// The latest revision of any seat.
    pub fn seat_revision(&self) -> Result<i64> {
        Ok(self.conn.prepare_cached("SELECT last FROM seat_revision")?.query_row([], |r| r.get(0))?)
    }

    /// Hands every seat revised after `revision` to `each`.
    pub(crate) fn seats_since(&self, revision: i64, each: &mut dyn FnMut(SeatRow)) -> Result<()> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT key, game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                    revision, fingerprint, finished, counted, bot,
                    (SELECT g.unseen FROM games g WHERE g.id = seats.game_id),
                    (SELECT g.event_count FROM games g WHERE g.id = seats.game_id), edition
             FROM seats WHERE revision > ?1",
        )?;
        let mut rows = stmt.query([revision])?;
        while let Some(r) = rows.next()? {
            each(SeatRow {
                key: r.get(0)?,
                game: r.get(1)?,
                seat: r.get(2)?,
                ruleset: r.get(3)?,
                player: r.get(4)?,
                players: r.get(5)?,
                played_on: r.get(6)?,
                owner: r.get(7)?,
                published: r.get(8)?,
                deleted: r.get(9)?,
                opening: r.get(10)?,
                revision: r.get(11)?,
                fingerprint: r.get(12)?,
                finished: r.get(13)?,
                counted: r.get(14)?,
                bot: r.get(15)?,
                unseen: r.get::<_, Option<i64>>(16)?.unwrap_or(0),
                events: r.get::<_, Option<i64>>(17)?.unwrap_or(0),
                edition: r.get(18)?,
            });
        }
        Ok(())
    }

    /// A question's numbers tallied. A database in a file is read in two halves of its seats at once, the
    /// second on a connection of its own in another thread, and the two tallies merged: a question over every
    /// game reads hundreds of thousands of numbers, and each half is read as fast as the whole was.
    pub(crate) fn question_tally(&self, q: &Question, seats: &Seats, sieve: &Sieve) -> Result<Tally> {
        let top: i64 = self.conn.query_row("SELECT COALESCE(MAX(key), 0) FROM seats", [], |r| r.get(0))?;
        let path = self.conn.path().filter(|p| !p.is_empty()).map(std::path::PathBuf::from);
        let Some(path) = path.filter(|_| top > 1) else {
            let mut t = Tally::default();
            self.metric_values(q, i64::MIN, i64::MAX, &mut |k, v| t.add(seats, sieve, k, v))?;
            return Ok(t);
        };
        let middle = top / 2;
        std::thread::scope(|scope| {
            let second = scope.spawn(|| -> Result<Tally> {
                let other = Sqlite::open_reader(&path)?;
                let mut t = Tally::default();
                other.metric_values(q, middle + 1, i64::MAX, &mut |k, v| t.add(seats, sieve, k, v))?;
                Ok(t)
            });
            let mut t = Tally::default();
            let first = self.metric_values(q, i64::MIN, middle, &mut |k, v| t.add(seats, sieve, k, v));
            let second = second.join().expect("the second half of a question does not panic");
            first?;
            t.merge(second?);
            Ok(t)
        })
    }

    /// The key of `metric` with `arg`, if any seat ever had that number.
    fn metric_key(&self, metric: &str, arg: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT key FROM metrics WHERE metric = ?1 AND arg = ?2")?
            .query_row(params![metric, arg], |r| r.get(0))
            .optional()?)
    }

    /// Hands the question's metric of every seat keyed `from ..= to` to `each` (seat key, value).
    fn metric_values(&self, q: &Question, from: i64, to: i64, each: &mut dyn FnMut(i64, f64)) -> Result<()> {
        let Some(metric) = self.metric_key(q.metric, &q.arg)? else { return Ok(()) };
        let mut stmt = self.conn.prepare_cached(
            "SELECT seat_key, value FROM seat_numbers WHERE metric = ?1 AND seat_key BETWEEN ?2 AND ?3",
        )?;
        let mut rows = stmt.query(params![metric, from, to])?;
        while let Some(r) = rows.next()? {
            each(r.get(0)?, r.get(1)?);
        }
        Ok(())
    }

    /// Hands the question's metric of the seats keyed `keys` (those that have it) to `each`.
    pub(crate) fn metric_values_of(&self, q: &Question, keys: &[i64], each: &mut dyn FnMut(i64, f64)) -> Result<()> {
        let Some(metric) = self.metric_key(q.metric, &q.arg)? else { return Ok(()) };
        let mut stmt =
            self.conn.prepare_cached("SELECT value FROM seat_numbers WHERE metric = ?1 AND seat_key = ?2")?;
        for &key in keys {
            if let Some(value) = stmt.query_row(params![metric, key], |r| r.get(0)).optional()? {
                each(key, value);
            }
        }
        Ok(())
    }

    /// Counted games as a list shows them, in the order given.
    pub fn briefs(&self, ids: &[String]) -> Result<Vec<CountedGame>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, ruleset, title, played_on, EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.counted = 1)
             FROM games WHERE id = ?1",
        )?;
        let mut out = Vec::new();
        for id in ids {
            out.push(stmt.query_row([id], |r| {
                Ok(CountedGame {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    title: r.get(2)?,
                    played_on: r.get(3)?,
                    counted: r.get(4)?,
                })
            })?);
        }
        Ok(out)
    }
}

const PUBLIC: &str = "s.counted = 1";

/// The shared SQL's `$N` parameters as SQLite numbers them (`?N`: by number, not by first appearance).
fn numbered(sql: String) -> String {
    sql.replace('$', "?")
}

impl Sqlite {
    pub fn read_model_version(&self) -> Result<i64> {
        Ok(self.conn.prepare_cached("SELECT version FROM read_model")?.query_row([], |r| r.get(0))?)
    }

    /// Hands every number of the seats keyed `keys` (of the metrics `only`, every one when empty) to `each`:
    /// seat key, metric, argument, value — by the index of a seat's numbers.
    pub(crate) fn seat_numbers(
        &self,
        keys: &[i64],
        only: &[&str],
        each: &mut dyn FnMut(i64, &str, &str, f64),
    ) -> Result<()> {
        // The metrics' names by key (a few hundred), and the keys of those asked for.
        let mut names: HashMap<i64, (String, String), questions::Quick> = HashMap::default();
        let mut stmt = self.conn.prepare_cached("SELECT key, metric, arg FROM metrics")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let metric: String = r.get(1)?;
            if only.is_empty() || only.contains(&metric.as_str()) {
                names.insert(r.get(0)?, (metric, r.get(2)?));
            }
        }
        // One seek per seat, the metrics not asked for passed over here: cheaper than a seek per metric.
        let mut stmt = self.conn.prepare_cached("SELECT metric, value FROM seat_numbers WHERE seat_key = ?1")?;
        for &key in keys {
            let mut rows = stmt.query([key])?;
            while let Some(r) = rows.next()? {
                if let Some((metric, arg)) = names.get(&r.get::<_, i64>(0)?) {
                    each(key, metric, arg, r.get(1)?);
                }
            }
        }
        Ok(())
    }

    pub fn field_sums(&self, ruleset: &str) -> Result<Vec<crate::questions::FieldSum>> {
        let mut stmt = self.conn.prepare_cached(&numbered(questions::FIELD_SUMS.to_string()))?;
        let rows = stmt.query_map([ruleset], |r| {
            Ok(crate::questions::FieldSum {
                players: r.get(0)?,
                edition: r.get(1)?,
                metric: r.get(2)?,
                arg: r.get(3)?,
                total: r.get(4)?,
                seats: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        // A game's rowid, from the index of ids alone (the games' rows carry their headers).
        let stored = "(SELECT g.rowid FROM games g WHERE g.id = s.game_id)";
        let mut stmt = self.conn.prepare_cached(&numbered(questions::rated_games(PUBLIC, stored)))?;
        let rows = stmt.query_map([ruleset], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(questions::gather_rated(rows.collect::<rusqlite::Result<Vec<_>>>()?))
    }

    /// `rated_games` of every published record `club` owns, counted or not (`Store::rated_games_of_club`
    /// keeps one record of each game).
    pub fn rated_games_owned(&self, ruleset: &str, club: crate::ClubId) -> Result<Vec<crate::rows::RatedGame>> {
        let stored = "(SELECT g.rowid FROM games g WHERE g.id = s.game_id)";
        let owned = "s.owner = $2 AND s.published = 1 AND s.deleted = 0";
        let mut stmt = self.conn.prepare_cached(&numbered(questions::rated_games(owned, stored)))?;
        let rows = stmt.query_map(rusqlite::params![ruleset, club], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(questions::gather_rated(rows.collect::<rusqlite::Result<Vec<_>>>()?))
    }
}
