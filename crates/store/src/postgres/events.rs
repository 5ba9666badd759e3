//! Writing a game's events, facts and summary: rows in bulk (`unnest` of arrays), statements prepared once
//! per connection.

use super::*;

/// Statements prepared once per connection, by their text: a statement sent as text is parsed and planned
/// at every call, a round trip more each time (an append runs a dozen).
#[derive(Default)]
pub(super) struct Prepared(RefCell<HashMap<&'static str, Statement>>);

impl Prepared {
    fn statement(&self, tx: &mut Transaction, sql: &'static str) -> Result<Statement> {
        if let Some(statement) = self.0.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = tx.prepare(sql)?;
        self.0.borrow_mut().insert(sql, statement.clone());
        Ok(statement)
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

/// Events `first..` of `game` as rows, with their facts: one statement for each table.
pub(super) fn write_events(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    game: &dyn Game,
    first: usize,
    lines: &[&str],
    facts: &[FactRow],
) -> Result<()> {
    let seqs: Vec<i64> = (0..lines.len()).map(|k| (first + k) as i64 + 1).collect();
    let turns: Vec<i32> = (0..lines.len()).map(|k| game.event_turn(first + k) as i32).collect();
    run(
        tx,
        p,
        "INSERT INTO events (game_id, seq, turn, body)
         SELECT $1, seq, turn, body FROM unnest($2::bigint[], $3::int[], $4::text[]) AS e(seq, turn, body) ORDER BY seq",
        &[&id, &seqs, &turns, &lines],
    )?;
    write_facts(tx, p, id, facts)
}

/// Replaces game `id`'s checkpoints after `after` events by those `game` keeps after them, in one statement
/// each (see `sqlite::checkpoints`).
pub(super) fn write_checkpoints(
    tx: &mut Transaction,
    p: &Prepared,
    id: &str,
    game: &dyn Game,
    after: usize,
) -> Result<()> {
    run(tx, p, "DELETE FROM checkpoints WHERE game_id = $1 AND events > $2", &[&id, &(after as i64)])?;
    let kept = game.checkpoints(after);
    let events: Vec<i64> = kept.iter().map(|(n, _)| *n as i64).collect();
    let states: Vec<&[u8]> = kept.iter().map(|(_, s)| s.as_slice()).collect();
    run(
        tx,
        p,
        "INSERT INTO checkpoints (game_id, events, version, state)
         SELECT $1, events, $2, state FROM unnest($3::bigint[], $4::bytea[]) AS c(events, state)",
        &[&id, &(game.ruleset_version() as i32), &events, &states],
    )?;
    Ok(())
}

/// The facts of events `first..` of `game`, in one statement.
pub(super) fn write_facts(tx: &mut Transaction, p: &Prepared, id: &str, facts: &[FactRow]) -> Result<()> {
    // Each fact's place in its event, counted along the rows.
    let mut rows: Vec<(&FactRow, i32)> = Vec::with_capacity(facts.len());
    for (k, f) in facts.iter().enumerate() {
        let n = match k.checked_sub(1).map(|p| &facts[p]) {
            Some(prev) if prev.seq == f.seq => rows[k - 1].1 + 1,
            _ => 0,
        };
        rows.push((f, n));
    }
    let column = |f: &dyn Fn(&FactRow) -> Option<i64>| -> Vec<Option<i64>> { rows.iter().map(|(r, _)| f(r)).collect() };
    let text =
        |f: &dyn Fn(&FactRow) -> Option<String>| -> Vec<Option<String>> { rows.iter().map(|(r, _)| f(r)).collect() };
    let seq = column(&|r| Some(r.seq as i64));
    let n: Vec<i32> = rows.iter().map(|(_, n)| *n).collect();
    let turn: Vec<i32> = rows.iter().map(|(r, _)| r.turn as i32).collect();
    let kind: Vec<&str> = rows.iter().map(|(r, _)| r.kind.as_str()).collect();
    let player = column(&|r| r.player.map(i64::from));
    let item = text(&|r| r.item.clone());
    let count = column(&|r| r.count);
    let cause = text(&|r| r.cause.clone());
    let other = column(&|r| r.other.map(i64::from));
    let total = column(&|r| r.total);
    let public = column(&|r| r.public);
    let detail = text(&|r| r.detail.clone());
    run(
        tx,
        p,
        "INSERT INTO facts (game_id, seq, n, turn, kind, player, item, count, cause, other, total, public, detail)
         SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::int[], $5::text[], $6::bigint[], $7::text[], $8::bigint[],
                                  $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::text[])",
        &[&id, &seq, &n, &turn, &kind, &player, &item, &count, &cause, &other, &total, &public, &detail],
    )?;
    Ok(())
}

/// Refreshes the derived columns of a game (counts, winner, edition, fingerprint, final scores) from its final
/// state; gives back the fingerprint it had.
pub(super) fn refresh_summary(tx: &mut Transaction, p: &Prepared, id: &str, game: &dyn Game) -> Result<Option<String>> {
    let view = game.view_after(usize::MAX);
    let old: Option<String> =
        rows(tx, p, "SELECT fingerprint FROM games WHERE id = $1", &[&id])?.first().and_then(|r| r.get(0));
    run(
        tx,
        p,
        "UPDATE games SET event_count = $2, turn_count = $3, winner = $4, edition = $5, fingerprint = $6 WHERE id = $1",
        &[
            &id,
            &(game.event_count() as i64),
            &(game.current_turn() as i32),
            &view.winner,
            &game.edition(),
            &game.fingerprint(),
        ],
    )?;
    let seats: Vec<i32> = (0..view.players.len() as i32).collect();
    let vp: Vec<i64> = view.players.iter().map(|p| p.vp as i64).collect();
    let public: Vec<i64> = view.players.iter().map(|p| p.vp_public as i64).collect();
    let mut bots = game.bots();
    bots.resize(seats.len(), false);
    run(
        tx,
        p,
        "UPDATE game_players p SET vp = u.vp, vp_public = u.vp_public, bot = u.bot
         FROM unnest($2::int[], $3::bigint[], $4::bigint[], $5::bool[]) AS u(seat, vp, vp_public, bot)
         WHERE p.game_id = $1 AND p.seat = u.seat",
        &[&id, &seats, &vp, &public, &bots],
    )?;
    Ok(old)
}

/// Which seats count, decided again after game `id` changed, as on SQLite (`sqlite::recount`): its seats take
/// its row's fingerprint and whether it has a winner; every seat of a game sharing its fingerprint, or the one
/// it had (`old`), counts when its game is published, not deleted, has a winner and is the first stored of the
/// games so with that fingerprint.
pub(super) fn recount(tx: &mut Transaction, p: &Prepared, id: &str, old: Option<&str>) -> Result<()> {
    run(
        tx,
        p,
        "UPDATE seats s SET fingerprint = g.fingerprint, finished = (g.winner IS NOT NULL)
         FROM games g WHERE g.id = s.game_id AND s.game_id = $1
           AND (s.fingerprint IS DISTINCT FROM g.fingerprint OR s.finished <> (g.winner IS NOT NULL))",
        &[&id],
    )?;
    run(
        tx,
        p,
        "UPDATE seats s SET bot = q.bot FROM game_players q
         WHERE q.game_id = s.game_id AND q.seat = s.seat AND s.game_id = $1 AND s.bot <> q.bot",
        &[&id],
    )?;
    run(
        tx,
        p,
        "UPDATE seats s SET counted = c.counts
         FROM (SELECT x.key, x.published AND NOT x.deleted AND x.finished AND NOT EXISTS (
                   SELECT 1 FROM seats e WHERE e.fingerprint = x.fingerprint AND e.seat = x.seat
                      AND e.published AND NOT e.deleted AND e.finished AND e.key < x.key) AS counts
               FROM seats x
               WHERE x.game_id = $1 OR x.fingerprint = (SELECT fingerprint FROM games WHERE id = $1)
                  OR x.fingerprint = $2) AS c
         WHERE s.key = c.key AND s.counted <> c.counts",
        &[&id, &old],
    )?;
    Ok(())
}

pub(super) fn fact_row(r: &Row) -> Result<FactRow> {
    let kind: &str = r.get(2);
    let kind = FactKind::named(kind)
        .ok_or_else(|| StoreError::Invalid(format!("a stored fact of no known kind, `{kind}`")))?;
    Ok(FactRow {
        seq: r.get::<_, i64>(0) as u64,
        turn: r.get::<_, i32>(1) as u32,
        kind,
        player: r.get::<_, Option<i64>>(3).map(|p| p as u32),
        item: r.get(4),
        count: r.get(5),
        cause: r.get(6),
        other: r.get::<_, Option<i64>>(7).map(|o| o as u32),
        total: r.get(8),
        public: r.get(9),
        detail: r.get(10),
    })
}
