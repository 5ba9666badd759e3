//! The read model for questions across games: each seat's numbers (only those that changed rewritten), the
//! questions over them and the field's sums.

use super::events::{rows, run};
use super::*;

/// Replaces game `id`'s read model for questions by `insights`: its seats (made once, from the game's row and
/// players) and their numbers, one statement per table (a new game's are written with its rows: `together`).
pub(super) fn write_insights(tx: &mut Transaction, p: &Prepared, id: &str, insights: &Insights) -> Result<()> {
    run(tx, p, questions::INSERT_SEATS, &[&id])?;
    // Only the numbers that changed are rewritten: an append changes a few of a game's hundreds, and each
    // row written or removed also moves the field's sums (the triggers above). The numbers are read seat by
    // seat (LATERAL): planned once for a prepared statement, a join had become a scan of every number.
    let stored: HashMap<(i32, String, String), f64> = rows(
        tx,
        p,
        "SELECT s.seat, k.metric, k.arg, n.value
         FROM seats s, LATERAL (SELECT metric, value FROM seat_numbers WHERE seat_key = s.key) n, metrics k
         WHERE s.game_id = $1 AND k.key = n.metric",
        &[&id],
    )?
    .iter()
    .map(|r| ((r.get(0), r.get(1), r.get(2)), r.get(3)))
    .collect();
    let new: HashMap<(i32, &str, &str), f64> =
        insights.metrics.iter().map(|m| ((m.seat as i32, m.metric, m.arg.as_str()), m.value)).collect();
    let (mut gone_seat, mut gone_metric, mut gone_arg) = (Vec::new(), Vec::new(), Vec::new());
    for ((seat, metric, arg), value) in &stored {
        if new.get(&(*seat, metric.as_str(), arg.as_str())) != Some(value) {
            gone_seat.push(*seat);
            gone_metric.push(metric.as_str());
            gone_arg.push(arg.as_str());
        }
    }
    if !gone_seat.is_empty() {
        run(
            tx,
            p,
            "DELETE FROM seat_numbers n
             USING seats s, metrics k, unnest($2::int[], $3::text[], $4::text[]) AS g(seat, metric, arg)
             WHERE s.game_id = $1 AND s.seat = g.seat AND k.metric = g.metric AND k.arg = g.arg
               AND n.seat_key = s.key AND n.metric = k.key",
            &[&id, &gone_seat, &gone_metric, &gone_arg],
        )?;
    }
    let changed: Vec<_> = insights
        .metrics
        .iter()
        .filter(|m| stored.get(&(m.seat as i32, m.metric.to_string(), m.arg.clone())) != Some(&m.value))
        .collect();
    let metric: Vec<&str> = changed.iter().map(|m| m.metric).collect();
    let arg: Vec<&str> = changed.iter().map(|m| m.arg.as_str()).collect();
    let seat: Vec<i32> = changed.iter().map(|m| m.seat as i32).collect();
    let value: Vec<f64> = changed.iter().map(|m| m.value).collect();
    // Every metric named has its key before the numbers are written under it (the next statement sees what
    // another server made meanwhile too: ON CONFLICT waits for it).
    make_metric_keys(tx, p, &metric, &arg)?;
    // A metric without its key would be a NULL key, which the table refuses: no number is lost unseen.
    run(
        tx,
        p,
        "INSERT INTO seat_numbers (metric, seat_key, value)
         SELECT k.key, s.key, m.value
         FROM unnest($2::text[], $3::text[], $4::int[], $5::float8[]) AS m(metric, arg, seat, value)
         JOIN seats s ON s.game_id = $1 AND s.seat = m.seat
         LEFT JOIN metrics k ON k.metric = m.metric AND k.arg = m.arg
         ORDER BY k.key",
        &[&id, &metric, &arg, &seat, &value],
    )?;
    // Every seat is written (its opening, or none), which also revises it: what was kept from the game's
    // seats, ratings among it, is known to be stale.
    let seats: Vec<i32> = (0..insights.openings.len() as i32).collect();
    run(
        tx,
        p,
        "UPDATE seats s SET opening = u.opening
         FROM (SELECT s2.seat, o.opening FROM seats s2
               LEFT JOIN unnest($2::int[], $3::text[]) AS o(seat, opening) ON o.seat = s2.seat
               WHERE s2.game_id = $1) AS u
         WHERE s.game_id = $1 AND s.seat = u.seat",
        &[&id, &seats, &insights.openings],
    )?;
    run(
        tx,
        p,
        "UPDATE games SET insights_version = $2 WHERE id = $1",
        &[&id, &(almanac_core::insights::VERSION as i32)],
    )?;
    Ok(())
}

/// Makes the keys of the metrics named (`metric[k]` with `arg[k]`) that have none yet.
pub(super) fn make_metric_keys(tx: &mut Transaction, p: &Prepared, metric: &[&str], arg: &[&str]) -> Result<()> {
    run(
        tx,
        p,
        "INSERT INTO metrics (metric, arg) SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) ORDER BY 1, 2
         ON CONFLICT (metric, arg) DO NOTHING",
        &[&metric, &arg],
    )?;
    Ok(())
}

/// The keys of the metrics named (`metric[k]` with `arg[k]`), made if new, by name and argument.
pub(super) fn metric_keys(
    tx: &mut Transaction,
    p: &Prepared,
    metric: &[&str],
    arg: &[&str],
) -> Result<HashMap<(String, String), i32>> {
    make_metric_keys(tx, p, metric, arg)?;
    // A few hundred metrics in all: every key, rather than a search for those named.
    Ok(rows(tx, p, "SELECT key, metric, arg FROM metrics", &[])?
        .iter()
        .map(|r| ((r.get(1), r.get(2)), r.get(0)))
        .collect())
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
                    revision, fingerprint, finished, counted, bot
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
            .query("SELECT id, ruleset, title, played_on FROM games WHERE id = ANY($1)", &[&ids])?;
        let mut found: std::collections::HashMap<String, CountedGame> = rows
            .iter()
            .map(|r| (r.get(0), CountedGame { id: r.get(0), ruleset: r.get(1), title: r.get(2), played_on: r.get(3) }))
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

    pub fn field(&self, ruleset: &str) -> Result<Vec<(String, String, f64)>> {
        let rows = self.client.borrow_mut().query(questions::FIELD, &[&ruleset])?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
    }

    pub fn rated_games(&self, ruleset: &str) -> Result<Vec<crate::rows::RatedGame>> {
        let stored = "(SELECT g.stored_at FROM games g WHERE g.id = s.game_id), (SELECT g.n FROM games g WHERE g.id = s.game_id)";
        let rows = self.client.borrow_mut().query(&questions::rated_games(PUBLIC, stored), &[&ruleset])?;
        Ok(questions::gather_rated(
            rows.iter().map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1), r.get::<_, Option<i64>>(2))),
        ))
    }
}

const PUBLIC: &str = "s.counted";
