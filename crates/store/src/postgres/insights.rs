//! The read model for questions across games: each seat's numbers (only those that changed rewritten), the
//! questions over them and the field's sums.

use super::events::{rows, run};
use super::*;
use almanac_core::JudgedDecision;

/// Replaces game `id`'s read model for questions by `insights`: its seats (made once, from the game's row and
/// players) and their numbers, one statement per table (a new game's are written with its rows: `together`).
/// The game's `chances_model` is written with its summary (`refresh_summary`).
pub(super) fn write_insights(tx: &mut Transaction, p: &Prepared, id: &str, insights: &Insights) -> Result<()> {
    // The game's seats with their keys, and the numbers stored under them. Only the numbers that changed are
    // rewritten: an append changes a few of a game's hundreds, and each row written or removed also moves the
    // field's sums (the triggers above). Read seat by seat (LATERAL, not pulled up: OFFSET 0): planned once
    // for a prepared statement, a join had become a scan of every number.
    let mut seat_keys: HashMap<i32, i64> = HashMap::new();
    let mut stored: HashMap<(i32, String, String), (i32, f64)> = HashMap::new();
    let read = |tx: &mut Transaction| rows(tx, p, SEAT_NUMBERS, &[&id]);
    let mut read_rows = read(tx)?;
    if read_rows.is_empty() {
        // A game new to the store has no seats yet (a game appended to has them: a round trip saved).
        run(tx, p, questions::INSERT_SEATS, &[&id])?;
        read_rows = read(tx)?;
    }
    for r in read_rows {
        seat_keys.insert(r.get(0), r.get(1));
        if let Some(metric) = r.get::<_, Option<i32>>(2) {
            stored.insert((r.get(0), r.get(3), r.get(4)), (metric, r.get(5)));
        }
    }
    let new: HashMap<(i32, &str, &str), f64> =
        insights.metrics.iter().map(|m| ((m.seat as i32, m.metric, m.arg.as_str()), m.value)).collect();
    let (mut gone_seat, mut gone_metric) = (Vec::new(), Vec::new());
    for ((seat, metric, arg), (key, value)) in &stored {
        if new.get(&(*seat, metric.as_str(), arg.as_str())) != Some(value) {
            gone_seat.push(seat_keys[seat]);
            gone_metric.push(*key);
        }
    }
    if !gone_seat.is_empty() {
        run(tx, p, NUMBERS_GONE, &[&gone_seat, &gone_metric])?;
    }
    // A seat the game does not have has no numbers (as on SQLite).
    let changed: Vec<(i64, &almanac_core::SeatMetric)> = insights
        .metrics
        .iter()
        .filter(|m| stored.get(&(m.seat as i32, m.metric.to_string(), m.arg.clone())).map(|s| s.1) != Some(m.value))
        .filter_map(|m| Some((*seat_keys.get(&(m.seat as i32))?, m)))
        .collect();
    insert_numbers(tx, p, &changed)?;
    // Every seat is written (its opening, or none), which also revises it: what was kept from the game's
    // seats, ratings among it, is known to be stale.
    let seats: Vec<i32> = (0..insights.openings.len() as i32).collect();
    // With the version the numbers were made by, in the same round trip.
    run(tx, p, OPENINGS, &[&id, &seats, &insights.openings, &(almanac_core::insights::VERSION as i32)])?;
    run(tx, p, "DELETE FROM judged_decisions WHERE game_id = $1", &[&id])?;
    let decisions: Vec<(&str, &JudgedDecision)> = insights.decisions.iter().map(|d| (id, d)).collect();
    insert_decisions(tx, p, &decisions)
}

