//! Writing a game's events, facts and summary: the log in chunks and the facts in batches (`crate::packed`),
//! other rows in bulk (`unnest` of arrays), statements prepared once per connection.

use super::*;
use crate::packed::chunks::Chunk;
use crate::packed::facts::Batch;

/// Statements prepared once per connection, by their text: a statement sent as text is parsed and planned
/// at every call, a round trip more each time (an append runs a dozen).
///
/// Beside them, the keys of the question metrics (`metrics`) known to be committed: a metric's row, once
/// committed, is never changed or removed, so its key needs reading once per connection.
#[derive(Default)]
pub(super) struct Prepared(RefCell<HashMap<&'static str, Statement>>, Box<RefCell<HashMap<(String, String), i32>>>);

impl Prepared {
    pub(super) fn statement(&self, tx: &mut impl postgres::GenericClient, sql: &'static str) -> Result<Statement> {
        if let Some(statement) = self.0.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = tx.prepare(sql)?;
        self.0.borrow_mut().insert(sql, statement.clone());
        Ok(statement)
    }

    /// The committed metric keys this connection has read (see the type).
    pub(super) fn metric_keys(&self) -> &RefCell<HashMap<(String, String), i32>> {
        &self.1
    }
}

/// Runs `sql`, prepared once, in `tx`: the rows it changed.
pub(super) fn run(
    tx: &mut Transaction,
    p: &Prepared,
    sql: &'static str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64> {
    let statement = p.statement(tx, sql)?;
    Ok(tx.execute(&statement, params)?)
}

/// Queries `sql`, prepared once, in `tx`.
pub(super) fn rows(
    tx: &mut Transaction,
    p: &Prepared,
    sql: &'static str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>> {
    let statement = p.statement(tx, sql)?;
    Ok(tx.query(&statement, params)?)
}

/// Stores `chunk` as the chunk of game `id` that starts at event `first_seq` (none for no events).
pub(super) fn write_chunk(tx: &mut Transaction, p: &Prepared, id: &str, first_seq: u64, chunk: &Chunk) -> Result<()> {
    if chunk.events == 0 {
        return Ok(());
    }
    run(
        tx,
        p,
        "INSERT INTO event_chunks (game_id, first_seq, last_seq, turns, lines, text_bytes) VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            &id,
            &(first_seq as i64),
            &((first_seq + chunk.events - 1) as i64),
            &chunk.turns,
            &chunk.lines,
            &(chunk.text_bytes as i64),
        ],
    )?;
    Ok(())
}

/// Stores `batch` as the facts of game `id` from event `first_seq` on (none for no facts, as on SQLite).
pub(super) fn write_batch(tx: &mut Transaction, p: &Prepared, id: &str, first_seq: u64, batch: &Batch) -> Result<()> {
    if batch.facts == 0 {
        return Ok(());
    }
    run(
        tx,
        p,
        "INSERT INTO fact_batches (game_id, first_seq, facts, packed) VALUES ($1, $2, $3, $4)",
        &[&id, &(first_seq as i64), &(batch.facts as i64), &batch.packed],
    )?;
    Ok(())
}

/// Replaces game `id`'s checkpoints after `after` events by `kept` (compressed: `crate::packed::checkpoints`),
/// written by ruleset version `version`, in one statement each.
pub(super) fn write_checkpoints(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    after: usize,
    version: u32,
    kept: &[(usize, Vec<u8>)],
) -> Result<()> {
    let events: Vec<i64> = kept.iter().map(|(n, _)| *n as i64).collect();
    let states: Vec<&[u8]> = kept.iter().map(|(_, s)| s.as_slice()).collect();
    // One round trip: the checkpoints after `after` that are not kept go, the kept are written over what
    // stood at their place.
    run(
        tx,
        p,
        "WITH gone AS (DELETE FROM checkpoints WHERE game_id = $1 AND events > $5 AND events <> ALL($3::bigint[]))
         INSERT INTO checkpoints (game_id, events, version, state)
         SELECT $1, events, $2, state FROM unnest($3::bigint[], $4::bytea[]) AS c(events, state)
         ON CONFLICT (game_id, events) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state",
        &[&id, &(version as i32), &events, &states, &(after as i64)],
    )?;
    Ok(())
}

/// An append's rows in one round trip: the new events' chunk (starting at event `first_seq`), their facts
/// (none written for none), and game `id`'s checkpoints after `after` replaced by `kept`, as
/// `write_chunk`, `write_batch` and `write_checkpoints` write them one statement each.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_appended(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    first_seq: u64,
    chunk: &Chunk,
    facts: &Batch,
    after: usize,
    version: u32,
    kept: &[(usize, Vec<u8>)],
) -> Result<()> {
    let events: Vec<i64> = kept.iter().map(|(n, _)| *n as i64).collect();
    let states: Vec<&[u8]> = kept.iter().map(|(_, s)| s.as_slice()).collect();
    run(
        tx,
        p,
        APPENDED,
        &[
            &id,
            &(first_seq as i64),
            &((first_seq + chunk.events - 1) as i64),
            &chunk.turns,
            &chunk.lines,
            &(chunk.text_bytes as i64),
            &(facts.facts as i64),
            &facts.packed,
            &(after as i64),
            &events,
            &(version as i32),
            &states,
        ],
    )?;
    Ok(())
}

/// Refreshes the derived columns of a game (counts, winner, edition, fingerprint, the model its chance numbers
/// were made with, final scores) from its final state; gives back the fingerprint it had.
pub(super) fn refresh_summary(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    game: &dyn Game,
    chances_model: Option<i64>,
) -> Result<Option<String>> {
    let view = game.view_after(usize::MAX);
    let seats: Vec<i32> = (0..view.players.len() as i32).collect();
    let vp: Vec<i64> = view.players.iter().map(|p| p.vp as i64).collect();
    let public: Vec<i64> = view.players.iter().map(|p| p.vp_public as i64).collect();
    let mut bots = game.bots();
    bots.resize(seats.len(), false);
    // One round trip: the players' points beside the game's row; the row before the update (`o`, read in
    // the statement's snapshot) gives the old fingerprint.
    let old: Option<String> = rows(
        tx,
        p,
        SUMMARY,
        &[
            &id,
            &(game.event_count() as i64),
            &(game.current_turn() as i32),
            &view.winner,
            &game.edition(),
            &game.fingerprint(),
            &chances_model,
            &seats,
            &vp,
            &public,
            &bots,
            &(game.unseen() as i64),
        ],
    )?
    .first()
    .and_then(|r| r.get(0));
    Ok(old)
}

/// Which seats count, decided again after game `id` changed, as on SQLite (`sqlite::recount`): its seats take
/// its row's fingerprint and whether it has a winner; every seat of a game sharing its fingerprint, or the one
/// it had (`old`), counts when its game is published, not deleted, has a winner and is, of the games so with that
/// fingerprint, the one that saw the most (the fewest unseen cards, then the longest, then the first stored).
pub(super) fn recount(tx: &mut Transaction, p: &Prepared, id: &str, old: Option<&str>) -> Result<()> {
    // A seat is made from its game's player (`questions::INSERT_SEATS`): each has one.
    run(tx, p, SEATS_OF_GAME, &[&id])?;
    run(tx, p, COUNTED, &[&id, &old])?;
    Ok(())
}

/// `write_appended`'s statement.
pub(super) const APPENDED: &str =
    "WITH chunk AS (INSERT INTO event_chunks (game_id, first_seq, last_seq, turns, lines, text_bytes)
                        VALUES ($1, $2, $3, $4, $5, $6)),
              facts AS (INSERT INTO fact_batches (game_id, first_seq, facts, packed)
                        SELECT $1, $2, $7::bigint, $8::bytea WHERE $7::bigint > 0),
              gone AS (DELETE FROM checkpoints WHERE game_id = $1 AND events > $9 AND events <> ALL($10::bigint[]))
         INSERT INTO checkpoints (game_id, events, version, state)
         SELECT $1, events, $11, state FROM unnest($10::bigint[], $12::bytea[]) AS c(events, state)
         ON CONFLICT (game_id, events) DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state";

/// `refresh_summary`'s statement.
pub(super) const SUMMARY: &str = "WITH players AS (UPDATE game_players p SET vp = u.vp, vp_public = u.vp_public, bot = u.bot
                          FROM unnest($8::int[], $9::bigint[], $10::bigint[], $11::bool[]) AS u(seat, vp, vp_public, bot)
                          WHERE p.game_id = $1 AND p.seat = u.seat)
         UPDATE games g SET event_count = $2, turn_count = $3, winner = $4, edition = $5, fingerprint = $6,
                chances_model = $7, unseen = $12
         FROM (SELECT fingerprint AS old FROM games WHERE id = $1) o
         WHERE g.id = $1 RETURNING o.old";

/// `recount`'s first statement: a game's seats take its fingerprint, whether it is over, who are programs and
/// its edition.
pub(super) const SEATS_OF_GAME: &str =
    "UPDATE seats s SET fingerprint = g.fingerprint, finished = (g.winner IS NOT NULL), bot = q.bot,
                         edition = COALESCE(g.edition, '')
         FROM games g, game_players q
         WHERE g.id = s.game_id AND q.game_id = s.game_id AND q.seat = s.seat AND s.game_id = $1
           AND (s.fingerprint IS DISTINCT FROM g.fingerprint OR s.finished <> (g.winner IS NOT NULL) OR s.bot <> q.bot
                OR s.edition <> COALESCE(g.edition, ''))";

/// `recount`'s second statement: which seats count.
pub(super) const COUNTED: &str = "UPDATE seats s SET counted = c.counts
         FROM (SELECT x.key, x.published AND NOT x.deleted AND x.finished AND NOT EXISTS (
                   SELECT 1 FROM seats e JOIN games ge ON ge.id = e.game_id, games gx
                   WHERE gx.id = x.game_id AND e.fingerprint = x.fingerprint AND e.seat = x.seat
                      AND e.published AND NOT e.deleted AND e.finished
                      AND (ge.unseen, -ge.event_count, e.key) < (gx.unseen, -gx.event_count, x.key)) AS counts
               FROM seats x
               WHERE x.game_id = $1 OR x.fingerprint = (SELECT fingerprint FROM games WHERE id = $1)
                  OR x.fingerprint = $2) AS c
         WHERE s.key = c.key AND s.counted <> c.counts";