/// Writes games' judged decisions, each under its game's id: one statement for them all.
pub(super) fn insert_decisions(
    tx: &mut Transaction,
    p: &Prepared,
    decisions: &[(&str, &JudgedDecision)],
) -> Result<()> {
    if decisions.is_empty() {
        return Ok(());
    }
    let ids: Vec<&str> = decisions.iter().map(|(id, _)| *id).collect();
    let seqs: Vec<i64> = decisions.iter().map(|(_, d)| d.seq as i64).collect();
    let seats: Vec<i32> = decisions.iter().map(|(_, d)| d.seat as i32).collect();
    let chosen: Vec<f64> = decisions.iter().map(|(_, d)| d.chosen).collect();
    let best: Vec<f64> = decisions.iter().map(|(_, d)| d.best).collect();
    let alternatives: Vec<i32> = decisions.iter().map(|(_, d)| d.alternatives as i32).collect();
    let lines: Vec<&str> = decisions.iter().map(|(_, d)| d.best_line.as_str()).collect();
    let words: Vec<&str> = decisions.iter().map(|(_, d)| d.best_words.as_str()).collect();
    // An unknown spread (NaN) is kept as NULL.
    let spreads: Vec<Option<f64>> = decisions.iter().map(|(_, d)| d.spread.is_finite().then_some(d.spread)).collect();
    run(
        tx,
        p,
        "INSERT INTO judged_decisions (game_id, seq, seat, chosen, best, alternatives, best_line, best_words, spread)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::float8[], $5::float8[], $6::int[],
                              $7::text[], $8::text[], $9::float8[])",
        &[&ids, &seqs, &seats, &chosen, &best, &alternatives, &lines, &words, &spreads],
    )?;
    Ok(())
}

impl Postgres {
    /// Game `id`'s judged decisions as its read model keeps them, in the game's order, and when the model
    /// they were judged with was trained (none: no model judged them).
    pub fn judged_decisions(&self, id: &str) -> Result<(Option<String>, Vec<JudgedDecision>)> {
        let mut client = self.client.borrow_mut();
        let trained_at: Option<String> = client
            .query_opt(
                "SELECT w.trained_at FROM games g JOIN win_models w ON w.id = g.chances_model WHERE g.id = $1",
                &[&id],
            )?
            .map(|r| r.get(0));
        let rows = client.query(
            "SELECT seq, seat, chosen, best, alternatives, best_line, best_words, spread FROM judged_decisions
             WHERE game_id = $1 ORDER BY seq, seat",
            &[&id],
        )?;
        let decisions = rows
            .iter()
            .map(|r| JudgedDecision {
                seq: r.get::<_, i64>(0) as u64,
                seat: r.get::<_, i32>(1) as u32,
                chosen: r.get(2),
                best: r.get(3),
                alternatives: r.get::<_, i32>(4) as u32,
                best_line: r.get(5),
                best_words: r.get(6),
                spread: r.get::<_, Option<f64>>(7).unwrap_or(f64::NAN),
            })
            .collect();
        Ok((trained_at, decisions))
    }
}

/// Writes `numbers`, each under its seat's key, under their metrics' keys (made first for metrics new to
/// the store): one statement for them all, a game's or a batch's; the field's sums move by trigger.
pub(super) fn insert_numbers(
    tx: &mut Transaction,
    p: &Prepared,
    numbers: &[(i64, &almanac_core::SeatMetric)],
) -> Result<()> {
    if numbers.is_empty() {
        return Ok(());
    }
    let named = |m: &almanac_core::SeatMetric| (m.metric.to_string(), m.arg.clone());
    let known = {
        let cache = p.metric_keys().borrow();
        numbers.iter().map(|(_, m)| cache.get(&named(m)).copied()).collect::<Option<Vec<i32>>>()
    };
    let metric = match known {
        // Every metric's key read before, committed: nothing to ask (an append's usual case).
        Some(keys) => keys,
        None => {
            let names: Vec<&str> = numbers.iter().map(|(_, m)| m.metric).collect();
            let args: Vec<&str> = numbers.iter().map(|(_, m)| m.arg.as_str()).collect();
            // The next statement sees the keys another server made meanwhile too: ON CONFLICT waits for it.
            // Those this transaction made are not kept until another reading finds them committed.
            let made: std::collections::HashSet<(String, String)> = rows(
                tx,
                p,
                "INSERT INTO metrics (metric, arg) SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) ORDER BY 1, 2
                 ON CONFLICT (metric, arg) DO NOTHING RETURNING metric, arg",
                &[&names, &args],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
            // A few hundred metrics in all: every key, rather than a search for those named.
            let keys: HashMap<(String, String), i32> = rows(tx, p, "SELECT key, metric, arg FROM metrics", &[])?
                .iter()
                .map(|r| ((r.get(1), r.get(2)), r.get(0)))
                .collect();
            let mut cache = p.metric_keys().borrow_mut();
            for (name, key) in &keys {
                if !made.contains(name) {
                    cache.insert(name.clone(), *key);
                }
            }
            let mut metric = Vec::with_capacity(numbers.len());
            for (_, m) in numbers {
                let name = named(m);
                metric.push(
                    *keys.get(&name).ok_or_else(|| StoreError::Invalid(format!("no key for the metric {name:?}")))?,
                );
            }
            metric
        }
    };
    let seat: Vec<i64> = numbers.iter().map(|(key, _)| *key).collect();
    let value: Vec<f64> = numbers.iter().map(|(_, m)| m.value).collect();
    run(tx, p, NUMBERS_MADE, &[&metric, &seat, &value])?;
    Ok(())
}

/// Questions across games.
impl Postgres {
    /// The latest revision of any seat.
    pub fn seat_revision(&self) -> Result<i64> {
        Ok(self.client.borrow_mut().query_one("SELECT last FROM seat_revision", &[])?.get(0))
    }

    /// Hands every seat revised after `revision` to `each`.
    pub(crate) fn seats_since(&self, revision: i64, each: &mut dyn FnMut(SeatRow)) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT key, game_id, seat, ruleset, player, players, played_on, owner, published, deleted, opening,
                    revision, fingerprint, finished, counted, bot,
                    (SELECT g.unseen FROM games g WHERE g.id = seats.game_id),
                    (SELECT g.event_count FROM games g WHERE g.id = seats.game_id), edition
             FROM seats WHERE revision > $1",
            &[&revision],
        )?;
        for r in rows {
            each(SeatRow {
                key: r.get(0),
                game: r.get(1),
                seat: r.get::<_, i32>(2) as i64,
                ruleset: r.get(3),
                player: r.get(4),
                players: r.get::<_, i32>(5) as i64,
                played_on: r.get(6),
                owner: r.get(7),
                published: r.get(8),
                deleted: r.get(9),
                opening: r.get(10),
                revision: r.get(11),
                fingerprint: r.get(12),
                finished: r.get(13),
                counted: r.get(14),
                bot: r.get(15),
                unseen: r.get::<_, Option<i64>>(16).unwrap_or(0),
                events: r.get::<_, Option<i64>>(17).unwrap_or(0),
                edition: r.get(18),
            });
        }
        Ok(())
    }

    /// A question's numbers tallied, in one pass (PostgreSQL plans its own parallel scans).
    pub(crate) fn question_tally(&self, q: &Question, seats: &Seats, sieve: &Sieve) -> Result<Tally> {
        let mut t = Tally::default();
        let rows = self.client.borrow_mut().query(
            "SELECT seat_key, value FROM seat_numbers
                 WHERE metric = (SELECT key FROM metrics WHERE metric = $1 AND arg = $2)",
            &[&q.metric, &q.arg],
        )?;
        for r in rows {
            t.add(seats, sieve, r.get(0), r.get(1));
        }
        Ok(t)
    }

    /// Hands the question's metric of the seats keyed `keys` (those that have it) to `each`.
    pub(crate) fn metric_values_of(&self, q: &Question, keys: &[i64], each: &mut dyn FnMut(i64, f64)) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT seat_key, value FROM seat_numbers
             WHERE metric = (SELECT key FROM metrics WHERE metric = $1 AND arg = $2) AND seat_key = ANY($3)",
            &[&q.metric, &q.arg, &keys],
        )?;
        for r in rows {
            each(r.get(0), r.get(1));
        }
        Ok(())
    }

    pub fn briefs(&self, ids: &[String]) -> Result<Vec<CountedGame>> {
        let rows = self
            .client
            .borrow_mut()
            .query(
                "SELECT id, ruleset, title, played_on, EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.counted)
                 FROM games WHERE id = ANY($1)",
                &[&ids],
            )?;
        let mut found: std::collections::HashMap<String, CountedGame> = rows
            .iter()
            .map(|r| {
                let game = CountedGame {
                    id: r.get(0),
                    ruleset: r.get(1),
                    title: r.get(2),
                    played_on: r.get(3),
                    counted: r.get(4),
                };
                (r.get(0), game)
            })
            .collect();
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }
}

/// A player's numbers, trade partners and openings.
impl Postgres {
    pub fn read_model_version(&self) -> Result<i64> {
        // `last_value` is 1 before the first `nextval` too: `is_called` tells the two apart.
        let row = self.client.borrow_mut().query_one("SELECT last_value, is_called FROM read_model_version", &[])?;
        Ok(if row.get::<_, bool>(1) { row.get(0) } else { 0 })
    }

    pub fn bump_read_model(&mut self) -> Result<()> {
        self.client.borrow_mut().execute("SELECT nextval('read_model_version')", &[])?;
        Ok(())
    }

    /// Hands every number of the seats keyed `keys` (of the metrics `only`, every one when empty) to `each`:
    /// seat key, metric, argument, value.
    pub(crate) fn seat_numbers(
        &self,
        keys: &[i64],
        only: &[&str],
        each: &mut dyn FnMut(i64, &str, &str, f64),
    ) -> Result<()> {
        let rows = self.client.borrow_mut().query(
            "SELECT n.seat_key, k.metric, k.arg, n.value FROM seat_numbers n JOIN metrics k ON k.key = n.metric
             WHERE n.seat_key = ANY($1) AND (cardinality($2::text[]) = 0 OR k.metric = ANY($2))",
            &[&keys, &only],
        )?;
        for r in rows {
            each(r.get(0), r.get(1), r.get(2), r.get(3));
        }
        Ok(())
    }

    pub fn field_sums(&self, ruleset: &str) -> Result<Vec<questions::FieldSum>> {
        let rows = self.client.borrow_mut().query(questions::FIELD_SUMS, &[&ruleset])?;
        Ok(rows
            .iter()
            .map(|r| questions::FieldSum {
                players: r.get(0),
                edition: r.get(1),
                metric: r.get(2),
                arg: r.get(3),
                total: r.get(4),
                seats: r.get(5),
            })
            .collect())
    }

    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        let stored = "(SELECT g.stored_at FROM games g WHERE g.id = s.game_id), (SELECT g.n FROM games g WHERE g.id = s.game_id)";
        let rows = self.client.borrow_mut().query(&questions::rated_games(PUBLIC, stored), &[&ruleset])?;
        Ok(questions::gather_rated(
            rows.iter().map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1), r.get::<_, Option<i64>>(2))),
        ))
    }

    /// `rated_games` of every published record `club` owns, counted or not (`Store::rated_games_of_club`
    /// keeps one record of each game).
    pub fn rated_games_owned(&self, ruleset: &str, club: crate::ClubId) -> Result<Vec<crate::rows::RatedGame>> {
        let stored = "(SELECT g.stored_at FROM games g WHERE g.id = s.game_id), (SELECT g.n FROM games g WHERE g.id = s.game_id)";
        let owned = "s.owner = $2 AND s.published AND NOT s.deleted";
        let rows = self.client.borrow_mut().query(&questions::rated_games(owned, stored), &[&ruleset, &club])?;
        Ok(questions::gather_rated(
            rows.iter().map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1), r.get::<_, Option<i64>>(2))),
        ))
    }
}

const PUBLIC: &str = "s.counted";

/// A game's seats with their keys and the numbers stored under them (`write_insights`).
pub(super) const SEAT_NUMBERS: &str = "SELECT s.seat, s.key, n.metric, k.metric, k.arg, n.value
             FROM seats s
             LEFT JOIN LATERAL (SELECT metric, value FROM seat_numbers WHERE seat_key = s.key OFFSET 0) n ON TRUE
             LEFT JOIN metrics k ON k.key = n.metric
             WHERE s.game_id = $1";

/// Numbers that changed, removed (`write_insights`).
pub(super) const NUMBERS_GONE: &str =
    "DELETE FROM seat_numbers n USING unnest($1::bigint[], $2::int[]) AS g(seat_key, metric)
             WHERE n.seat_key = g.seat_key AND n.metric = g.metric";

/// Numbers written (`insert_numbers`).
pub(super) const NUMBERS_MADE: &str = "INSERT INTO seat_numbers (metric, seat_key, value)
         SELECT * FROM unnest($1::int[], $2::bigint[], $3::float8[]) ORDER BY 1, 2";

/// Every seat's opening, with the version the numbers were made by (`write_insights`).
pub(super) const OPENINGS: &str = "WITH version AS (UPDATE games SET insights_version = $4 WHERE id = $1)
         UPDATE seats s SET opening = u.opening
         FROM (SELECT s2.seat, o.opening FROM seats s2
               LEFT JOIN unnest($2::int[], $3::text[]) AS o(seat, opening) ON o.seat = s2.seat
               WHERE s2.game_id = $1) AS u
         WHERE s.game_id = $1 AND s.seat = u.seat";
